// The agent bridge's overhead (dist/ must be built): one tool call over MCP (the official client, Streamable HTTP
// on loopback, both protocol eras), against the same invocation from the messenger's agent panel, in the same run.
// The app is a one-action package (`echo`, confirm never) in the messenger page in Chromium; both paths go through
// the page's host rules to the app's handler and back. The agent panel's figure is timed in the page, from the click
// to the rendered result; the MCP figure in Node, from callTool() to its result.
// Each MCP call is split into six legs by timestamps taken in this process (Node's diagnostics channels of undici
// and node:http, and the page's channel: the platform's send of `mcp-invoke`, the page's result arriving): see `LEGS`.
// `node scripts/bench/mcp.mjs [--quick]`.
import diagnostics from 'node:diagnostics_channel';
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { WebSocket, WebSocketServer } from 'ws';
import { CHROMIUM_ARGS } from '../chromiumArgs.mjs';

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

/** The legs of one MCP call, each from the mark before it; together they are the whole call. */
export const LEGS = {
  'client out': "the MCP client (the SDK) until its request is sent: callTool() to undici's request",
  'to server': 'the request crosses loopback and node:http parses its head',
  endpoint: "the endpoint: guards, body, the SDK's dispatch, the call's checks, the relay writing mcp-invoke",
  page: "the page: its channel (a WebSocket) both ways, the host, the app, and the page's answer",
  answer: "the platform: the answer's route, the relay's outcome, the SDK's response written",
  'client in': 'the response crosses loopback, the MCP client (the SDK) parses it: until callTool() resolves',
};

/**
 * Timestamps of the current call's marks (`at.send`, `at.received`, ...), taken from Node's diagnostics channels
 * (undici for the client, node:http for the server) and from the page's channel (`ws`, which the platform serves it
 * with): the platform's send of `mcp-invoke`, and the page's result arriving.
 */
function watchLegs() {
  let at = {};
  const on = {
    'undici:request:create': () => (at.send ??= performance.now()),
    'http.server.request.start': ({ request }) => {
      if (request.url.split('?')[0] === '/mcp') at.received ??= performance.now();
    },
    'http.server.response.finish': ({ request }) => {
      if (request.url.split('?')[0] === '/mcp') at.responded ??= performance.now();
    },
  };
  for (const [name, handler] of Object.entries(on)) diagnostics.subscribe(name, handler);
  const { send, emit } = WebSocket.prototype;
  WebSocket.prototype.send = function (data, ...rest) {
    if (typeof data === 'string' && data.startsWith('{"event":"mcp-invoke"')) at.invoked ??= performance.now();
    return send.call(this, data, ...rest);
  };
  WebSocket.prototype.emit = function (type, data, ...rest) {
    if (type === 'message' && String(data).includes('"route":"POST /__svc/mcp/result"'))
      at.answered ??= performance.now();
    return emit.call(this, type, data, ...rest);
  };
  return {
    /** Starts a call's marks. */
    reset: () => (at = {}),
    /** The legs of the call that started at `start` and ended at `end`, in ms. */
    legs(start, end) {
      const marks = [start, at.send, at.received, at.invoked, at.answered, at.responded, end];
      if (marks.some((mark) => mark === undefined)) throw new Error(`a mark is missing: ${JSON.stringify(at)}`);
      return Object.fromEntries(Object.keys(LEGS).map((leg, i) => [leg, marks[i + 1] - marks[i]]));
    },
    stop() {
      for (const [name, handler] of Object.entries(on)) diagnostics.unsubscribe(name, handler);
      Object.assign(WebSocket.prototype, { send, emit });
    },
  };
}

/**
 * Runs in the messenger page before its scripts: notes when each `mcp-invoke` event reaches the page's channel and
 * when the page sends its answer, so that the page leg splits into the page's work and the rest.
 */
function timePageWork() {
  const arrived = [];
  const posted = [];
  globalThis.svcBenchMcp = { splice: () => ({ arrived: arrived.splice(0), posted: posted.splice(0) }) };
  const onmessage = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', {
    ...onmessage,
    set(listener) {
      onmessage.set.call(this, (event) => {
        if (event.data.startsWith('{"event":"mcp-invoke"')) arrived.push(performance.now());
        return listener.call(this, event);
      });
    },
  });
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (String(data).includes('"route":"POST /__svc/mcp/result"')) posted.push(performance.now());
    return send.call(this, data);
  };
}

