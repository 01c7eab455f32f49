// npm run size: minified and brotli bytes of each entry, and of a mini app using every namespace.
// `--check` fails (exit 1) when the mini app bundle is over the budget: sizes are stable, so CI enforces them.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

// Brotli bytes for the whole client in a real app (any app using every namespace and importing
// SvcError). The client carries the checks of what it sends unanswered (notifications) and of what the host sends
// it; the params of the calls the host answers are checked by the host alone (docs/decisions.md).
const BUDGET = 4000;
// Brotli bytes of svc-sdk/host without the manifest validator (zod, @cfworker/json-schema): what a messenger that
// validated the manifest at upload ships in its page.
const HOST_CORE_BUDGET = 12_000;
// Brotli bytes of the svc dev messenger page (dist/dev-ui.js, minified here): served from loopback, so this is
// information with a ceiling, not a target; most of it is the manifest validator (zod) and the host's rules.
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

/** Measures every built entry and the mini app; returns rows for the table. */
export async function sizes() {
  const rows = [];
  for (const [name, file, extra, budget] of [
    ['svc-sdk (client)', 'dist/index.js'],
    ['svc-sdk/global', 'dist/global.js'],
    ['svc.global.js (script tag)', 'dist/svc.global.js'],
    ['svc-sdk/host', 'dist/host.js'],
    ['svc-sdk/host/core (no validator)', 'dist/host-core.js', {}, HOST_CORE_BUDGET],
    ['svc-sdk/mock', 'dist/mock.js', { platform: 'node' }],
    ['svc-sdk/manifest', 'dist/manifest.js', { platform: 'node' }],
  ]) {
    if (existsSync(resolve(root, file))) rows.push({ name, ...(await measure(file, extra)), budget });
  }
  rows.push({ name: 'mini app using every namespace', ...(await measure('test/size/miniApp.ts')), budget: BUDGET });
  if (existsSync(resolve(root, 'dist/dev-ui.js')))
    rows.push({ name: 'svc dev messenger page', ...(await measure('dist/dev-ui.js')), budget: MESSENGER_BUDGET });
  rows.push({ name: 'a polls app, its own code included', ...(await measure('test/size/pollsApp.ts')) });
  return rows;
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
  if (process.argv.includes('--check') && over.length) {
    for (const r of over) console.error(`size: ${r.name} is ${r.brotli} bytes brotli, over its budget of ${r.budget}.`);
    process.exit(1);
  }
}
