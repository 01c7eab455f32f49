import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** What `svc dev` leaves for `svc mcp` to find it: the endpoint, its token, and the process that serves it. @internal */
export interface McpDiscovery {
  /** The app folder (absolute) this platform serves. */
  dir: string;
  url: string;
  token: string;
  pid: number;
}

/**
 * The discovery file of an app folder: `$SVC_STATE_DIR` (default `~/.svc-sdk`), then `dev/<hash of the folder>.json`.
 * Outside the app folder, so the token never lands in a repository.
 * @internal
 */
function discoveryPath(dir: string): string {
  const base = process.env.SVC_STATE_DIR || join(homedir(), '.svc-sdk');
  const key = createHash('sha256').update(resolve(dir)).digest('hex').slice(0, 24);
  return join(base, 'dev', `${key}.json`);
}

/** Writes it, readable by this user only (mode 600 in a mode 700 folder). @internal */
export async function writeDiscovery(discovery: McpDiscovery): Promise<string> {
  const path = discoveryPath(discovery.dir);
  await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(discovery)}\n`, { mode: 0o600 });
  return path;
}

/**
 * Removes it, when it is still this platform's (the same URL): a platform started later for the same folder, in this
 * process or another, keeps its own.
 * @internal
 */
export async function removeDiscovery(dir: string, url: string): Promise<void> {
  const found = await readDiscovery(dir);
  if (found?.url === url) await rm(discoveryPath(dir), { force: true });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The discovery of a running `svc dev` for `dir`, or undefined when none runs (a stale file is ignored). @internal */
export async function readDiscovery(dir: string): Promise<McpDiscovery | undefined> {
  const text = await readFile(discoveryPath(dir), 'utf8').catch(() => undefined);
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as McpDiscovery;
    if (typeof value.url !== 'string' || typeof value.token !== 'string' || !Number.isInteger(value.pid))
      return undefined;
    return alive(value.pid) ? value : undefined;
  } catch {
    return undefined;
  }
}
