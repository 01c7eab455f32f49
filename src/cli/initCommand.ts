import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { validateManifest } from '../manifest';
import { type CliIo, EXIT, writeLine } from './CliIo';
import { writeEditorSettings } from './editorSettings';
import { createStarterManifest, PLACEHOLDER_ID } from './starterManifest';
import { starterTemplate } from './starterTemplate';
import { defineCommand } from './defineCommand';
import { usageError } from './usageError';

/**
 * `svc init [dir] [--name <name>] [--id <hex>] [--force]`: writes a valid starter `manifest.json`, and maps it to the
 * manifest's JSON Schema in `.vscode/settings.json` (merged into an existing file). Refuses to overwrite an existing manifest (exit 1) unless `--force`.
 * @public
 */
export const INIT = defineCommand({
  name: 'init',
  usage: ['[dir]'],
  summary: `Write a valid starter manifest.json.`,
  description: `Writes <dir>/manifest.json (default ./manifest.json): a valid starter manifest. It also maps manifest.json to the
JSON Schema shipped in svc-sdk in <dir>/.vscode/settings.json (merged into an existing file), so editors validate
and complete it; the manifest itself takes no "$schema" key (a manifest allows no extra properties).`,
  options: {
    name: { type: 'string', value: 'name', help: `The mini app name (1 to 60 characters).` },
    id: { type: 'string', value: 'hex', help: `The 16-hex-character id from the developer console.` },
    force: { type: 'boolean', short: 'f', help: `Overwrite an existing manifest.json.` },
    template: {
      type: 'string',
      value: 'vite',
      help: `Write a whole starter project instead: a Vite + TypeScript app, its manifest and icons, a backend on
svc-sdk/server, a Vitest test with svc-sdk/mock, an end-to-end test with svc-sdk/dev, and npm scripts dev, test
and build (the one template is vite).`,
    },
  },
  footer: `Exit codes: 0 written, 1 manifest.json exists (use --force), 2 usage error.
`,
  oneDirectory: true,
  async run({ values, dir }, io) {
    if (values.template !== undefined) {
      if (values.template !== 'vite')
        return usageError(io, 'init', `--template ${values.template} is not a template; the one template is vite`);
      return writeTemplate(dir, io, values);
    }
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
  },
});

/** svc-sdk's own version, for the new project's dependency (the package.json beside dist/ or src/). */
async function sdkVersion(): Promise<string> {
  for (const candidate of ['../package.json', '../../package.json']) {
    const text = await readFile(new URL(candidate, import.meta.url), 'utf8').catch(() => '');
    const json = text ? (JSON.parse(text) as { name?: string; version?: string }) : {};
    if (json.name === 'svc-sdk' && json.version) return json.version;
  }
  return '0.1.0';
}

/**
 * `svc init <dir> --template vite`: a project that runs: a Vite + TypeScript page, its manifest and icons, a
 * backend on svc-sdk/server, a Vitest test with svc-sdk/mock, an end-to-end test with svc-sdk/dev, and the scripts
 * dev, test and build. Refuses a folder that is not empty (exit 1) unless --force.
 */
async function writeTemplate(
  dir: string,
  io: CliIo,
  values: { name?: string; id?: string; force?: boolean },
): Promise<number> {
  const label = relative(io.cwd, dir) || '.';
  const present = await readdir(dir).catch(() => [] as string[]);
  if (present.length && !values.force) {
    writeLine(io.stderr, `svc init: ${label} is not empty; choose a new folder, or pass --force to write into it.`);
    return EXIT.invalid;
  }
  const slug =
    basename(dir)
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'svc-app';
  const name = values.name ?? basename(dir).slice(0, 60);
  const id = values.id ?? randomBytes(8).toString('hex');
  const check = validateManifest(createStarterManifest({ name, id }));
  if (!check.ok)
    return usageError(
      io,
      'init',
      check.issues.map((i) => i.message.replace('$.name', '--name').replace('$.id', '--id')).join('; '),
    );
  const files = starterTemplate({ name, slug, id, sdkRange: `^${await sdkVersion()}` });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  writeLine(io.stdout, `wrote ${Object.keys(files).length} files in ${label}`);
  writeLine(io.stdout, 'Next:');
  if (label !== '.') writeLine(io.stdout, `  cd ${label}`);
  writeLine(io.stdout, '  npm install');
  writeLine(io.stdout, '  npm run dev     # Vite, the backend and the simulated messenger; open the URL it prints');
  writeLine(io.stdout, '  npm test        # the app with svc-sdk/mock, the backend end to end with svc-sdk/dev');
  writeLine(io.stdout, '  npm run build   # dist/ is the package: page, manifest.json, icons');
  return EXIT.ok;
}
