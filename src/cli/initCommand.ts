import { constants, existsSync } from 'node:fs';
import { access, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { validateManifest } from '../manifest';
import { type CliIo, EXIT, writeLine } from './CliIo';
import { writeEditorSettings } from './editorSettings';
import { keysDir, readDeveloperKey, waitingForKey } from './developerKeys';
import { writeNewKey } from './keygenCommand';
import { createStarterManifest } from './starterManifest';
import { starterIcon, starterTemplate } from './starterTemplate';
import { defineCommand } from './defineCommand';
import { sdkVersion } from './sdkVersion';
import { shownPath } from './shownPath';
import { statRegularFile } from '../package/statRegularFile';
import { usageError } from './usageError';
import { shellPath } from './shellPath';

/**
 * `svc init [dir] [--name <name>] [--key <file>] [--force]`: writes a valid starter `manifest.json` whose id is derived
 * from the app's developer key (made when there is none), and maps it to the manifest's JSON Schema in the project's
 * `.vscode/settings.json` (merged into an existing file). Refuses to overwrite an existing manifest (exit 1) unless
 * `--force`.
 * @public
 */
export const INIT = defineCommand({
  name: 'init',
  usage: ['[dir]'],
  summary: `Write a valid starter manifest.json, with the id of the app's key, and placeholder icons.`,
  description: `Writes <dir>/manifest.json (default ./manifest.json): a valid starter manifest whose id is derived from the
app's developer key: --key, or the key of the id already in <dir>/manifest.json, or a new key (written to
$SVC_STATE_DIR/keys/<id>.pem, default ~/.svc-sdk/keys, as \`svc keygen\` does), and placeholder PNGs of the icons it
declares that the folder lacks (icons/icon-192.png, icons/icon-512.png: replace them). It also maps manifest.json to the
JSON Schema shipped in svc-sdk in the project's .vscode/settings.json, where VS Code reads it (the nearest folder
from <dir> up that holds a package.json, else <dir>; merged into an existing file), so editors validate and complete
it; the manifest itself takes no "$schema" key (a manifest allows no extra properties).`,
  options: {
    name: { type: 'string', value: 'name', help: `The mini app name (1 to 60 characters).` },
    key: {
      type: 'string',
      value: 'file',
      help: `The app's private key (from \`svc keygen\`); the id is derived from it; - reads it from standard
input. Default: a new key.`,
    },
    force: { type: 'boolean', short: 'f', help: `Overwrite an existing manifest.json.` },
    template: {
      type: 'string',
      value: 'vite',
      help: `Write a whole starter project instead: a Vite + TypeScript app, its manifest and icons, a backend on
svc-sdk/server, a Vitest test with svc-sdk/mock, an end-to-end test with svc-sdk-dev, and npm scripts dev, test
and build (the one template is vite).`,
    },
  },
  footer: `Exit codes: 0 written, 1 manifest.json exists (use --force), a --key that is no private key, or a new key's
            folder inside a git work tree, 2 usage error (a --key that is missing or cannot be read, a folder that is a
            file or cannot be written to, a new key that cannot be written).
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
    if (values.name !== undefined) {
      // Only --name can make the starter invalid; name the option rather than the manifest path.
      const check = validateManifest(createStarterManifest({ id: '0123456789abcdef', name: values.name }));
      if (!check.ok)
        return usageError(io, 'init', check.issues.map((i) => i.message.replace('$.name', '--name')).join('; '));
    }
    const existing = await stat(file).catch(() => undefined);
    const exists = existing !== undefined;
    // A pipe or a device in its place would never be written (a pipe waits for a reader): not a manifest to replace.
    if (existing && !existing.isFile()) {
      writeLine(
        io.stderr,
        `svc init: ${label} is not a file (a folder, a pipe or a device): remove it, or choose another directory.`,
      );
      return EXIT.usage;
    }
    if (exists && !values.force) {
      writeLine(
        io.stderr,
        `svc init: ${label} already exists; not overwriting it. Pass --force to replace it, or choose another directory.`,
      );
      return EXIT.invalid;
    }
    const unwritable = await folderProblem(dir, io);
    if (unwritable !== undefined) return unwritable;
    const key = await appKey(io, values.key, [file]);
    if (typeof key === 'number') return key;
    const manifest = createStarterManifest({
      id: key,
      ...(values.name !== undefined && { name: values.name }),
    });
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
    writeLine(io.stdout, `${exists ? 'replaced' : 'wrote'} ${label}`);
    // VS Code reads .vscode/ at the project's root, not in public/ (where Vite's manifest lives, and which it copies
    // into the build): the mapping goes there, naming the manifest by its path from the root.
    const root = (await projectRoot(dir)) ?? dir;
    await mapManifestSchema(root, relative(root, file).split(sep).join('/'), io);
    writeLine(io.stdout, 'Next:');
    // What follows runs in the app's folder, as the starter's advice does (recheck47 F6).
    const folder = relative(io.cwd, dir);
    if (folder) writeLine(io.stdout, `  cd ${shellPath(folder)}`);
    const toFill = values.name === undefined ? '"name", "description"' : '"description"';
    writeLine(io.stdout, `  - fill in ${toFill} and "vendor", then run \`svc validate\``);
    // Icons the folder lacks are written, placeholders of the declared sizes: svc pack refuses a package without them,
    // and nothing else here makes a PNG. The entry page is the app's own.
    const icons = await writePlaceholderIcons(dir, manifest.icons ?? []);
    if (icons.length) writeLine(io.stdout, `  - replace the placeholder icons ${icons.join(', ')} with your own`);
    // What the manifest names and the folder lacks: a plain init is for an app of one's own, whose page may not be
    // there yet; without it svc dev's frame shows a 404.
    if (!existsSync(join(dir, manifest.entry)))
      writeLine(
        io.stdout,
        `  - add ${manifest.entry} (the manifest names it): the entry page loads svc, with a <script src="svc.global.js"> copied from node_modules/svc-sdk/dist/ or \`import { svc } from 'svc-sdk'\` in a bundle. For a project that runs at once: \`svc init <dir> --template vite\``,
      );
    if (!existsSync(join(root, 'node_modules', 'svc-sdk', 'schema')))
      writeLine(
        io.stdout,
        `  - install svc-sdk in this project so editors find the schema (other editors: ${EDITOR_SETUP})`,
      );
    writeLine(io.stdout, '  - `svc pack` signs the app folder into a package (docs/ship.md)');
    return EXIT.ok;
  },
});

