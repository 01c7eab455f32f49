// npm run size: minified and brotli bytes of each entry, and of the apps that budget the browser client.
// `--check` fails (exit 1) when a budgeted row is over its budget: sizes are stable, so CI (npm test) enforces them.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

// The browser client's budgets, in brotli bytes: the SDK itself, not a chosen app. The facade is built from the whole
// registry, so any app that imports `svc` carries every operation: an app making one call is the SDK's floor, the
// script tag is the same client as a classic script, and an app using every namespace (importing SvcError too) is
// its ceiling. The client carries the checks of what it sends unanswered (notifications); the params of the calls
// the host answers, and of what the host sends the app, are checked by the host alone (docs/decisions.md).
// Issue 28 set these budgets: one call 3,500, the script tag 3,600, every namespace 4,000.
const ONE_CALL = { budget: 3500 };
const SCRIPT_TAG = { budget: 3600 };
const EVERY_NAMESPACE = { budget: 4000 };
// Brotli bytes of svc-sdk/host without the manifest validator (zod, @cfworker/json-schema): what a messenger that
// validated the manifest at upload ships in its page.
const HOST_CORE_BUDGET = 13_000;
// Brotli bytes of the svc dev messenger page (svc-sdk-dev's dist/dev-ui.js, minified here): served from loopback, so
// this is information with a ceiling, not a target; most of it is the host's rules, Preact and the typed client.
const MESSENGER_BUDGET = 70_000;
const root = resolve(import.meta.dirname, '..');

async function measure(entry, extra = {}) {
  const out = await build({
    entryPoints: [resolve(root, entry)],
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
    alias: { 'svc-sdk': resolve(root, 'dist/index.js') },
    ...extra,
  });
  const code = out.outputFiles[0].contents;
  const brotli = brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  return { min: code.length, brotli };
}

/**
 * A built file's bytes as they ship: the script-tag file is copied into a package as it is (its source map comment
 * included), so it is measured as it is, by the same brotli setting an outside check uses, not bundled again.
 */
function measureShipped(file) {
  const code = readFileSync(resolve(root, file));
  return {
    min: code.length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** Measures every built entry and the mini app; returns rows for the table. */
export async function sizes() {
  const rows = [];
  for (const [name, file, extra, limits] of [
    ['svc-sdk (client)', 'dist/index.js'],
    ['svc-sdk/global', 'dist/global.js'],
    ['svc.global.js (script tag)', 'dist/svc.global.js', {}, SCRIPT_TAG],
    ['svc-sdk/host', 'dist/host.js'],
    ['svc-sdk/host/core (no validator)', 'dist/host-core.js', {}, { budget: HOST_CORE_BUDGET }],
    ['svc-sdk/mock', 'dist/mock.js', { platform: 'node' }],
    ['svc-sdk/manifest', 'dist/manifest.js', { platform: 'node' }],
  ]) {
    if (!existsSync(resolve(root, file))) continue;
    rows.push({ name, ...(limits === SCRIPT_TAG ? measureShipped(file) : await measure(file, extra)), ...limits });
  }
  rows.push({ name: 'an app making one call', ...(await measure('test/size/oneCallApp.ts')), ...ONE_CALL });
  rows.push({ name: 'an app using every namespace', ...(await measure('test/size/miniApp.ts')), ...EVERY_NAMESPACE });
  if (existsSync(resolve(root, 'packages/svc-sdk-dev/dist/dev-ui.js')))
    rows.push({
      name: 'svc dev messenger page',
      ...(await measure('packages/svc-sdk-dev/dist/dev-ui.js')),
      budget: MESSENGER_BUDGET,
    });
  rows.push({ name: 'a polls app, its own code included', ...(await measure('test/size/pollsApp.ts')) });
  return rows;
}

// What installing svc-sdk brings (issue 25): a mini app or its backend gets at most 8 packages and 16 MB on disk (zod
// alone is 8.2 MB); the dev platform, the MCP bridge and the CLI's heavy commands are svc-sdk-dev's. Measured from the
// packed tarballs, installed offline from the npm cache into an empty project; MB as du prints them (MiB of blocks).
const FOOTPRINT_BUDGET = { packages: 8, mb: 16 };
const FOOTPRINT_PEERS = 'Teams JS 4 packages / 5.6 MB, Telegram 12 / 7.1 MB, Discord 10 / 13 MB';
const DEV_PACKAGE = resolve(root, 'packages/svc-sdk-dev');

/** The packages under a node_modules folder (nested ones included) and the bytes its files take on disk. */
function installedTree(modules) {
  let packages = 0;
  let bytes = 0;
  const walk = (dir, depth) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const stat = lstatSync(path);
      bytes += stat.blocks * 512;
      if (!entry.isDirectory()) continue;
      // A package is a folder right under node_modules (or under its @scope) with a package.json.
      const isPackage = depth === 0 && !entry.name.startsWith('@') && !entry.name.startsWith('.');
      if (isPackage && existsSync(join(path, 'package.json'))) packages += 1;
      walk(path, entry.name === 'node_modules' ? 0 : depth === 0 && entry.name.startsWith('@') ? 0 : depth + 1);
    }
  };
  walk(modules, 0);
  return { packages, mb: bytes / 2 ** 20 };
}

