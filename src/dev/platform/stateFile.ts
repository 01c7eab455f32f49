import { readFile, rename, writeFile } from 'node:fs/promises';
import type { DevState } from '../protocol';

/**
 * Saves the state atomically: writes a temporary file beside it, then renames it over the old one, so a crash
 * never leaves a half-written file. Secrets are not part of {@link DevState} and are never written.
 * @internal
 */
export async function saveState(path: string, state: DevState): Promise<void> {
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, path);
}

/**
 * Loads a saved state, or undefined when the file does not exist. A file that is not a state of this mini app
 * is an error naming the file and what to do (never silently replaced: no data is lost).
 * @internal
 */
export async function loadState(path: string, miniAppId: string): Promise<DevState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`--state ${path} is not valid JSON: fix it or delete it to start fresh.`);
  }
  const state = parsed as Partial<DevState>;
  const lists = ['users', 'tenants', 'rooms', 'installations', 'grants', 'notifications', 'deliveries'] as const;
  if (!state || typeof state !== 'object' || lists.some((key) => !Array.isArray(state[key])))
    throw new Error(`--state ${path} is not a svc dev state file: pass another path or delete it.`);
  if (state.mini_app_id !== miniAppId)
    throw new Error(
      `--state ${path} belongs to mini app ${String(state.mini_app_id)}, not ${miniAppId}: pass another path.`,
    );
  return state as DevState;
}
