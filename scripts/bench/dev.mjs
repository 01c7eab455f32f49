// svc dev, measured against bare baselines in the same run (dist/ must be built):
// - server API answers per second: signed GET installation requests to the emulator (each signature verified, the
//   600/min limiter applied: past the burst of 60 the answers are 429, which are verified and answered too) vs a
//   bare node:http server answering the same JSON without checking anything;
// - time from the command to a ready page: `svc-sdk dev examples/polls` spawned, its URL printed, the messenger
//   loaded in Chromium (the URL opens the app) and the app's first bridge call answered, vs a bare node:http server
//   spawned and its page loaded; and vs the floor of any messenger that frames its app on another site: a bare server
//   whose page frames a page of another site's (a second server in the same process), ready when that frame's hello
//   reaches the page. Each load starts on an idle browser (`settle`), as a person's does.
//   `node scripts/bench/dev.mjs [--quick]`.
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM_ARGS } from '../chromiumArgs.mjs';

const root = resolve(import.meta.dirname, '../..');
const load = (file) => import(pathToFileURL(resolve(root, file)).href);
const { startDevPlatform } = await load('packages/svc-sdk-dev/dist/index.js');
const { signRequest } = await load('dist/server.js');
const quick = process.argv.includes('--quick');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function rate(fn, ms) {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    await fn();
    n++;
  }
  return n / ((performance.now() - start) / 1000);
}

/** Signed GETs per second against the emulator, and the same requests against a bare server. */
export async function benchServerApi() {
  const platform = await startDevPlatform({ miniAppId: 'bench', audience: 'bench', port: 0 });
  const path = `/v1/apps/bench/installations/${platform.state.users[0].app_user_id}`;
  const bare = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"installed":true}'),
  );
  await new Promise((ok) => bare.listen(0, '127.0.0.1', ok));
  const bareUrl = `http://127.0.0.1:${bare.address().port}${path}`;
  const get = async (url) => {
    const headers = await signRequest({ secret: platform.signingSecret, miniAppId: 'bench', body: '' });
    await (await fetch(url, { headers })).arrayBuffer();
  };
  const rounds = quick ? 2 : 5;
  const ms = quick ? 300 : 1000;
  const ours = [];
  const raw = [];
  for (let i = 0; i < rounds; i++) {
    raw.push(await rate(() => get(bareUrl), ms));
    ours.push(await rate(() => get(`${platform.origin}${path}`), ms));
  }
  await platform.close();
  await new Promise((ok) => bare.close(ok));
  return { ours: median(ours), raw: median(raw) };
}

/** Spawns a command and resolves with the first stdout line and the ms it took. */
function firstLine(args) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolveLine, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolveLine({ child, line: out.split('\n')[0], ms: performance.now() - started });
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before printing`)));
  });
}

/**
 * The svc-sdk-dev that dist/cli.js loads: this checkout's, unless node_modules is another checkout's (a git worktree
 * sharing one node_modules), where the figures would be that checkout's build.
 */
function devPackageLoaded() {
  const loaded = realpathSync(createRequire(resolve(root, 'dist/cli.js')).resolve('svc-sdk-dev/cli'));
  const ours = realpathSync(resolve(root, 'packages/svc-sdk-dev'));
  if (!loaded.startsWith(ours))
    console.warn(
      `warning: dist/cli.js loads ${loaded}, not this checkout's svc-sdk-dev (link dist/node_modules/svc-sdk-dev to ../../packages/svc-sdk-dev)`,
    );
}

/**
 * A second's pause before each measured load, so that it starts on an idle browser, as a person's does. A new tab,
 * and a page just loaded, leave Chromium busy for a few hundred milliseconds more (its renderers' CPU time, read in
 * /proc, kept growing after the bare page was ready). Back to back, that work ran during the next load, and the bare
 * server's load took the most of it (its tab was the newest): without the pause the bare server took 167-207 ms and
 * svc dev 400-493, with it 120-135 and 309-342 (docs/performance.md, item 4's sixth pass).
 */
const settle = () => new Promise((done) => setTimeout(done, 1000));

/**
 * One measured load: after `settle`, the ms from spawning a command (Node with `args`) to `ready(page)` on the URL it
 * prints; then the command is stopped with `signal`.
 */