/** A bare page answering each message from Node at once, by transport, with how Node sends it one. */
const BARE_PAGES = {
  // The page's channel: one WebSocket both ways.
  websocket: {
    html: `<!doctype html><script>const s = new WebSocket('ws://' + location.host + '/'); s.onmessage = (e) => s.send(e.data);</script>`,
    attach(server, page) {
      new WebSocketServer({ server }).on('connection', (ws) => {
        ws.on('message', () => page.answered?.());
        page.send = (data) => ws.send(data);
      });
    },
  },
  // The channel before it: an event stream to the page, and a POST per answer.
  'event stream + POST': {
    html: `<!doctype html><script>new EventSource('/events').onmessage = (e) => fetch('/answer', { method: 'POST', body: e.data });</script>`,
    attach(server, page) {
      server.prependListener('request', (req, res) => {
        if (req.url === '/events') {
          const stream = res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
          stream.write(': open\n\n');
          page.send = (data) => stream.write(`data: ${data}\n\n`);
        } else if (req.url === '/answer') {
          // Timed at its head, as the page leg is (the body follows in the same or the next packet).
          page.answered?.();
          req.resume().on('end', () => res.end());
        }
      });
    },
  },
};

/**
 * The floor of the page's leg by transport: median ms from a message written in Node to the answer of a bare page
 * (no host, no app, no framework) arriving, over the page's WebSocket and over the event stream plus POST it replaced.
 */
async function pageLegFloor(browser, samples) {
  const floors = {};
  for (const [transport, bare] of Object.entries(BARE_PAGES)) {
    const page = {};
    const server = createServer((req, res) => {
      if (!res.headersSent && req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(bare.html);
    });
    bare.attach(server, page);
    await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
    const tab = await browser.newPage();
    try {
      await tab.goto(`http://127.0.0.1:${server.address().port}/`);
      while (!page.send) await new Promise((tick) => setTimeout(tick, 10));
      const times = [];
      for (let i = 0; i < samples + 10; i++) {
        const start = performance.now();
        const arrived = new Promise((ok) => {
          page.answered = () => ok(performance.now());
        });
        page.send(`{"id":${i},"input":{"text":"hello"}}`);
        if (i >= 10) times.push((await arrived) - start);
        else await arrived;
      }
      floors[transport] = median(times);
    } finally {
      await tab.close();
      server.closeAllConnections();
      server.close();
    }
  }
  return floors;
}

/**
 * Median ms of a tool call over MCP per era, and of the agent panel's invocation, with `samples` each; per era, the
 * median of each leg of the call (see {@link LEGS}).
 */
export async function benchMcp(executablePath, { samples = 200 } = {}) {
  const { chromium } = await import('@playwright/test');
  const platform = await startDevPlatform({ dir: await echoApp(), port: 0 });
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const watch = watchLegs();
  try {
    const page = await browser.newPage();
    await page.addInitScript(timePageWork);
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
    const inPage = {};
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
      const legs = Object.fromEntries(Object.keys(LEGS).map((leg) => [leg, []]));
      const times = [];
      for (let i = 0; i < samples + 10; i++) {
        watch.reset();
        const start = performance.now();
        const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
        const end = performance.now();
        if (result.isError) throw new Error(result.content[0].text);
        if (i < 10) continue;
        times.push(end - start);
        for (const [leg, ms] of Object.entries(watch.legs(start, end))) legs[leg].push(ms);
      }
      eras[era] = median(times);
      // Of the page leg, the page's own part: its script from the event to the fetch() of its answer.
      const { arrived, posted } = await page.evaluate(() => globalThis.svcBenchMcp.splice(0));
      inPage[era] = median(posted.slice(10).map((at, i) => at - arrived[i + 10]));
      breakdown[era] = Object.fromEntries(Object.entries(legs).map(([leg, ms]) => [leg, median(ms)]));
      await client.close();
    }
    return { panel: median(panel.slice(10)), eras, breakdown, inPage, pageFloor: await pageLegFloor(browser, samples) };
  } finally {
    watch.stop();
    await browser.close();
    await platform.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const result = await benchMcp(process.env.CHROMIUM_PATH || '/usr/bin/chromium', { samples: quick ? 30 : 200 });
  console.log(JSON.stringify(result, null, 2));
}
