import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type LocalDiscovery, localDiscoveryPath, readLocalDiscovery, writeLocalDiscovery } from '../localDiscovery';

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
  return localDiscoveryPath(createHash('sha256').update(resolve(dir)).digest('hex').slice(0, 24));
}

/**
 * Writes it, readable by this user only.
 * @returns the discovery of another platform that ran for the folder before and runs still (a second `svc dev` on
 * the same folder, such as a test's beside the developer's): `svc mcp` finds this one while it runs, and that one
 * again once this one has removed its own.
 * @internal
 */
export async function writeDiscovery(discovery: McpDiscovery): Promise<McpDiscovery | undefined> {
  const path = discoveryPath(discovery.dir);
  const before = await readDiscovery(discovery.dir);
  await writeLocalDiscovery(path, discovery);
  return before?.url === discovery.url ? undefined : before;
}

/** The endpoints of the platforms this process has closed. */
const closedHere = new Set<string>();

/**
 * Removes it, when it is still this platform's (the same URL): a platform started later for the same folder, in this
 * process or another, keeps its own. The platform that ran for the folder before this one (`before`, from
 * {@link writeDiscovery}) is found again if it still runs.
 * @internal
 */
export async function removeDiscovery(dir: string, url: string, before?: McpDiscovery): Promise<void> {
  closedHere.add(url);
  const found = await readDiscovery(dir);
  if (found?.url !== url) return;
  // One of this process that closed already is not found again: its process runs on, so the file would not be stale.
  if (before && !(before.pid === process.pid && closedHere.has(before.url))) {
    await writeLocalDiscovery(discoveryPath(dir), before);
    // Its process may have ended meanwhile: then it is a stale file, which is not left behind.
    if (await readDiscovery(dir)) return;
  }
  await rm(discoveryPath(dir), { force: true });
}

/** The discovery of a running `svc dev` for `dir`, or undefined when none runs (a stale file is ignored). @internal */
export function readDiscovery(dir: string): Promise<McpDiscovery | undefined> {
  return readLocalDiscovery<McpDiscovery>(discoveryPath(dir));
}
