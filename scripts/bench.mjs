// npm run bench: svc's round trip against a raw MessagePort echo, penpal and comlink, measured in the same run,
// in Node (MessageChannel) and in Chromium across sites; then retained heap after 100,000 calls, and sizes.
// Runs against dist/ (built first if missing). `--quick` for a short smoke run. Prints one table, then the rest.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const quick = process.argv.includes('--quick');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!existsSync(resolve(root, 'dist/index.js')) || !existsSync(resolve(root, 'dist/host.js'))) {
  console.log('bench: dist/ is missing; building with tsup');
  if (spawnSync('npx tsup --silent', { shell: true, stdio: 'inherit', cwd: root }).status !== 0) process.exit(1);
}
const { benchNode } = await import('./bench/node.mjs');
const { benchChromium } = await import('./bench/chromium.mjs');
const { sizes } = await import('./size.mjs');

const started = Date.now();
const rows = [];
const node = await benchNode(quick ? { rounds: 1, samples: 3000 } : { rounds: 3, samples: 20000 });
rows.push(...node.map((r) => ({ where: 'Node 20, MessageChannel', ...r, rawMedian: node[0].median })));
let chromiumNote = '';
// Time to ready by step in each browser engine: [engine, rows of benchEngine].
const readySteps = [];
if (existsSync(chromiumPath)) {
  // The engine is found as the tests find it (CHROMIUM_PATH, else Debian's /usr/bin/chromium).
  const ch = await benchChromium(quick ? { rounds: 1, samples: 1000 } : { rounds: 7, samples: 3000 });
  rows.push(...ch.map((r) => ({ where: 'Chromium, cross-site frame', ...r, rawMedian: ch[0].median })));
  readySteps.push(['Chromium', ch]);
  if (!ch.every((r) => r.isolated))
    chromiumNote = 'note: the pages were not cross-origin isolated, so Chromium timings have a 100 µs grain.';
} else
  chromiumNote = `Chromium: SKIPPED (no browser at ${chromiumPath}; apt-get install -y chromium, or set CHROMIUM_PATH).`;

// Firefox ESR and WebKitGTK: the same pages through each engine's own driver, each against its own raw MessagePort.
const { benchEngine, stepsText } = await import('./bench/engines.mjs');
const engineNotes = [];
for (const [engine, where] of [
  ['firefox', 'Firefox ESR, cross-site frame'],
  ['webkit', 'WebKitGTK, cross-site frame'],
]) {
  const result = await benchEngine(engine, quick ? { rounds: 1, samples: 500 } : { rounds: 5, samples: 2000 });
  if (result.skipped) {
    engineNotes.push(`${where}: SKIPPED (${result.skipped})`);
    continue;
  }
  rows.push(...result.map((r) => ({ where, ...r, rawMedian: result[0].median })));
  readySteps.push([where.split(',')[0], result]);
  engineNotes.push(
    `${where}: time to ready vs the raw MessagePort page, median of per-round ratios: ${result
      .filter((r) => r.lib !== 'raw')
      .map((r) => `${r.lib} ${r.readyRatio.toFixed(2)}x`)
      .join(', ')}`,
  );
}

const label = {
  raw: 'raw MessagePort echo',
  svc: 'svc (createSvc + createHost)',
  'svc-esm': 'svc, ESM entry, static import',
  'svc-iife': 'svc, script tag (svc.global.js)',
  'svc-bundled': 'svc, bundled into the app',
  penpal: 'penpal 7.0.6',
  comlink: 'comlink 4.4.2',
};
const fmt = (n, d = 1) => n.toFixed(d);
// In a browser the createSvc page imports the SDK when its script runs, as the penpal and comlink pages do theirs
// (scripts/bench/app.html); its time to ready pays that wait, which the static import and the bundled app do not.
const table = rows.map((r) => [
  r.where,
  r.lib === 'svc' && !r.where.startsWith('Node') ? `${label.svc}, imported dynamically` : label[r.lib],
  fmt(r.median),
  fmt(r.p99),
  `${fmt(r.ratio ?? r.median / r.rawMedian, 2)}x`,
  Math.round(r.throughput).toLocaleString('en'),
  r.ready >= 1000 ? `${fmt(r.ready / 1000)} ms` : `${Math.round(r.ready)} µs`,
]);
const head = ['where', 'round trip', 'median µs', 'p99 µs', 'vs raw', 'calls/s (100 in flight)', 'time to ready'];
const widths = head.map((h, i) => Math.max(h.length, ...table.map((t) => String(t[i]).length)));
const line = (cells) =>
  `| ${cells.map((c, i) => (i < 2 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(' | ')} |`;
