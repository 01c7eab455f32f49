import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** What a running `svc dev` leaves for another command to find it: an address, its token, and its process. */
export interface LocalDiscovery {
  url: string;
  token: string;
  pid: number;
}

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

/** Whether process `pid` runs (EPERM: it does, as another user's). @internal */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Writes a discovery file readable by this user only (mode 600 in a mode 700 folder), and removes the folder's stale
 * ones: a platform that was killed (SIGKILL, a crash) could not remove its own, and each holds a token.
 */
export async function writeLocalDiscovery(path: string, value: LocalDiscovery): Promise<void> {
  const folder = join(path, '..');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(value)}\n`, { mode: 0o600 });
  // Not awaited: svc dev writes one as it starts, and the folder may hold many.
  void removeStaleDiscoveries(folder).catch(() => {});
}

/**
 * Removes the discovery files of `folder` whose process is gone. A file that does not parse is left alone: it may be
 * another platform's, being written at this moment.
 */
async function removeStaleDiscoveries(folder: string): Promise<void> {
  for (const name of await readdir(folder)) {
    if (!name.endsWith('.json')) continue;
    const path = join(folder, name);
    const text = await readFile(path, 'utf8').catch(() => '');
    let pid: unknown;
    try {
      pid = (JSON.parse(text) as Partial<LocalDiscovery>).pid;
    } catch {
      continue;
    }
    if (Number.isInteger(pid) && !alive(pid as number)) await rm(path, { force: true });
  }
}

/** A discovery file's value, or undefined when it is missing, malformed, or its process is gone (a stale file). */
export async function readLocalDiscovery<T extends LocalDiscovery>(path: string): Promise<T | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as T;
    const valid = typeof value.url === 'string' && typeof value.token === 'string' && Number.isInteger(value.pid);
    return valid && alive(value.pid) ? value : undefined;
  } catch {
    return undefined;
  }
}
