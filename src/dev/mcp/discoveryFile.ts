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

/** Writes it, readable by this user only. @internal */
export async function writeDiscovery(discovery: McpDiscovery): Promise<string> {
  const path = discoveryPath(discovery.dir);
  await writeLocalDiscovery(path, discovery);
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

/** The discovery of a running `svc dev` for `dir`, or undefined when none runs (a stale file is ignored). @internal */
export function readDiscovery(dir: string): Promise<McpDiscovery | undefined> {
  return readLocalDiscovery<McpDiscovery>(discoveryPath(dir));
}
