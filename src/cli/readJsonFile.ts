import { readFile } from 'node:fs/promises';
import { locateJsonError } from './locateJsonError';

/** The outcome of reading a JSON file: its value, or why it could not be read, with a position when known. */
export type JsonFileResult =
  | { ok: true; value: unknown; text: string }
  | { ok: false; code: 'unreadable' | 'bad_json'; message: string; line?: number; column?: number };

/**
 * Reads and parses a JSON file, turning failures into messages that say where and what to do.
 *
 * @remarks
 * `JSON.parse` only reports an offset (`at position 42`); people need a line and a column, so the offset is
 * converted. A UTF-8 byte order mark is accepted, since some Windows editors write one.
 */
export async function readJsonFile(file: string, label: string): Promise<JsonFileResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
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
        : '';
    return { ok: false, code: 'unreadable', message: `${label} ${why}${hint}` };
  }
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '')
    return {
      ok: false,
      code: 'bad_json',
      message: `${label} is empty; write a JSON object (run \`svc init\` for a starter manifest)`,
      line: 1,
      column: 1,
    };
  try {
    return { ok: true, value: JSON.parse(body), text: body };
  } catch (cause) {
    const raw = (cause as Error).message;
    const match = /at position (\d+)/.exec(raw);
    const offset = match ? Number(match[1]) : locateJsonError(body);
    // V8 appends a copy of the text ('..., "[1,]" is not valid JSON'); the position says more.
    const reason = raw
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/ in JSON at position \d+/, '')
      .replace(/, ".*" is not valid JSON$/s, '');
    if (offset === undefined) return { ok: false, code: 'bad_json', message: `${label} is not valid JSON: ${reason}` };
    const before = body.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    const hint = /,\s*[}\]]/.test(body.slice(Math.max(0, offset - 20), offset + 1))
      ? ' (JSON allows no trailing comma)'
      : '';
    return {
      ok: false,
      code: 'bad_json',
      message: `${label}:${line}:${column} is not valid JSON: ${reason}${hint}`,
      line,
      column,
    };
  }
}