console.log(
  `\n${line(head)}\n|${widths.map((w, i) => (i < 2 ? ` ${'-'.repeat(w)} ` : ` ${'-'.repeat(w - 1)}: `)).join('|')}|`,
);
for (const t of table) console.log(line(t));
if (chromiumNote) console.log(chromiumNote);
for (const note of engineNotes) console.log(note);
// Where the milliseconds to ready go (scripts/bench/engines.mjs names the steps), raw and svc's three entries.
for (const [engine, result] of readySteps) {
  const raw = result.find((r) => r.lib === 'raw');
  console.log(`${engine}: time to ready by step, medians in ms (ready, vs raw):`);
  for (const r of result.filter((x) => x.lib === 'raw' || x.lib.startsWith('svc'))) {
    const vs = r === raw ? '' : `, ${r.readyRatio.toFixed(2)}x`;
    console.log(`  ${r.lib.padEnd(11)} ${(r.ready / 1000).toFixed(1)}${vs}: ${stepsText(r.steps, 1)}`);
  }
}
console.log(
  "time to ready: Node, from creating the channel to the first answered call; in a browser, from the app page's first script to the first answered call (bootstrap included). Firefox and WebKit timings have the grain those engines give performance.now() (20 µs in isolated pages).",
);

// Memory: a child process with --expose-gc, so that the heap is measured after full collections.
const mem = spawnSync(process.execPath, ['--expose-gc', resolve(import.meta.dirname, 'bench/memory.mjs'), '100000'], {
  encoding: 'utf8',
});
try {
  const m = JSON.parse(mem.stdout.trim().split('\n').at(-1));
  console.log(
    `\nmemory: ${m.calls.toLocaleString('en')} svc calls (100 in flight): retained heap ${fmt(m.before / 1024)} KB before, ${fmt(m.after / 1024)} KB after (${m.growth >= 0 ? '+' : ''}${fmt(m.growth / 1024)} KB, ${fmt(m.growth / m.calls, 2)} bytes per call; after full GCs)`,
  );
} catch {
  console.log(`\nmemory: the measurement failed: ${mem.stderr}`);
}

