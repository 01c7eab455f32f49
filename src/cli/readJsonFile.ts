import { readFile } from 'node:fs/promises';
import { type JsonTextResult, parseJsonText } from '../manifest/parseJsonText';
import { statRegularFile } from '../package/statRegularFile';
import { EXIT } from './CliIo';

/** The largest JSON file read whole: a manifest is a few KB, and a file of gigabytes given by mistake costs nothing. */
const MAX_JSON_FILE_BYTES = 16 * 1024 * 1024;

/** The outcome of reading a JSON file: its value, or why it could not be read, with a position when known. */
export type JsonFileResult = JsonTextResult | { ok: false; code: 'unreadable'; message: string };

/**
 * The exit code of a JSON file that could not be read as one, as every command gives it: 2 for one missing or
 * unreadable (the caller's path to fix), 1 for one read and found not JSON.
 */
export const exitOfUnread = (failure: { code: 'unreadable' | 'bad_json' }): number =>
  failure.code === 'unreadable' ? EXIT.usage : EXIT.invalid;

/**
 * Reads and parses a JSON file, turning failures into messages that say where and what to do: a file that is missing,
 * not a file, or too large to be a manifest here, and what {@link parseJsonText} says of its text.
 */
export async function readJsonFile(file: string, label: string): Promise<JsonFileResult> {
  let bytes: Uint8Array;
  try {
    const kind = await statRegularFile(file);
    if (kind.size > MAX_JSON_FILE_BYTES)
      return {
        ok: false,
        code: 'unreadable',
        message: `${label} is ${kind.size} bytes, more than the ${MAX_JSON_FILE_BYTES} a JSON file read here may be; pass the manifest, a few KB`,
      };
    bytes = await readFile(file);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EISDIR'
          ? 'is a directory, not a file'
          : `cannot be read (${code ?? String(cause)})`;
    const hint =
      code === 'ENOENT' && label.endsWith('manifest.json')
        ? '; create one with `svc init`, or pass the path of your manifest'
        : code === 'not a regular file'
          ? '; pass a file'
          : '';
    return { ok: false, code: 'unreadable', message: `${label} ${why}${hint}` };
  }
  return parseJsonText(bytes, label);
}
