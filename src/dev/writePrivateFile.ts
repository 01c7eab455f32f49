import { randomBytes } from 'node:crypto';
import { lstat, mkdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { foreignFileProblem } from '../package/foreignFileProblem';

/**
 * Makes `folder` (and its parents) for files of secrets, this user's only (mode 700), and refuses one that is not:
 * another user's folder, or one others can write, would let them put their own file or link where svc dev writes
 * its tokens.
 * @throws Error naming the folder and what to do.
 * @internal
 */
export async function makePrivateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const uid = process.getuid?.();
  const found = await lstat(folder);
  const problem = !found.isDirectory()
    ? 'is not a folder'
    : uid !== undefined && found.uid !== uid
      ? `belongs to another user (uid ${found.uid})`
      : found.mode & 0o022
        ? `can be written by other users (mode ${(found.mode & 0o777).toString(8)}; chmod 700 it)`
        : undefined;
  if (problem) throw new Error(`${folder} ${problem}, and it would hold svc dev's tokens`);
}

/**
 * Writes a file of secrets (a token, a signing secret) whole and readable by this user only: into a new temporary
 * file beside it (mode 600, never an existing one), renamed over it, so the file is this user's whatever was there,
 * and a symbolic link there is replaced rather than followed unless it and its file are this user's.
 * @throws Error naming the file when another user's file or link is there, or the write fails.
 * @internal
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  const problem = await foreignFileProblem(path);
  if (problem) throw new Error(`${path} ${problem}: svc dev writes secrets there only to a file of yours`);
  const target = await realpath(path).catch(() => path);
  const temporary = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, text, { mode: 0o600, flag: 'wx' });
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw error;
  }
}
