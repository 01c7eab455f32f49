import { open } from 'node:fs/promises';
import { MAX_PACKAGE_BYTES, tooLarge } from './readPackage';
import { statRegularFile } from './statRegularFile';

/**
 * Reads a package file (`.swbn`) whole, after checking its size against the limit from the file system: a file over
 * it is refused as `too-large` before a byte is read (a wrong file of gigabytes costs no memory, and is told the same
 * way at any size). A device, a pipe or a folder is refused before it is opened ({@link statRegularFile}). Node only.
 * @param maxBytes - The largest package accepted; default {@link MAX_PACKAGE_BYTES}.
 * @throws `PackageError` `too-large`; the file system's error (with its `code`) when it cannot be read, `EISDIR` for a
 * folder and `not a regular file` for a device or a pipe.
 * @internal
 */
export async function readPackageFile(path: string, maxBytes = MAX_PACKAGE_BYTES): Promise<Uint8Array<ArrayBuffer>> {
  await statRegularFile(path);
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw tooLarge(size, maxBytes);
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}
