import { stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { manifestNotAFile } from '../package/statRegularFile';

/** Where a mini app's manifest and its code are, or why they were not found. */
export type AppLocation = { ok: true; manifestFile: string; projectDir: string } | { ok: false; message: string };

// The folders whose files a bundler copies unchanged into its output (Vite's `public`, SvelteKit's `static`): a
// manifest there belongs to the project one level up, whose code is beside the folder, not in it.
const STATIC_FOLDERS = new Set(['public', 'static']);

const isFile = (path: string) =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * Finds a mini app's manifest and the project folder its code lives in, from what a person typed: a folder (its
 * `manifest.json`, else its `public/manifest.json`, as `svc init --template vite` lays it out) or the manifest's
 * file itself.
 *
 * @remarks
 * A manifest in `public/` or `static/` of a folder with a `package.json` belongs to that folder's project: the code
 * to check is in `src/` beside it, not in the folder of static files. Anywhere else the manifest's own folder is the
 * project (a plain app keeps its code beside its manifest).
 */
export async function locateApp(given: string, show: (path: string) => string): Promise<AppLocation> {
  const kind = await stat(given).catch(() => undefined);
  // A device or a pipe is neither the folder nor its manifest (reading /dev/zero as one would not end). One named as
  // the manifest (`fifo.json`) is refused where the manifest is read, as any JSON file of the CLI's is.
  if (kind && !kind.isDirectory() && !kind.isFile() && !given.endsWith('.json'))
    return {
      ok: false,
      message: `${show(given)} is not a folder (a device or a pipe): pass the folder that holds manifest.json`,
    };
  const isDir = kind?.isDirectory() === true;
  let manifestFile: string | undefined;
  if (!isDir) {
    // A path that is not a folder names the manifest, or a folder not made yet: reading it then says what is missing.
    manifestFile = (await isFile(given)) || given.endsWith('.json') ? given : join(given, 'manifest.json');
  } else {
    for (const candidate of [join(given, 'manifest.json'), join(given, 'public', 'manifest.json')]) {
      if (manifestFile) break;
      const found = await stat(candidate).catch(() => undefined);
      if (found?.isFile()) manifestFile = candidate;
      // One that is there but no file (a folder, a pipe) is named, not taken for none.
      else if (found)
        return {
          ok: false,
          message: `${show(candidate)} ${manifestNotAFile(found.isDirectory())}`,
        };
    }
    if (!manifestFile)
      return {
        ok: false,
        message: `no manifest.json in ${show(given)} or ${show(join(given, 'public'))}; create one with \`svc init\`, or pass the folder that holds it`,
      };
  }
  const folder = dirname(resolve(manifestFile));
  const parent = dirname(folder);
  const projectDir =
    STATIC_FOLDERS.has(basename(folder)) && (await isFile(join(parent, 'package.json'))) ? parent : folder;
  return { ok: true, manifestFile: resolve(manifestFile), projectDir };
}

/**
 * Makes a glob relative to the project folder the scan starts from. Globs are written relative to it, except one
 * that starts with `./` or `../`, which is read from the folder the person named (`svc check public --include
 * '../src/**'`); `undefined` when that points outside the project.
 */
export function globFromProject(glob: string, namedDir: string, projectDir: string): string | undefined {
  // A plain glob is already relative to the project folder, which the help names as the scan's start.
  if (!glob.startsWith('../') && !glob.startsWith('./')) return glob;
  const star = glob.search(/[*?[{]/);
  const fixed = star === -1 ? glob : glob.slice(0, glob.lastIndexOf('/', star) + 1);
  const rest = glob.slice(fixed.length) || '**';
  const base = relative(projectDir, resolve(namedDir, fixed)).split('\\').join('/');
  if (base.startsWith('..')) return undefined;
  return base === '' ? rest : `${base}/${rest}`;
}

/**
 * The folder of an app's package (what `svc dev` serves and `svc pack` signs) from what a person typed: a folder
 * with a `manifest.json`, or that file itself. A project whose manifest is in its `public/` folder (`svc init
 * --template vite`) is not a package until it is built: the answer then says to build it, or to pass `public` with
 * the dev server's page, instead of suggesting `svc init`, which would make a second manifest. A folder that does not
 * exist is answered the same way: build the app, or name the folder that holds its manifest.
 */
export async function locatePackage(
  given: string,
  show: (path: string) => string,
  command: 'dev' | 'pack',
): Promise<{ ok: true; dir: string } | { ok: false; message: string }> {
  // A folder that is not there is most often the build's output before the first build (`svc pack dist` right after
  // `svc init --template vite`): building is the fix, not `svc init`, which reading its manifest would suggest.
  const kind = await stat(given).catch(() => undefined);
  if (!kind && !given.endsWith('.json'))
    return {
      ok: false,
      message: `${show(given)} does not exist: build the app first (npm run build), or pass the folder that holds manifest.json`,
    };
  const app = await locateApp(given, show);
  if (!app.ok) return app;
  const dir = dirname(app.manifestFile);
  if (app.manifestFile === resolve(given) && basename(given) !== 'manifest.json')
    return {
      ok: false,
      message: `${show(given)} is a file: pass the package's folder, the one that holds its manifest.json`,
    };
  if (dir === resolve(given) || app.manifestFile === resolve(given)) return { ok: true, dir };
  const build =
    command === 'dev'
      ? `run svc dev on the build (npm run build, then svc dev dist), or on ${show(dir)} with your dev server's page (--app-url)`
      : 'build it (npm run build), then svc pack dist';
  return {
    ok: false,
    message: `${show(given)} has no manifest.json: it is ${show(app.manifestFile)}, in the folder your bundler copies into its build; ${build}`,
  };
}
