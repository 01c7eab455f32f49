import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  entriesOf,
  forgetLocalDiscovery,
  isLive,
  type LocalDiscovery,
  localDiscoveryPath,
  readLocalDiscovery,
  readLocalDiscoveryFile,
  writeLocalDiscovery,
} from '../localDiscovery';

/** How many earlier platforms of a folder its discovery file remembers. */
const MAX_OTHERS = 8;

/** What `svc dev` leaves for `svc mcp` to find it: the endpoint, its token, and the process that serves it. @internal */
export interface McpDiscovery extends LocalDiscovery {
  /** The app folder (absolute) this platform serves. */
  dir: string;
}

/**
 * The discovery file of an app folder: `$SVC_STATE_DIR` (default `~/.svc-sdk`), then `dev/<hash of the folder>.json`.
 * @internal
 */
function discoveryPath(dir: string): string {
  return localDiscoveryPath(createHash('sha256').update(canonical(dir)).digest('hex').slice(0, 24));
}

/**
 * The folder as the file system has it, its links resolved: svc dev started on a link to a folder and svc mcp on the
 * folder itself (or the other way round) find each other, and two svc dev on it are told apart from one.
 */
function canonical(dir: string): string {
  try {
    return realpathSync(resolve(dir));
  } catch {
    return resolve(dir);
  }
}

/**
 * Writes it, readable by this user only, keeping the platforms that wrote it before and run still as its `others`
 * (a second `svc dev` on the same folder, such as a test's beside the developer's): `svc mcp` finds this one while
 * it runs, and the one before again once it has gone, even killed.
 * @returns the platform that ran for the folder before this one and runs still, if any.
 * @internal
 */
export async function writeDiscovery(discovery: McpDiscovery): Promise<LocalDiscovery | undefined> {
  const path = discoveryPath(discovery.dir);
  const folder = canonical(discovery.dir);
  const others = entriesOf(await readLocalDiscoveryFile<McpDiscovery>(path)).filter(
    (entry) => entry.url !== discovery.url && isLive(entry) && servesFolder(entry, folder),
  );
  await writeEntries(path, [discovery, ...others.slice(0, MAX_OTHERS)]);
  return others[0];
}

/**
 * Takes this platform out of it as it closes: the file leads to the newest other platform that runs still, or is
 * removed when there is none.
 * @internal
 */
export async function removeDiscovery(dir: string, url: string): Promise<void> {
  forgetLocalDiscovery(url);
  const path = discoveryPath(dir);
  const entries = entriesOf(await readLocalDiscoveryFile<McpDiscovery>(path));
  if (!entries.some((entry) => entry.url === url)) return;
  const rest = entries.filter((entry) => entry.url !== url && isLive(entry));
  if (rest.length === 0) await rm(path, { force: true });
  else await writeEntries(path, rest);
}

/** Writes a discovery file of `entries`, newest first: the first, with the rest (each without its own) behind it. */
function writeEntries(path: string, [top, ...rest]: LocalDiscovery[]): Promise<void> {
  const bare = ({ others: _others, ...entry }: LocalDiscovery) => entry;
  return writeLocalDiscovery(path, { ...bare(top!), ...(rest.length ? { others: rest.map(bare) } : {}) });
}

/** Whether an entry of a discovery file names `folder` (resolved by {@link canonical}) as the one it serves. */
const servesFolder = (entry: LocalDiscovery, folder: string) => {
  const named = (entry as Partial<McpDiscovery>).dir;
  return typeof named === 'string' && canonical(named) === folder;
};

/** The discovery of a running `svc dev` for `dir`, or undefined when none runs (a stale file is ignored). @internal */
export function readDiscovery(dir: string): Promise<McpDiscovery | undefined> {
  const folder = canonical(dir);
  return readLocalDiscovery<McpDiscovery>(discoveryPath(dir), (entry) => servesFolder(entry, folder));
}
