import { open, stat } from 'node:fs/promises';
import { startsAsPackage } from '../package/readPackage';

/** Why `svc pack` does not write to `--out`: a sentence, and whether the path cannot be written (exit 2) at all. */
export interface OutFileProblem {
  message: string;
  /** A folder, a device, a pipe, a file it cannot read: no package can go there (the others are refused, exit 1). */
  unwritable: boolean;
}

/**
 * Why `svc pack` must not write its package to `out`, or undefined when it may: `out` is one of the keys it signs
 * with, a folder, or an existing file that is not a package (a key, the app's manifest.json). An older package there
 * is replaced, as a build replaces its output; anything else was a slip (`--key` and `--out` swapped, a file name
 * completed wrong), and the key it would destroy is the app's only proof of its updates.
 * @internal
 */
export async function outFileProblem(
  out: string,
  keyFiles: string[],
  shown: string,
): Promise<OutFileProblem | undefined> {
  const refused = (message: string) => ({ message, unwritable: false });
  const unwritable = (message: string) => ({ message, unwritable: true });
  if (keyFiles.includes(out))
    return refused(`--out ${shown} is a key it signs with: the package would replace the key. Choose another --out.`);
  // Looked at before it is opened: a pipe would wait for a writer, and a device (`/dev/stdout`) is no file to replace.
  const kind = await stat(out).catch(() => undefined);
  if (kind && !kind.isFile() && !kind.isDirectory())
    return unwritable(`--out ${shown} is a device, a pipe or a socket, not a file: name the package's file.`);
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(out, 'r');
  } catch (error) {
    // Nothing there (or a file where a folder of the path should be): the write says whether it can be made.
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    return unwritable(
      `--out ${shown} cannot be read (${(error as NodeJS.ErrnoException).code}): choose another --out.`,
    );
  }
  try {
    if ((await file.stat()).isDirectory()) return unwritable(`--out ${shown} is a folder: name the package's file.`);
    const head = new Uint8Array(10);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    if (bytesRead === head.length && startsAsPackage(head)) return undefined;
    return refused(
      `--out ${shown} exists and is not a package, so it would be overwritten: choose another --out, or remove the file first.`,
    );
  } finally {
    await file.close();
  }
}