// Where the editor mapping is documented: the README has no such section, and in an installed package the docs are
// under node_modules/svc-sdk/docs.
const EDITOR_SETUP = 'see "Editor setup" in svc-sdk\'s docs/manifest.md';

/**
 * Maps the app's manifest to the JSON Schema in `<dir>/.vscode/settings.json` and says what it did, for both the plain
 * manifest and the starter project, so VS Code completes and checks the manifest either way.
 */
async function mapManifestSchema(dir: string, manifestFile: string, io: CliIo): Promise<void> {
  const editor = await writeEditorSettings(dir, manifestFile);
  const settingsLabel = relative(io.cwd, join(dir, '.vscode', 'settings.json'));
  if (typeof editor === 'object')
    writeLine(io.stdout, `left ${settingsLabel} alone: ${editor.skipped}; add the mapping by hand (${EDITOR_SETUP})`);
  else if (editor !== 'present')
    writeLine(
      io.stdout,
      `${editor === 'merged' ? 'added the manifest schema to' : 'wrote'} ${settingsLabel} (VS Code validates and completes ${manifestFile})`,
    );
}

/** The nearest folder from `dir` up that holds a package.json: the project VS Code opens. */
async function projectRoot(dir: string): Promise<string | undefined> {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * Looks at the folder to write into before a key is made for it (nothing is made yet): a path that is a file, under a
 * file, or in a folder this user cannot write to is said (exit 2) rather than failing after the key is written.
 * Undefined when the folder is there or can be made.
 */
async function folderProblem(dir: string, io: CliIo): Promise<number | undefined> {
  const label = shownPath(io.cwd, dir);
  // The nearest part of the path that is there: the folder itself, or the one it would be made in.
  let existing = dir;
  let kind = await stat(existing).catch((error: NodeJS.ErrnoException) => error);
  while (kind instanceof Error && kind.code === 'ENOENT' && dirname(existing) !== existing) {
    existing = dirname(existing);
    kind = await stat(existing).catch((error: NodeJS.ErrnoException) => error);
  }
  let problem: string | undefined;
  if (kind instanceof Error)
    problem =
      kind.code === 'ENOTDIR'
        ? `${label} cannot be made: a folder on its path is a file`
        : `${label} cannot be written to (${kind.code})`;
  else if (!kind.isDirectory())
    problem =
      existing === dir ? `${label} is a file, not a folder` : `${label} cannot be made: a folder on its path is a file`;
  else
    problem = await access(existing, constants.W_OK).then(
      () => undefined,
      (error: NodeJS.ErrnoException) => `${label} cannot be written to (${error.code})`,
    );
  if (problem === undefined) return undefined;
  writeLine(io.stderr, `svc init: ${problem}; choose another folder.`);
  return EXIT.usage;
}

/**
 * The id of the app's key, telling which key it is: `--key` (a private key), else the key of the id already in an
 * existing manifest (`--force` keeps the app's id), else a new key, written as `svc keygen` does. Resolves to the id,
 * or to the exit code once the problem is reported.
 */
async function appKey(io: CliIo, given: string | undefined, manifests: string[]): Promise<string | number> {
  if (given !== undefined) {
    // `-` is standard input, as for svc pack.
    const file = given === '-' ? given : resolve(io.cwd, given);
    const label = given === '-' ? '--key - (standard input)' : `--key ${given}`;
    const read = await readDeveloperKey(file, label, waitingForKey(io, 'init'));
    // As svc pack: a key that cannot be read exits 2, one read and found no key 1.
    if ('problem' in read) {
      if (read.unreadable) return usageError(io, 'init', read.problem);
      writeLine(io.stderr, `svc init: ${read.problem}`);
      return EXIT.invalid;
    }
    for (const warning of read.warnings) writeLine(io.stderr, `svc init: warning: ${warning}`);
    writeLine(io.stdout, `id ${read.key.id}, from ${given}`);
    return read.key.id;
  }
  for (const manifest of manifests) {
    // Only a regular file is read: a pipe in its place would wait for a writer that never comes.
    const text = await statRegularFile(manifest)
      .then(() => readFile(manifest, 'utf8'))
      .catch(() => '');
    const id = /"id"\s*:\s*"([0-9a-f]{16})"/.exec(text)?.[1];
    const file = id ? join(keysDir(), `${id}.pem`) : '';
    if (
      id &&
      (await access(file).then(
        () => true,
        () => false,
      ))
    ) {
      writeLine(io.stdout, `id ${id}, from ${file} (the app's key)`);
      return id;
    }
  }
  const made = await writeNewKey({});
  if ('problem' in made) {
    writeLine(io.stderr, `svc init: ${made.problem}`);
    return made.unwritable ? EXIT.usage : EXIT.invalid;
  }
  writeLine(
    io.stdout,
    `made this app's key: ${made.file} (mode 600), id ${made.id}. Back it up and never commit it: updates need it.`,
  );
  return made.id;
}

/**
 * `svc init <dir> --template vite`: a project that runs: a Vite + TypeScript page, its manifest and icons, a
 * backend on svc-sdk/server, a Vitest test with svc-sdk/mock, an end-to-end test with svc-sdk-dev, and the scripts
 * dev, test and build; `public/manifest.json` is mapped to the schema in `.vscode/settings.json`. Refuses a folder
 * that is not empty (exit 1) unless --force.
 */
async function writeTemplate(
  dir: string,
  io: CliIo,
  values: { name?: string; key?: string; force?: boolean },
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
  const check = validateManifest(createStarterManifest({ name, id: '0123456789abcdef' }));
  if (!check.ok)
    return usageError(io, 'init', check.issues.map((i) => i.message.replace('$.name', '--name')).join('; '));
  const unwritable = await folderProblem(dir, io);
  if (unwritable !== undefined) return unwritable;
  const id = await appKey(io, values.key, [join(dir, 'public', 'manifest.json')]);
  if (typeof id === 'number') return id;
  const files = starterTemplate({ name, slug, id, sdkRange: `^${await sdkVersion()}` });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  writeLine(io.stdout, `wrote ${Object.keys(files).length} files in ${label}`);
  // The starter's manifest is in public/ (Vite copies it into dist/): map that file, not a manifest.json anywhere,
  // which would also claim dist/manifest.json and any other JSON file of that name in the project.
  await mapManifestSchema(dir, 'public/manifest.json', io);
  // Vite and Vitest read a module's path as a URL: under a # or a %, npm test finds no test and the page no script
  // (paths46 F7).
  const unservable = [...new Set(dir.match(/[#%?]/g) ?? [])];
  if (unservable.length)
    writeLine(
      io.stderr,
      `svc init: warning: the path ${dir} holds ${unservable.map((c) => JSON.stringify(c)).join(' and ')}, which Vite and Vitest read as part of a URL: npm run dev serves the page without its script and npm test finds no test there; move the project to a folder whose path has none of # % ?`,
    );
  writeLine(io.stdout, 'Next:');
  if (label !== '.') writeLine(io.stdout, `  cd ${shellPath(label)}`);
  writeLine(io.stdout, '  npm install');
  writeLine(io.stdout, '  npm run dev     # Vite, the backend and the simulated messenger; open the URL it prints');
  writeLine(io.stdout, '  npm test        # the app with svc-sdk/mock, the backend end to end with svc-sdk-dev');
  writeLine(io.stdout, '  npm run build   # dist/ is the package: page, manifest.json, icons');
  writeLine(io.stdout, '  npx svc pack dist   # signs dist/ with the app key into <name>-<version>.swbn');
  return EXIT.ok;
}

/**
 * Writes a placeholder PNG of its declared size (`192x192`) for each icon the folder lacks; the paths written.
 */
async function writePlaceholderIcons(
  dir: string,
  icons: readonly { src: string; sizes?: string }[],
): Promise<string[]> {
  const written: string[] = [];
  for (const icon of icons) {
    const path = join(dir, icon.src);
    const size = Number(/^(\d{1,4})x\1$/.exec(icon.sizes ?? '')?.[1]);
    if (existsSync(path) || !size) continue;
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, starterIcon(size));
    written.push(icon.src);
  }
  return written;
}
