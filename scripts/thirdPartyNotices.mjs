// Writes THIRD-PARTY-NOTICES.md into each built folder (dist/ and packages/svc-sdk-dev/dist/): every package whose
// code a built file carries, with its version, its license, the files that carry it, and its license text. MIT,
// BSD-3-Clause and Apache-2.0 all ask that the notice travel with copies of the code, and the bins and the messenger
// page bundle their dependencies. The list is read from the source maps, so it names what was bundled, not what
// package.json declares. `npm run build` runs it after tsup (`postbuild`); test/package.test.ts checks the result.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const FOLDERS = ['dist', 'packages/svc-sdk-dev/dist'];
const LICENSE_FILE = /^(licen[cs]e|copying)(\.(md|txt))?$/i;

/**
 * The package a bundled source belongs to: its name, the folder the path names for it, and its version when the path
 * says it (a pnpm store path, as in the MCP SDK's own bundle). Undefined for our own sources.
 */
function packageOf(file) {
  const parts = file.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const end = at + (parts[at + 1].startsWith('@') ? 3 : 2);
  const name = parts.slice(at + 1, end).join('/');
  const store = parts.slice(0, at).findLast((part) => part.startsWith(`${name.replace('/', '+')}@`));
  return { name, named: parts.slice(0, end).join('/'), version: store?.slice(name.length + 1).split('_')[0] };
}

/** An installed copy of a package: the folder its path names, or one of the same name beside the build. */
function installedDir({ name, named }) {
  return [named, join(root, 'node_modules', name), join(root, 'packages/svc-sdk-dev/node_modules', name)].find((dir) =>
    existsSync(join(dir, 'package.json')),
  );
}

/**
 * The packages a built folder carries, by name: the folder of an installed copy, the version bundled, and the built
 * files that carry it. A bundled dependency's own map may name a package of its own project that is not published on
 * its own (@babel/parser's helpers, the MCP SDK's core-internal): that code is under the license of the package of the
 * same scope that the same file carries. Anything else that cannot be found stops the build.
 */
function bundledPackages(folder) {
  const carried = new Map();
  const unfound = [];
  for (const mapFile of readdirSync(folder).filter((name) => name.endsWith('.map'))) {
    const built = mapFile.replace(/\.map$/, '');
    const map = JSON.parse(readFileSync(join(folder, mapFile), 'utf8'));
    for (const source of map.sources) {
      const file = resolve(folder, map.sourceRoot ?? '', source);
      const pkg = packageOf(file);
      if (!pkg) continue;
      const dir = installedDir(pkg);
      if (!dir) {
        unfound.push({ name: pkg.name, built });
        continue;
      }
      const version = pkg.version ?? JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
      if (!carried.has(pkg.name)) carried.set(pkg.name, { dir, version, files: new Set() });
      carried.get(pkg.name).files.add(built);
    }
  }
  for (const { name, built } of unfound) {
    const scope = name.split('/')[0];
    const owner = [...carried].find(([other, { files }]) => other.startsWith(`${scope}/`) && files.has(built));
    if (!scope.startsWith('@') || !owner)
      throw new Error(`${built} carries code of ${name}, which is not installed here: its license cannot be shipped.`);
  }
  return carried;
}

/** One package's section: its name, version and license, the files that carry it, and its license text. */
function notice({ dir, version, files }) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const licenseFile = readdirSync(dir).find((name) => LICENSE_FILE.test(name));
  if (!licenseFile && !pkg.license)
    throw new Error(`${pkg.name} ${pkg.version} is bundled but names no license: check it before shipping it.`);
  const repository = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  const author = typeof pkg.author === 'string' ? pkg.author : pkg.author?.name;
  const lines = [`## ${pkg.name} ${version} (${pkg.license ?? 'see its license text'})`, ''];
  lines.push(`Carried by: ${[...files].sort().join(', ')}.`, '');
  if (licenseFile) {
    const text = readFileSync(join(dir, licenseFile), 'utf8').trim();
    const fence = text.includes('```') ? '~~~~' : '```';
    lines.push(`${fence}text`, text, fence, '');
  } else {
    // @cfworker/json-schema, for one, ships no license file: its package.json's license, author and repository.
    lines.push(
      `The package ships no license file. License: ${pkg.license}${author ? `; author: ${author}` : ''}` +
        `${repository ? `; source: ${repository}` : ''}.`,
      '',
    );
  }
  return lines.join('\n');
}

for (const folder of FOLDERS.map((name) => join(root, name))) {
  const carried = [...bundledPackages(folder)].sort(([a], [b]) => a.localeCompare(b)).map(([, found]) => found);
  const text = [
    '# Third-party notices',
    '',
    'The built files in this folder carry code of the packages below. Each is listed with its version, its license',
    'and the files that carry it, followed by its license text.',
    '',
    ...carried.map(notice),
  ].join('\n');
  writeFileSync(join(folder, 'THIRD-PARTY-NOTICES.md'), `${text.trimEnd()}\n`);
  const count = `${carried.length} package${carried.length === 1 ? '' : 's'}`;
  console.log(`notices: ${folder.slice(root.length + 1)}/THIRD-PARTY-NOTICES.md names ${count}.`);
}
