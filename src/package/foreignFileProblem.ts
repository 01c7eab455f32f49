import { lstat, stat } from 'node:fs/promises';

/**
 * Why the file at `path` is not this user's own to read secrets from or write them to, as the rest of a sentence that
 * starts with the path; undefined when it is, or is not there. In a folder other users can write (`/tmp`, a shared CI
 * workspace), one of them could have put there a symbolic link (a command's output would land where they chose, over
 * a file of this user's), or a file of theirs (the secrets written into it stay theirs to read, and tokens read from
 * it are theirs to know). A link of this user's to a file of this user's is theirs, as the kernel's
 * `protected_symlinks` rule has it.
 * @internal
 */
export async function foreignFileProblem(path: string): Promise<string | undefined> {
  // Windows has no owner ids here: its folders of one user are that user's alone.
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const entry = await lstat(path).catch(() => undefined);
  if (!entry) return undefined;
  if (entry.uid !== uid)
    return `is a ${entry.isSymbolicLink() ? 'symbolic link' : 'file'} of another user (uid ${entry.uid})`;
  const file = entry.isSymbolicLink() ? await stat(path).catch(() => undefined) : entry;
  if (file && file.uid !== uid) return `leads to a file of another user (uid ${file.uid})`;
  return undefined;
}
