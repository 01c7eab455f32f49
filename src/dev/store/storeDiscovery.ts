import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** What `svc dev` leaves for `svc publish`: where its store is, its publish token, and the process serving it. */
export interface StoreDiscovery {
  /** The messenger's origin, `http://127.0.0.1:<port>`. */
  url: string;
  token: string;
  pid: number;
}

/** `$SVC_STATE_DIR/dev/store-<port>.json` (default `~/.svc-sdk`): outside every project, readable by this user only. */
function discoveryPath(url: string): string {
  const base = process.env.SVC_STATE_DIR || join(homedir(), '.svc-sdk');
  return join(base, 'dev', `store-${new URL(url).port || '80'}.json`);
}

/** Writes it (mode 600 in a mode 700 folder). */
export async function writeStoreDiscovery(discovery: StoreDiscovery): Promise<void> {
  const path = discoveryPath(discovery.url);
  await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(discovery)}\n`, { mode: 0o600 });
}

/** Removes it, when it is still this process's. */
export async function removeStoreDiscovery(url: string, pid = process.pid): Promise<void> {
  const found = await readStoreDiscovery(url);
  if (found?.pid === pid) await rm(discoveryPath(url), { force: true });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The store of the `svc dev` running at `url`, or undefined when none runs there (a stale file is ignored). */
export async function readStoreDiscovery(url: string): Promise<StoreDiscovery | undefined> {
  const text = await readFile(discoveryPath(url), 'utf8').catch(() => undefined);
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as StoreDiscovery;
    const valid = typeof value.url === 'string' && typeof value.token === 'string' && Number.isInteger(value.pid);
    return valid && new URL(value.url).origin === new URL(url).origin && alive(value.pid) ? value : undefined;
  } catch {
    return undefined;
  }
}
