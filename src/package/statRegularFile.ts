import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';

/**
 * The file system's facts of a file about to be read whole, looked at before it is opened: a device, a pipe or a
 * folder is refused, since `/dev/zero` would be read without end and opening a pipe nobody writes to waits for ever.
 * Node only.
 * @throws the file system's error (with its `code`, `ENOENT` for none); an error whose `code` is `EISDIR` for a folder
 * and `not a regular file` for a device or a pipe.
 * @internal
 */
export async function statRegularFile(path: string): Promise<Stats> {
  const kind = await stat(path);
  if (kind.isFile()) return kind;
  const code = kind.isDirectory() ? 'EISDIR' : 'not a regular file';
  throw Object.assign(new Error(`${path}: ${code}`), { code });
}

/**
 * What a manifest.json that is there but no file is, said the same by every command: a folder, or a device or a pipe.
 * @internal
 */
export const manifestNotAFile = (folder: boolean): string =>
  `is ${folder ? 'a folder' : 'a device or a pipe'}, not a file: the manifest is a JSON file`;