// Sizes: ours (scripts/size.mjs), and a minimal realistic use of each peer measured the same way in this run.
async function peer(code) {
  const out = await build({
    stdin: { contents: code, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  const bytes = out.outputFiles[0].contents;
  return {
    min: bytes.length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}
const sizeRows = await sizes();
sizeRows.push({
  name: 'peer: penpal 7 (connect + one call)',
  ...(await peer(
    "import { connect, WindowMessenger } from 'penpal'; connect({ messenger: new WindowMessenger({ remoteWindow: parent, allowedOrigins: ['https://host.example'] }), methods: {} }).promise.then((r) => r.get('k'));",
  )),
});
sizeRows.push({
  name: 'peer: comlink 4 (wrap + one call)',
  ...(await peer("import { wrap, windowEndpoint } from 'comlink'; wrap(windowEndpoint(parent)).get('k');")),
});
console.log(
  `\n${'size (minified, brotli -q 11)'.padEnd(40)} ${'minified'.padStart(9)} ${'brotli'.padStart(7)}  budget`,
);
for (const r of sizeRows)
  console.log(
    `${r.name.padEnd(40)} ${String(r.min).padStart(9)} ${String(r.brotli).padStart(7)}  ${r.budget ? `${r.budget} (${Math.round((r.brotli / r.budget) * 100)}%)${r.goal ? `, goal ${r.goal}` : ''}` : ''}`,
  );
console.log(
  'other peers (measured the same way when the budget was set): vk-bridge 1.7 KB, Telegram 15.7 KB, matrix-widget-api 20.1 KB, Discord 39.2 KB',
);

if (existsSync(resolve(root, 'scripts/bench-mock.mjs'))) {
  console.log('\nmock host (scripts/bench-mock.mjs):');
  const r = spawnSync(process.execPath, [resolve(root, 'scripts/bench-mock.mjs'), ...(quick ? ['--quick'] : [])], {
    encoding: 'utf8',
    cwd: root,
  });
  process.stdout.write(r.status === 0 ? r.stdout : `bench-mock failed (exit ${r.status}): ${r.stderr}\n`);
}

{
  const { benchServer } = await import('./bench/server.mjs');
  const server = await benchServer();
  console.log(
    '\nsvc-sdk/server (scripts/bench/server.mjs): cost against a bare baseline, median of alternating rounds',
  );
  for (const r of server)
    console.log(
      `  ${r.what.padEnd(32)} ${Math.round(r.ours).toLocaleString('en').padStart(8)}/s vs ${r.baseline} ${Math.round(r.raw).toLocaleString('en')}/s: ${r.ratio.toFixed(2)}x`,
    );
}

{
  const { benchRateLimit, formatRateLimit } = await import('./bench/rateLimit.mjs');
  const seconds = quick ? 4 : 10;
  console.log(
    '\nshared rate limit (scripts/bench/rateLimit.mjs): createRedisRateLimiter against the limiter before it',
  );
  for (const line of formatRateLimit(await benchRateLimit({ seconds }), seconds)) console.log(line);
}

{
  const { benchServerApi, benchReady } = await import('./bench/dev.mjs');
  console.log('\nsvc dev (scripts/bench/dev.mjs): against bare node:http baselines, medians');
  const api = await benchServerApi();
  console.log(
    `  server API, signed GETs (each verified; 429 past the burst)  ${Math.round(api.ours)}/s vs bare ${Math.round(api.raw)}/s: ${(api.raw / api.ours).toFixed(2)}x`,
  );
  if (existsSync(chromiumPath)) {
    const ready = await benchReady(chromiumPath);
    console.log(
      `  command to ready page (app's first call answered)           ${Math.round(ready.ours)} ms vs bare server + page ${Math.round(ready.raw)} ms: ${(ready.ours / ready.raw).toFixed(2)}x; vs bare server + page framing another site ${Math.round(ready.framed)} ms: ${(ready.ours / ready.framed).toFixed(2)}x`,
    );
  } else console.log('  command to ready page: SKIPPED (no Chromium)');
}

if (existsSync(chromiumPath)) {
  const { benchMcp, LEGS } = await import('./bench/mcp.mjs');
  const mcp = await benchMcp(chromiumPath, { samples: quick ? 30 : 200 });
  console.log('\nagent bridge (scripts/bench/mcp.mjs): one invocation of an echo action, medians');
  console.log(`  from the agent panel (in the page)                          ${fmt(mcp.panel, 2)} ms`);
  for (const [era, ms] of Object.entries(mcp.eras)) {
    console.log(
      `  over MCP, ${era} client (HTTP, relayed to the page)        ${fmt(ms, 2)} ms: +${fmt(ms - mcp.panel, 2)} ms`,
    );
    for (const [leg, legMs] of Object.entries(mcp.breakdown[era]))
      console.log(`    ${leg.padEnd(11)} ${fmt(legMs, 2).padStart(6)} ms  ${LEGS[leg]}`);
    console.log(
      `      of the page leg, the page's script from the event to its answer's fetch(): ${fmt(mcp.inPage[era], 2)} ms`,
    );
  }
  // The floor by transport: the page's channel (a WebSocket) and the event stream plus POST it replaced.
  for (const [transport, ms] of Object.entries(mcp.pageFloor))
    console.log(`  the page leg's floor: a bare page answering over ${transport.padEnd(20)} ${fmt(ms, 2)} ms`);
} else console.log('\nagent bridge: SKIPPED (no Chromium)');

{
  const { benchTrigger, contractSizes } = await import('./bench/contract.mjs');
  console.log('\nthe published contract (scripts/bench/contract.mjs)');
  for (const c of contractSizes())
    console.log(
      `  ${c.file.padEnd(58)} ${c.bytes.toLocaleString('en')} bytes, ${c.brotli.toLocaleString('en')} brotli`,
    );
  const t = await benchTrigger({ samples: quick ? 5 : 20 });
  console.log(
    `  svc trigger, command to printed answer (local backend)     median ${fmt(t.wallMedian, 0)} ms, p95 ${fmt(t.wallP95, 0)} ms (the answer itself ${t.answerMedian} ms), ${t.samples} runs`,
  );
}

{
  const { benchPlatform } = await import('./bench/platform.mjs');
  console.log('\nsvc dev platform (scripts/bench/platform.mjs): limits and durability');
  await benchPlatform();
}

{
  const { benchPackage } = await import('./bench/package.mjs');
  const result = await benchPackage({ runs: quick ? 3 : 15 });
  console.log(
    `\nsigned packages (scripts/bench/package.mjs): a ${(result.size / 1e6).toFixed(2)} MB app of ${result.files} files, a ${(result.packageBytes / 1e6).toFixed(2)} MB package; median (min)`,
  );
  for (const r of result.rows) console.log(`  ${r.what.padEnd(44)} ${fmt(r.median)} ms (${fmt(r.min)} ms)`);
}

const cpu = cpus()[0];
console.log(
  `\nmachine: ${cpu?.model ?? 'unknown CPU'} (${cpus().length} threads), ${Math.round(totalmem() / 2 ** 30)} GB, ${process.platform} ${process.arch}, Node ${process.versions.node}; bench took ${Math.round((Date.now() - started) / 1000)} s`,
);
process.exit(0);
