import { readFileSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { foreignFileProblem } from '../package/foreignFileProblem';
import { isLoopbackHost } from './isLoopbackHost';
import { makePrivateFolder, writePrivateFile } from './writePrivateFile';

/** What a running `svc dev` leaves for another command to find it: an address, its token, and its process. */
export interface LocalDiscovery {
  url: string;
  token: string;
  pid: number;
  /**
   * The platforms that wrote the same file before this one and ran still then, newest first: found again when this
   * one has gone, also when it could not say so (killed).
   */
  others?: LocalDiscovery[];
}

// The platforms this process closed: its pid runs on, so only this says they are gone.
const closedHere = new Set<string>();
// The discovery files this process writes: the folder's clean-up, run after each write, leaves them alone. A platform
// writes two at once (the agent bridge's and the store's): the clean-up the first started could read the second's
// stale file of a killed run, and remove it just after this process had written it anew.
const writtenHere = new Set<string>();

/** Marks the platform at `url`, of this process, as closed: no discovery file leads to it any more. */
export function forgetLocalDiscovery(url: string): void {
  closedHere.add(url);
}

/** Whether `url` is an address svc dev serves on: plain HTTP on this machine's loopback. */
const onLoopback = (url: string) => {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  return parsed?.protocol === 'http:' && isLoopbackHost(parsed.hostname);
};

/**
 * Whether an entry of a discovery file is well-formed and its platform still runs: on this machine's loopback, where
 * every svc dev listens (an entry leading elsewhere would send an agent's calls, or a package, to another host).
 */
export function isLive(entry: Partial<LocalDiscovery> | undefined): entry is LocalDiscovery {
  return (
    typeof entry?.url === 'string' &&
    onLoopback(entry.url) &&
    typeof entry.token === 'string' &&
    Number.isInteger(entry.pid) &&
    alive(entry.pid as number) &&
    !(entry.pid === process.pid && closedHere.has(entry.url))
  );
}

/** A discovery file's entries, the newest first: the one that wrote it, then the `others`. */
export const entriesOf = (value: LocalDiscovery | undefined): LocalDiscovery[] =>
  value ? [value, ...(Array.isArray(value.others) ? value.others : [])] : [];

/** `$SVC_STATE_DIR/dev` (default `~/.svc-sdk/dev`): the folder of the discovery files. */
export function localDiscoveryFolder(): string {
  return join(process.env.SVC_STATE_DIR || join(homedir(), '.svc-sdk'), 'dev');
}

/**
 * `$SVC_STATE_DIR/dev/<name>.json` (default `~/.svc-sdk`): outside every project, so a token never lands in a
 * repository.
 */
export function localDiscoveryPath(name: string): string {
  return join(localDiscoveryFolder(), `${name}.json`);
}

/**
 * Whether a process that exists has ended and waits for its parent to read its exit (a zombie, state Z in Linux's
 * /proc): a svc dev killed by a parent that never reaps it (a test runner, a shell script) exists still, holding no
 * file, no port and no lock. False where /proc does not tell.
 */
const ended = (pid: number) => {
  try {
    // `pid (name) S ...`: the state follows the name's closing parenthesis (a name may hold spaces and parentheses).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return /^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
};

/** Whether process `pid` runs (EPERM: it does, as another user's; a zombie does not). @internal */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !ended(pid);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM' && !ended(pid);
  }
};

/**
 * Writes a discovery file readable by this user only (mode 600 in a mode 700 folder, both refused when another user
 * could have put them there), and removes the folder's stale ones: a platform that was killed (SIGKILL, a crash)
 * could not remove its own, and each holds a token.
 */
export async function writeLocalDiscovery(path: string, value: LocalDiscovery): Promise<void> {
  const folder = join(path, '..');
  writtenHere.add(path);
  await makePrivateFolder(folder);
  await writePrivateFile(path, `${JSON.stringify(value)}\n`);
  // Not awaited: svc dev writes one as it starts, and the folder may hold many.
  void removeStaleDiscoveries(folder).catch(() => {});
}

/**
 * Removes the discovery files of `folder` whose process is gone, and the temporary files of writers that are gone. A
 * file that does not parse is left alone: it may be another platform's, being written at this moment.
 */
async function removeStaleDiscoveries(folder: string): Promise<void> {
  for (const name of await readdir(folder)) {
    // A file a process was writing when it was killed (writePrivateFile's temporary, its pid in its name): empty, or
    // holding a token.
    const writer = /\.json\.(\d+)\.[\da-f]{8}\.tmp$/.exec(name)?.[1];
    if (writer !== undefined && !alive(Number(writer))) await rm(join(folder, name), { force: true });
    const path = join(folder, name);
    if (!name.endsWith('.json') || writtenHere.has(path)) continue;
    const text = await readFile(path, 'utf8').catch(() => '');
    let value: LocalDiscovery;
    try {
      value = JSON.parse(text) as LocalDiscovery;
    } catch {
      continue;
    }
    // Asked again after the read: this process may have begun writing it meanwhile.
    if (Number.isInteger(value?.pid) && !entriesOf(value).some(isLive) && !writtenHere.has(path))
      await rm(path, { force: true });
  }
}

/**
 * A discovery file's value as written, or undefined when it is missing or malformed, or is not this user's own or
 * others can write it (a file another user put there, or changed, would lead an agent's calls, or a package, to a
 * server of theirs).
 */
export async function readLocalDiscoveryFile<T extends LocalDiscovery>(path: string): Promise<T | undefined> {
  if (await foreignFileProblem(path)) return undefined;
  // svc dev writes it mode 600: one other users can write is not what it wrote.
  if (((await stat(path).catch(() => undefined))?.mode ?? 0) & 0o022) return undefined;
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as T;
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The platform a discovery file leads to: the newest of its entries that still runs (and that `accept` takes), or
 * undefined when the file is missing, malformed, or each of its processes is gone (a stale file).
 */
export async function readLocalDiscovery<T extends LocalDiscovery>(
  path: string,
  accept: (entry: LocalDiscovery) => boolean = () => true,
): Promise<T | undefined> {
  return entriesOf(await readLocalDiscoveryFile<T>(path)).find((entry) => isLive(entry) && accept(entry)) as
    | T
    | undefined;
}
