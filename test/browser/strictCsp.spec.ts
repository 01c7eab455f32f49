// The entries a page may load, bundled as an app or a host bundles them and served under `script-src 'self'` (no
// 'unsafe-eval'), in Chromium: which of them make the browser report a blocked eval. The client and host/core never
// do. svc-sdk/host validates manifests with zod, which probes `new Function` once when its schemas are built: the
// browser blocks it and reports it (zod then parses without it), unless the page set zod's `jitless` first, as
// docs/hosts.md says.
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '../..');

/** Bundles `files['entry.js']` in a project of its own (outside this package, whose `sideEffects` would apply). */
async function bundle(files: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-csp-'));
  try {
    writeFileSync(join(dir, 'package.json'), '{"name":"page","private":true,"type":"module"}');
    mkdirSync(join(dir, 'node_modules/@noble'), { recursive: true });
    symlinkSync(root, join(dir, 'node_modules/svc-sdk'));
    for (const name of ['zod', '@cfworker', '@noble/hashes'])
      symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const result = await build({
      entryPoints: [join(dir, 'entry.js')],
      bundle: true,
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    return result.outputFiles[0]!.text;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let server: Server;
let script = '';
test.beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/page.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': "script-src 'self'" });
    res.end('<!doctype html><script type="module" src="/page.js"></script>');
  }).listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
});
test.afterAll(() => new Promise<void>((done) => server.close(() => done())));

const jitless = "import * as z from 'zod';\nz.config({ jitless: true });\n";
const cases: [string, Record<string, string>, string[]][] = [
  ['the client', { 'entry.js': "import { svc } from 'svc-sdk';\nwindow.loaded = typeof svc.room.current;" }, []],
  [
    'svc-sdk/host/core',
    { 'entry.js': "import { createHost } from 'svc-sdk/host/core';\nwindow.loaded = typeof createHost;" },
    [],
  ],
  [
    'svc-sdk/host, after a module that sets zod jitless',
    {
      'jitless.js': jitless,
      'entry.js':
        "import './jitless.js';\nimport { createHost } from 'svc-sdk/host';\nwindow.loaded = typeof createHost;",
    },
    [],
  ],
  [
    'svc-sdk/host alone (zod probes eval once)',
    { 'entry.js': "import { createHost } from 'svc-sdk/host';\nwindow.loaded = typeof createHost;" },
    ['script-src eval'],
  ],
];

for (const [name, files, expected] of cases)
  test(`${name}: loads under script-src 'self' and the browser reports ${expected.length ? expected.join(', ') : 'nothing'}`, async ({
    page,
  }) => {
    script = await bundle(files);
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { violations: string[] }).violations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
    await page.waitForFunction(() => (window as unknown as { loaded?: string }).loaded === 'function');
    // A violation event is queued as a task: one more frame lets any of them arrive.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50))));
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual(expected);
  });
