import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { validateManifest } from '../manifest';
import { type CliIo, EXIT, writeLine } from './CliIo';
import { writeEditorSettings } from './editorSettings';
import { INIT_HELP } from './help';
import { createStarterManifest, PLACEHOLDER_ID } from './starterManifest';
import { attempt, usageError } from './usageError';

/**
 * `svc init [dir] [--name <name>] [--id <hex>] [--force]`: writes a valid starter `manifest.json`, and maps it to the
 * manifest's JSON Schema in `.vscode/settings.json` (merged into an existing file). Refuses to overwrite an existing manifest (exit 1) unless `--force`.
 * @public
 */
export async function initCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = attempt(() =>
    parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        force: { type: 'boolean', short: 'f' },
        name: { type: 'string' },
        id: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (parsed instanceof Error) return usageError(io, 'init', parsed.message);
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(INIT_HELP);
    return EXIT.ok;
  }
  if (positionals.length > 1)
    return usageError(io, 'init', `expected at most one directory, got ${positionals.length}`);
  const dir = resolve(io.cwd, positionals[0] ?? '.');
  const file = join(dir, 'manifest.json');
  const label = relative(io.cwd, file) || 'manifest.json';

  const manifest = createStarterManifest({
    ...(values.name !== undefined && { name: values.name }),
    ...(values.id !== undefined && { id: values.id }),
  });
  const check = validateManifest(manifest);
  if (!check.ok) {
    // Only --name and --id can make the starter invalid; name the option rather than the manifest path.
    const messages = check.issues.map((issue) => issue.message.replace('$.name', '--name').replace('$.id', '--id'));
    return usageError(io, 'init', messages.join('; '));
  }
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  if (exists && !values.force) {
    writeLine(
      io.stderr,
      `svc init: ${label} already exists; not overwriting it. Pass --force to replace it, or choose another directory.`,
    );
    return EXIT.invalid;
  }
  await mkdir(dir, { recursive: true });
  await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
  writeLine(io.stdout, `${exists ? 'replaced' : 'wrote'} ${label}`);
  const editor = await writeEditorSettings(dir);
  const settingsLabel = relative(io.cwd, join(dir, '.vscode', 'settings.json'));
  if (typeof editor === 'object')
    writeLine(
      io.stdout,
      `left ${settingsLabel} alone: ${editor.skipped}; add the mapping from the README ("Editor setup") by hand`,
    );
  else if (editor !== 'present')
    writeLine(
      io.stdout,
      `${editor === 'merged' ? 'added the manifest schema to' : 'wrote'} ${settingsLabel} (VS Code validates and completes manifest.json)`,
    );
  writeLine(io.stdout, 'Next:');
  if (manifest.id === PLACEHOLDER_ID)
    writeLine(io.stdout, '  - replace "id" with the id the developer console derives from your public key');
  writeLine(io.stdout, '  - fill in "name", "description", "vendor" and the icons, then run `svc validate`');
  writeLine(
    io.stdout,
    '  - install svc-sdk in this project so editors find the schema (other editors: see the README, "Editor setup")',
  );
  return EXIT.ok;
}
