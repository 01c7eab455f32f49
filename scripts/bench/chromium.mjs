// The Chromium half of the benchmark: a host page on 127.0.0.1 embeds the app on localhost (another site, so an
// out-of-process frame); the app measures round trips to the host. Pages are cross-origin isolated (COOP/COEP) so
// that performance.now() has a 5 µs grain instead of 100 µs; nothing else changes for the channel.
import { chromium } from 'playwright-core';
import { resolve } from 'node:path';
import { startServers } from '../../test/browser/server.mjs';
import { CHROMIUM_ARGS } from '../chromiumArgs.mjs';
import { summarise } from './measure.js';

const root = resolve(import.meta.dirname, '../..');

export async function benchChromium({ executablePath, rounds = 2, samples = 5000 }) {
  const servers = await startServers(2, {
    roots: {
      '/bench/': import.meta.dirname,
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
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 30_000 });
  const acc = {};
  try {
    for (let r = 0; r < rounds; r++)
      for (const lib of ['raw', 'svc', 'svc-esm', 'svc-iife', 'penpal', 'comlink']) {
        const page = await browser.newPage();
        // svc-esm and svc-iife load the client as an app would (a static import, a script tag) from pages of
        // their own; the others share app.html, which imports the library dynamically.
        const file = lib == 'svc-esm' ? 'app-esm.html' : lib == 'svc-iife' ? 'app-iife.html' : 'app.html';
        const app = `${A}/bench/${file}?${new URLSearchParams({ lib, host: H, samples: String(samples) })}`;
        await page.goto(`${H}/bench/host.html?${new URLSearchParams({ lib, app, appOrigin: A })}`);
        const frame = await (async () => {
          for (let i = 0; i < 100; i++) {
            const f = page.frames().find((x) => x.url().startsWith(A));
            if (f) return f;
            await new Promise((ok) => setTimeout(ok, 50));
          }
          throw new Error(`bench: the ${lib} app frame did not load`);
        })();
        const res = await (
          await frame.waitForFunction(() => window.__result, null, { timeout: 60_000, polling: 100 })
        ).jsonValue();
        if (lib != 'raw' && res.answer !== 'v') throw new Error(`bench: ${lib} answered ${JSON.stringify(res.answer)}`);
        const a = (acc[lib] ??= { lat: [], tp: [], ready: [], ratio: [], isolated: res.isolated });
        a.lat.push(...res.lat);
        // Each page lands on its own renderer process, whose speed varies from page to page: compare within a
        // round, against the raw page opened just before, and take the median of those ratios.
        a.ratio.push(summarise(res.lat).median / summarise(acc.raw.lat.slice(-res.lat.length)).median);
        a.tp.push(res.throughput);
        a.ready.push(res.ready);
        await page.close();
      }
  } finally {
    await browser.close().catch(() => {});
    await servers.close();
  }
  const median = (x) => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)];
  return Object.entries(acc).map(([lib, a]) => ({
    lib,
    ...summarise(a.lat),
    ratio: median(a.ratio),
    throughput: median(a.tp),
    ready: median(a.ready),
    isolated: a.isolated,
  }));
}

if (import.meta.url == `file://${process.argv[1]}`)
  console.table(
    await benchChromium({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', rounds: 1, samples: 2000 }),
  );
