import { readFile } from 'node:fs/promises';
import { manifestNotAFile, statRegularFile } from '../../package/statRegularFile';
import { join, resolve } from 'node:path';
import { type Manifest, validateManifest } from '../../manifest';
import { parseJsonText } from '../../manifest/parseJsonText';

/** The app a dev platform runs: its folder and its validated manifest. @public */
export interface DevApp {
  /** The package folder (absolute). */
  dir: string;
  /** The validated manifest. */
  manifest: Manifest;
}

/** Thrown when the app's folder has no readable, valid manifest; the message says what to fix. @public */
export class DevAppError extends Error {
  override readonly name = 'DevAppError';
  /**
   * True when the manifest or package is missing or cannot be read (the CLI exits 2 for it, as for a usage error),
   * false when it was read and is invalid (exit 1).
   */
  readonly unreadable: boolean;

  /** @param options - `unreadable`: the file is missing or cannot be read, rather than invalid. */
  constructor(message: string, options: { unreadable?: boolean } = {}) {
    super(message);
    this.unreadable = options.unreadable ?? false;
  }
}

/**
 * Reads `<dir>/manifest.json` and validates it with the same rules and messages as `svc validate`.
 * @throws {@link DevAppError} naming the file and every problem (with its JSON path) when it is missing or invalid.
 * @public
 */
export async function readAppDir(dir: string): Promise<DevApp> {
  const root = resolve(dir);
  const file = join(root, 'manifest.json');
  let bytes: Uint8Array;
  try {
    // Looked at before it is opened: a pipe nobody writes to would be waited on for ever.
    await statRegularFile(file);
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Only a folder without one is a place for `svc init`: a file or a device on the path is not a folder at all.
    const why =
      code === 'ENOENT'
        ? `no manifest.json here; run \`npx svc init\` in ${root}, or pass the app's folder.`
        : code === 'ENOTDIR'
          ? `${root} is not a folder: pass the app's folder, the one that holds manifest.json.`
          : code === 'EISDIR' || code === 'not a regular file'
            ? `${manifestNotAFile(code === 'EISDIR')}.`
            : `cannot be read (${code ?? String(error)}).`;
    throw new DevAppError(`${file}: ${why}`, { unreadable: true });
  }
  // Read as svc validate reads it, so each says the same of the same file (an empty one, a syntax error's line).
  const parsed = await parseJsonText(bytes, file);
  if (!parsed.ok) throw new DevAppError(`${parsed.message}.`);
  const result = validateManifest(parsed.value);
  if (!result.ok) {
    const lines = result.issues.map((i) => `  ${i.message}`);
    throw new DevAppError(`${file} is not a valid manifest:\n${lines.join('\n')}`);
  }
  return { dir: root, manifest: result.manifest };
}
