import { randomBytes } from 'node:crypto';
import { mkdir, readlink, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { foreignFileProblem } from '../package/foreignFileProblem';

/**
 * Writes a file whole for a command (`svc pack`'s package, `svc types`' declarations, the editor's settings): into a
 * temporary file beside it, then renamed over it, so a reader never sees half a file; the folder is made when it is
 * missing. A symbolic link there is written through, as `cp` does, so the link stays, when it and its file are this
 * user's (another user's link, or file, is refused). When it cannot be written, the
 * temporary file is removed (left beside an app's files, the next `svc pack` would sign it into the package) and the
 * reason is returned, such as `EACCES: permission denied`, for a refusal that names the file the person gave.
 * @returns undefined once written; the reason it could not be, otherwise.
 * @internal
 */
export async function replaceFile(path: string, data: string | Uint8Array): Promise<string | undefined> {
  // In a folder others can write (/tmp), a link another user put there would decide where this file lands.
  const foreign = await foreignFileProblem(path);
  if (foreign) return `it ${foreign}`;
  // A link whose file is not there yet (a settings file kept elsewhere) is written through too.
  const target = await realpath(path).catch(async () => {
    const link = await readlink(path).catch(() => undefined);
    return link === undefined ? path : resolve(dirname(path), link);
  });
  // Only a regular file is replaced: renamed over, a device (`--out /dev/stdout`, which leads to /dev/full or a
  // terminal) would be replaced by a file, for every program of the machine.
  const kind = await stat(target).catch(() => undefined);
  if (kind?.isDirectory()) return 'EISDIR: it is a folder';
  if (kind && !kind.isFile()) return 'it is a device, a pipe or a socket, not a file';
  // Unique per write: two commands writing one file at once never share a temporary file.
  const temporary = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await mkdir(dirname(target), { recursive: true });
    await writeFile(temporary, data);
    await rename(temporary, target);
    return undefined;
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    const { code, message } = error as NodeJS.ErrnoException;
    // Its folder cannot be made where a file holds a part of the path (`--out afile/x.swbn`).
    if (code === 'EEXIST' || code === 'ENOTDIR') return 'ENOTDIR: a part of its folder is a file, not a folder';
    // Node's message names the temporary file, which the person never gave: the code and its words only.
    return message.split(',')[0] || code || String(error);
  }
}