/** Packs each folder with npm, installs the tarballs offline into an empty project, and measures its node_modules. */
function installFootprint(folders) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-footprint-'));
  const npm = (args) => execFileSync('npm', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const tarballs = folders.map((f) => join(dir, npm(['pack', '--silent', '--ignore-scripts', f]).trim()));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'footprint', private: true }));
    const flags = ['--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'];
    try {
      npm(['install', '--offline', ...flags, ...tarballs]);
    } catch (error) {
      // A cache filled by `npm ci` holds the tarballs but not every registry document a range needs: the network
      // then fills the gap (the figures are the same).
      if (!String(error.stderr).includes('ENOTCACHED')) throw error;
      console.error('size: the npm cache lacks some of the footprint; installing with --prefer-offline instead.');
      npm(['install', '--prefer-offline', ...flags, ...tarballs]);
    }
    return installedTree(join(dir, 'node_modules'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The install footprints: svc-sdk alone (budgeted) and with svc-sdk-dev (a developer's machine, information). */
export function footprints() {
  const rows = [{ name: 'svc-sdk (a mini app, its backend)', ...installFootprint([root]), budget: FOOTPRINT_BUDGET }];
  if (existsSync(join(DEV_PACKAGE, 'dist/index.js')))
    rows.push({ name: 'svc-sdk + svc-sdk-dev (dev tools)', ...installFootprint([root, DEV_PACKAGE]) });
  return rows;
}

/** Prints the footprints beside the peers' figures; returns the rows over their budget. */
function printFootprints() {
  const rows = footprints();
  console.log(
    '\n%s %s %s   budget',
    'installed from the packed tarballs'.padEnd(34),
    'packages'.padStart(9),
    'MB'.padStart(8),
  );
  for (const r of rows)
    console.log(
      r.name.padEnd(34),
      String(r.packages).padStart(9),
      r.mb.toFixed(1).padStart(8),
      r.budget ? `  ${r.budget.packages} packages / ${r.budget.mb} MB` : '',
    );
  console.log(`svc-sdk before the split (issue 25): 25 packages, 43 MB. Peers, the same way: ${FOOTPRINT_PEERS}`);
  return rows.filter((r) => r.budget && (r.packages > r.budget.packages || r.mb > r.budget.mb));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!existsSync(resolve(root, 'dist/index.js'))) {
    console.error('size: dist/ is missing; run `npm run build` first.');
    process.exit(2);
  }
  const rows = await sizes();
  console.log('entry'.padEnd(34), 'minified'.padStart(9), 'brotli'.padStart(8), '  budget');
  for (const r of rows)
    console.log(
      r.name.padEnd(34),
      String(r.min).padStart(9),
      String(r.brotli).padStart(8),
      r.budget ? `  ${r.budget} (${((r.brotli / r.budget) * 100).toFixed(0)}%)` : '',
    );
  const { contractSizes } = await import('./bench/contract.mjs');
  console.log('\nthe published contract, shipped as JSON');
  for (const c of contractSizes())
    console.log(c.file.padEnd(34), String(c.bytes).padStart(9), String(c.brotli).padStart(8));
  console.log(
    '\npeers, minified + brotli of a minimal use (measured the same way when the budget was set): vk-bridge 1.7 KB, penpal 3.1 KB, Telegram 15.7 KB, matrix-widget-api 20.1 KB, Discord 39.2 KB',
  );
  const over = rows.filter((r) => r.budget && r.brotli > r.budget);
  const heavy = printFootprints();
  if (process.argv.includes('--check') && (over.length || heavy.length)) {
    for (const r of over) console.error(`size: ${r.name} is ${r.brotli} bytes brotli, over its budget of ${r.budget}.`);
    for (const r of heavy)
      console.error(
        `size: installing ${r.name} brings ${r.packages} packages, ${r.mb.toFixed(1)} MB; the budget is ${r.budget.packages} packages, ${r.budget.mb} MB.`,
      );
    process.exit(1);
  }
}
