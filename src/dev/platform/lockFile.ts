import { open, readFile, rm } from 'node:fs/promises';
import { alive } from '../localDiscovery';

/** The process id written in a file's lock (`<path>.lock`), or '' when there is none yet. */
const lockHolder = async (path: string) => (await readFile(`${path}.lock`, 'utf8').catch(() => '')).trim();

/** The id of another process that runs and holds the lock `holder` names, or undefined (none, this one, or gone). */
function otherRunningHolder(holder: string): number | undefined {
  const pid = Number(holder);
  return holder && Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : undefined;
}

const inUse = (flag: string, path: string, pid: number) =>
  Object.assign(
    new Error(
      `${flag} ${path} is in use by another svc dev (process ${pid}): stop that one first, or pass another ${flag}. If no svc dev runs (its process id was given to another program since), delete ${path}.lock.`,
    ),
    { code: 'ELOCKED', pid },
  );

/**
 * Takes the file at `path` for this process (`<path>.lock`, holding its id) and returns what gives it back: a file
 * another running process holds is refused, naming `flag` (the option that named the file) and that process; a lock
 * whose process is gone (killed) is taken over.
 * @internal
 */
export async function lockFile(path: string, flag: string): Promise<() => Promise<void>> {
  const lock = `${path}.lock`;
  const mine = String(process.pid);
  const release = async () => {
    if ((await lockHolder(path)) === mine) await rm(lock, { force: true });
  };
  for (let tries = 0; ; tries++) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      // A lock this process made but could not write its id into (a full disk) is not left for the next start to
      // wait on.
      await handle
        .writeFile(mine)
        .finally(() => handle.close())
        .catch(async (error: unknown) => {
          await rm(lock, { force: true });
          throw error;
        });
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await lockHolder(path);
    // Created a moment ago and not written yet: its process is writing its id.
    if (holder === '' && tries < 10) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    // This process holds it already: a platform started again in it (the next port tried, a test's restart).
    if (holder === mine) return release;
    const other = otherRunningHolder(holder);
    if (other !== undefined) throw inUse(flag, path, other);
    await rm(lock, { force: true });
  }
}

/**
 * Throws when another running process holds the file at `path` (what `svc dev --reset` checks before it deletes the
 * state file: a file in use is not deleted under the svc dev that writes it).
 * @internal
 */
export async function assertFileFree(path: string, flag: string): Promise<void> {
  const other = otherRunningHolder(await lockHolder(path));
  if (other !== undefined) throw inUse(flag, path, other);
}
