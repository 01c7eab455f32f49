// The agent bridge's overhead (dist/ must be built): one tool call over MCP (the official client, Streamable HTTP
// on loopback, both protocol eras), against the same invocation from the messenger's agent panel, in the same run.
// The app is a one-action package (`echo`, confirm never) in the messenger page in Chromium; both paths go through
// the page's host rules to the app's handler and back. The agent panel's figure is timed in the page, from the click
// to the rendered result; the MCP figure in Node, from callTool() to its result.
// `node scripts/bench/mcp.mjs [--quick]`.
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const root = resolve(import.meta.dirname, '../..');
const { startDevPlatform } = await import(pathToFileURL(resolve(root, 'packages/svc-sdk-dev/dist/index.js')).href);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function echoApp() {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-mcp-'));
  const manifest = {
    manifest_version: 1,
    id: 'be0c0123456789af',
    name: 'Echo',
    version: '1.0.0',
    description: 'Answers what it is given.',
    icons: [
      { src: 'icons/192.png', sizes: '192x192', type: 'image/png' },
      { src: 'icons/512.png', sizes: '512x512', type: 'image/png' },
    ],
    vendor: { id: 'acme', name: 'Acme', contact: 'dev@acme.example' },
    age_rating: '4+',
    entry: 'index.html',
    routes: [{ path: '/', title: 'Home' }],
    permissions: [],
    network: { connect: [] },
    csp: "default-src 'self'; script-src 'self'; object-src 'none'",
    auth: { type: 'none' },
    actions: [
      {
        name: 'echo',
        title: 'Echo',
        description: 'Returns its input unchanged, for measuring the round trip of an invocation.',
        input_schema: {
          type: 'object',
          properties: { text: { type: 'string' } },
          required: ['text'],
          additionalProperties: false,
        },
        output_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        annotations: { read_only: true, destructive: false, idempotent: true, open_world: false },
        confirm: 'never',
      },
    ],
  };
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"></head><body><script src="svc.global.js"></script><script src="app.js"></script></body></html>',
  );
  await copyFile(join(root, 'dist/svc.global.js'), join(dir, 'svc.global.js'));
  await writeFile(join(dir, 'app.js'), "svc.actions.handle('echo', (input) => input);\n");
  return dir;
}

/**
 * Median ms of a tool call over MCP per era, and of the agent panel's invocation, with `samples` each; per era, the
 * breakdown: the transport (a tools/list), the endpoint's own work, and the page's leg.
 */
export async function benchMcp(executablePath, { samples = 200 } = {}) {
  const { chromium } = await import('@playwright/test');
  const platform = await startDevPlatform({ dir: await echoApp(), port: 0 });
  const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.goto(platform.url);
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    await page.getByTestId('open-app').click();
    await page.getByTestId('input-echo-text').fill('hello');
    const panel = await page.evaluate(async (n) => {
      const button = document.querySelector('[data-testid=invoke-agent-echo]');
      const out = document.querySelector('[data-testid=result-echo]');
      const times = [];
      for (let i = 0; i < n; i++) {
        const start = performance.now();
        button.click();
        await new Promise((done) => {
          const check = () => (out.querySelector('.ok') ? done() : requestAnimationFrame(check));
          new MutationObserver((_m, o) => {
            if (out.querySelector('.ok')) {
              o.disconnect();
              done();
            }
          }).observe(out, { childList: true, subtree: true });
          requestAnimationFrame(check);
        });
        times.push(performance.now() - start);
        out.textContent = '';
      }
      return times;
    }, samples);
    const eras = {};
    const breakdown = {};
    for (const [era, versionNegotiation] of [
      ['2025-11-25', undefined],
      ['2026-07-28', { mode: 'auto' }],
    ]) {
      const client = new Client({ name: 'bench', version: '0' }, { versionNegotiation });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(platform.mcpUrl), {
          requestInit: { headers: { Authorization: `Bearer ${platform.mcpToken}` } },
        }),
      );
      // Where the time goes: the same request shape answered without the page. tools/list is the transport and the
      // SDK alone; a call refused by the input check also runs the endpoint's own work; the rest is the page's leg
      // (the event stream to the page, the host and the app, the answer through the control API).
      const time = async (run) => {
        const times = [];
        for (let i = 0; i < samples + 10; i++) {
          const start = performance.now();
          await run();
          if (i >= 10) times.push(performance.now() - start);
        }
        return median(times);
      };
      const transport = await time(() => client.listTools());
      const endpoint = await time(() => client.callTool({ name: 'echo', arguments: { text: 1 } }));
      const full = await time(async () => {
        const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
        if (result.isError) throw new Error(result.content[0].text);
      });
      eras[era] = full;
      breakdown[era] = { transport, endpoint: endpoint - transport, page: full - endpoint };
      await client.close();
    }
    return { panel: median(panel.slice(10)), eras, breakdown };
  } finally {
    await browser.close();
    await platform.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const result = await benchMcp(process.env.CHROMIUM_PATH || '/usr/bin/chromium', { samples: quick ? 30 : 200 });
  console.log(JSON.stringify(result, null, 2));
}
