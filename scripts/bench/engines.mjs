// Round trips and time to ready in a browser engine (Chromium, Firefox ESR, WebKitGTK), each against a raw
// MessagePort in the same engine: a host page on 127.0.0.1 embeds the app on localhost (another site, an
// out-of-process frame where the engine isolates sites), driven through each engine's own driver
// (test/browser/engines/launchEngine.mjs). Pages are cross-origin isolated (COOP/COEP) so that performance.now()
// has its finest grain; nothing else changes for the channel.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { engineMissing, launchEngine } from '../../test/browser/engines/launchEngine.mjs';
import { startServers } from '../../test/browser/server.mjs';
import { summarise } from './measure.js';

const root = resolve(import.meta.dirname, '../..');
/** What each page measures: a raw port, svc four ways, and the peers (Chromium's run only, by default). */
export const LIBS = ['raw', 'svc', 'svc-esm', 'svc-iife', 'svc-bundled', 'penpal', 'comlink'];

/** Each page's file under /bench/ (the others load app.html). */
const PAGES = { 'svc-esm': 'app-esm.html', 'svc-iife': 'app-iife.html', 'svc-bundled': 'app-bundled.html' };

/**
 * Bundles app-bundled.js with the build under test (SVC_DIST, as the servers serve it), minified, as an app's bundler
 * would: the folder to serve as /bundled/.
 */
async function bundleApp() {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-app-'));
  await build({
    entryPoints: [resolve(import.meta.dirname, 'app-bundled.js')],
    outfile: join(dir, 'app.js'),
    alias: { 'svc-sdk': join(process.env.SVC_DIST || resolve(root, 'dist'), 'index.js') },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  });
  return dir;
}

/**
 * One page's steps to ready as text (`npm run bench` and scripts/bench/ready.mjs print it), in ms with `digits`
 * decimals; a step the page does not have (the SDK file of the raw page and of the bundled app) is `-`.
 */
export function stepsText(steps, digits) {
  const ms = (x) => (x === undefined || Number.isNaN(x) ? '-' : x.toFixed(digits));
  const { load, call, there, host, back, answer, requested, fetched } = steps;
  return `load ${ms(load)} (SDK file requested ${ms(requested)}, fetched ${ms(fetched)}), call ${ms(call)}, hello there ${ms(there)}, host ${ms(host)}, back ${ms(back)}, answer ${ms(answer)}`;
}

/** Runs the bench pages in `engine`; resolves one row per library, or `{ skipped }` when the engine is missing. */
export async function benchEngine(engine, options = {}) {
  const missing = engineMissing(engine);
  if (missing) return { skipped: missing };
  const bundled = await bundleApp();
  try {
    return await runPages(engine, bundled, options);
  } finally {
    await rm(bundled, { recursive: true, force: true });
  }
}

/** The pages in `engine`, the bundled app served from `bundled`: one row per library. */
async function runPages(engine, bundled, { rounds = 3, samples = 2000, libs = LIBS.slice(0, 5) }) {
  const servers = await startServers(2, {
    roots: {
      '/bench/': import.meta.dirname,
      '/bundled/': bundled,
      '/node_modules/penpal/': resolve(root, 'node_modules/penpal'),
      '/node_modules/comlink/': resolve(root, 'node_modules/comlink'),
    },
    headers: {
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
      'cross-origin-resource-policy': 'cross-origin',
    },
  });
  const [hp, ap] = servers.ports;
  const H = `http://127.0.0.1:${hp}`;
  const A = `http://localhost:${ap}`;
  const launched = await launchEngine(engine);
  const acc = {};
  try {
    for (let r = 0; r < rounds; r++)
      for (const lib of libs) {
        const context = await launched.newContext();
        const page = await context.newPage();
        const app = `${A}/bench/${PAGES[lib] ?? 'app.html'}?${new URLSearchParams({ lib, host: H, samples: String(samples) })}`;
        await page.goto(`${H}/bench/host.html?${new URLSearchParams({ lib, app, appOrigin: A })}`);
        let frame;
        for (let i = 0; i < 200 && !frame; i++) {
          frame = (await page.frames()).find((x) => x.url().startsWith(A));
          if (!frame) await new Promise((ok) => setTimeout(ok, 50));
        }
        if (!frame) throw new Error(`bench: the ${lib} app frame did not load in ${engine}`);
        let res;
        for (let i = 0; i < 1200 && !res; i++) {
          res = await frame.evaluate(() => window.__result ?? null);
          if (!res) await new Promise((ok) => setTimeout(ok, 50));
        }
        if (!res) throw new Error(`bench: the ${lib} page gave no result in ${engine}`);
        if (lib !== 'raw' && res.answer !== 'v')
          throw new Error(`bench: ${lib} answered ${JSON.stringify(res.answer)}`);
        acc[lib] ??= {
          lat: [],
          tp: [],
          ready: [],
          ratio: [],
          readyRatio: [],
          steps: [],
          isolated: res.isolated,
        };
        const a = acc[lib];
        a.lat.push(...res.lat);
        // Compare within a round, against the raw page opened just before (each page may get its own process).
        a.ratio.push(summarise(res.lat).median / summarise(acc.raw.lat.slice(-res.lat.length)).median);
        a.readyRatio.push(res.ready / acc.raw.ready.at(-1));
        a.ready.push(res.ready);
        // The hello step split at the host page's marks: the hello's way there, the host's work, the welcome's way back.
        const host = await (await page.mainFrame()).evaluate(() => [window.__hostHello, window.__hostWelcomed]);
        const { helloAt, welcomeAt, ...steps } = res.steps ?? {};
        a.steps.push({ ...steps, there: host[0] - helloAt, host: host[1] - host[0], back: welcomeAt - host[1] });
        a.tp.push(res.throughput);
        await context.close();
      }
  } finally {
    await launched.close().catch(() => {});
    await servers.close();
  }
  const median = (x) => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)];
  // Each step's median across rounds, in ms (NaN where a page does not go through that step, as penpal's).
  const steps = (rounds) =>
    Object.fromEntries(Object.keys(rounds[0]).map((k) => [k, median(rounds.map((r) => r[k] ?? Number.NaN))]));
  return Object.entries(acc).map(([lib, a]) => ({
    lib,
    ...summarise(a.lat),
    ratio: median(a.ratio),
    throughput: median(a.tp),
    ready: median(a.ready),
    readyRatio: median(a.readyRatio),
    steps: steps(a.steps),
    isolated: a.isolated,
  }));
}

if (import.meta.url === `file://${process.argv[1]}`)
  for (const engine of ['firefox', 'webkit'])
    console.log(engine, await benchEngine(engine, { rounds: 1, samples: 500 }));
