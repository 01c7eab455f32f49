import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { replaceFile } from './replaceFile';
import { SCHEMA_REFERENCE } from './starterManifest';

/** What {@link writeEditorSettings} did. */
export type EditorSettingsResult = 'written' | 'merged' | 'present' | { skipped: string };

/**
 * Maps `manifest.json` to the schema shipped in svc-sdk in `<dir>/.vscode/settings.json` (`json.schemas`), so VS Code
 * validates and completes the manifest without a `$schema` key in it (a manifest allows no extra properties).
 *
 * @remarks
 * An existing settings file is merged, never overwritten: other settings and other schema mappings are kept. A file
 * that is not plain JSON (VS Code allows comments), or that cannot be written, is left alone, and the mapping to add
 * is reported instead. A settings file that is a link is written through, and never half written.
 */
export async function writeEditorSettings(dir: string, manifestFile = 'manifest.json'): Promise<EditorSettingsResult> {
  const file = join(dir, '.vscode', 'settings.json');
  const mapping = { fileMatch: [`/${fileMatchOf(manifestFile)}`], url: SCHEMA_REFERENCE };
  let settings: Record<string, unknown> = {};
  let existed = false;
  try {
    const text = await readFile(file, 'utf8');
    existed = true;
    settings = JSON.parse(text) as Record<string, unknown>;
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
      return { skipped: `${file} is not a JSON object` };
  } catch (cause) {
    if (existed)
      return { skipped: `${file} has comments or is not plain JSON (${(cause as Error).message.split('\n')[0]})` };
  }
  const schemas = Array.isArray(settings['json.schemas']) ? [...(settings['json.schemas'] as unknown[])] : [];
  const ours = schemas.findIndex((s) => (s as { url?: unknown })?.url === SCHEMA_REFERENCE);
  const matched = (ours < 0 ? undefined : (schemas[ours] as { fileMatch?: unknown }).fileMatch) ?? [];
  if (Array.isArray(matched) && matched.includes(mapping.fileMatch[0])) return 'present';
  // Another app's manifest in the same project (a second svc init): its path joins the one mapping to the schema.
  if (ours >= 0)
    schemas[ours] = {
      ...(schemas[ours] as object),
      fileMatch: [...(Array.isArray(matched) ? matched : []), ...mapping.fileMatch],
    };
  else schemas.push(mapping);
  const merged = { ...settings, 'json.schemas': schemas };
  const unwritten = await replaceFile(file, `${JSON.stringify(merged, null, 2)}\n`);
  if (unwritten) return { skipped: `${file} cannot be written (${unwritten})` };
  return existed ? 'merged' : 'written';
}

/**
 * A path as VS Code's `json.schemas` `fileMatch` reads it: a glob matched against the document's URI, where `#` and
 * `?` are percent-encoded, `[` opens a class and `{` a group. So a `[` is the class `[[]`, `#` and `?` are written
 * as the URI has them, and `{`, `}`, `*` and `\` (which that glob has no way to name) match any one character there.
 */
function fileMatchOf(path: string): string {
  return path.replace(/[[{}*\\?#]/g, (c) => ({ '[': '[[]', '#': '%23', '?': '%3F' })[c] ?? '?');
}