async function timeLoad(page, args, ready, signal) {
  await settle();
  const started = performance.now();
  const { child, line } = await firstLine(args);
  await page.goto(line);
  await ready(page);
  const ms = performance.now() - started;
  child.kill(signal);
  return ms;
}

/** Command to ready page, svc dev vs a bare server, in Chromium. */
export async function benchReady(executablePath) {
  devPackageLoaded();
  const { chromium } = await import('@playwright/test');
  const { buildPollsApp } = await load('examples/polls/build.mjs');
  await buildPollsApp({ api: 'http://127.0.0.1:9' });
  const launch = () => chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const browser = await launch();
  const floorBrowser = await launch();
  const bareScript = `require('node:http').createServer((q, s) => s.writeHead(200, {'content-type': 'text/html'}).end('<h1>ready</h1>')).listen(0, '127.0.0.1', function () { console.log('http://127.0.0.1:' + this.address().port + '/') })`;
  // The printed URL opens the app at start (its fragment, #app): no click.
  const dev = [resolve(root, 'dist/cli.js'), 'dev', 'examples/polls', '--port', '0'];
  const ours = [];
  const raw = [];
  const framed = [];
  const heading = (page) => page.waitForSelector('h1');
  // Ready: the app's first bridge call (svc.ui.setTitle('Polls')) has reached the messenger.
  const appTitled = (page) =>
    page.waitForFunction(() => document.querySelector('[data-testid=app-title]')?.textContent === 'Polls');
  for (let i = 0; i < (quick ? 1 : 5); i++) {
    const page = await browser.newPage();
    raw.push(await timeLoad(page, ['-e', bareScript], heading));
    ours.push(await timeLoad(page, dev, appTitled, 'SIGINT'));
    // The framed floor in a browser of its own: a frame of another site leaves renderer processes behind (the site's,
    // a spare) that would make svc dev's app start sooner, or the floor's, whichever came second.
    const floorPage = await floorBrowser.newPage();
    framed.push(await timeLoad(floorPage, ['-e', framedScript], heading));
    await floorPage.close();
    await page.close();
  }
  await Promise.all([browser.close(), floorBrowser.close()]);
  return { ours: median(ours), raw: median(raw), framed: median(framed) };
}

/**
 * The framed floor's server script: the page (on 127.0.0.1) frames a page on localhost, another site as svc dev's
 * package is, which says hello to the page's exact origin; the page shows its heading when the hello arrives.
 */
const framedScript = `const http = require('node:http');
const html = (body) => (q, s) => s.writeHead(200, { 'content-type': 'text/html' }).end(body);
const app = http.createServer(html('<p>app</p><script>parent.postMessage("hello", new URLSearchParams(location.search).get("host"))</script>'));
app.listen(0, '127.0.0.1', () => {
  const appOrigin = 'http://localhost:' + app.address().port;
  const page = http.createServer((q, s) => {
    const host = 'http://127.0.0.1:' + page.address().port;
    html('<p>messenger</p><script>addEventListener("message", (e) => { if (e.origin === "' + appOrigin + '") document.body.append(Object.assign(document.createElement("h1"), { textContent: "ready" })) }); const f = document.createElement("iframe"); f.src = "' + appOrigin + '/?host=' + encodeURIComponent(host) + '"; document.body.append(f)</script>')(q, s);
  });
  page.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + page.address().port + '/'));
});`;

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const api = await benchServerApi();
  console.log(
    `server API answers/s: svc dev ${api.ours.toFixed(0)}, bare node:http ${api.raw.toFixed(0)} (bare/svc ${(api.raw / api.ours).toFixed(2)}x)`,
  );
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(chromium)) console.log(`command to ready page: SKIPPED (no Chromium at ${chromium})`);
  else {
    const ready = await benchReady(chromium);
    console.log(
      `command to ready page: svc dev ${ready.ours.toFixed(0)} ms, bare server ${ready.raw.toFixed(0)} ms (${(ready.ours / ready.raw).toFixed(2)}x), bare server framing another site ${ready.framed.toFixed(0)} ms (${(ready.ours / ready.framed).toFixed(2)}x)`,
    );
  }
}
