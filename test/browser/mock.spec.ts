// svc-sdk/mock inside Chromium: the built dist/mock.js, loaded as an ES module by a page served over loopback HTTP,
// and bundled into a Web Worker, runs its rules (storage, permissions, actions, a Web Crypto signed token) with no
// Node APIs.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { build } from 'esbuild';
import { exchangeManifest } from '../mock/fixtures';

const root = resolve(import.meta.dirname, '../..');
// The page resolves the mock's dependencies as a bundler would, through an import map onto node_modules.
const importMap = {
  imports: {
    // Subpaths map onto the package's ESM files; the server adds the `.js` an exports map would.
    '@noble/hashes/': '/node_modules/@noble/hashes/esm/',
    '@cfworker/json-schema': '/node_modules/@cfworker/json-schema/dist/esm/index.js',
    zod: '/node_modules/zod/index.js',
  },
};
const page = `<!doctype html><title>mock</title><script type="importmap">${JSON.stringify(importMap)}</script>`;
let server: Server;
let base = '';
let bundle = '';

/** The scenario, run in the page and in the worker: it imports the mock from `url` and reports what it saw. */
async function scenario({ url, manifest }: { url: string; manifest: unknown }) {
  const { createMockHost, isSvcError } = await import(url);
  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'resolved',
      (e: unknown) => (isSvcError(e) ? (e as { code: string }).code : String(e)),
    );
  let prompts = 0;
  const host = createMockHost({
    manifest,
    answers: {
      permission: () => {
        prompts += 1;
        return 'granted';
      },
      confirmAction: () => true,
    },
  });
  await host.svc.storage.set('k', { a: [1] });
  const stored = await host.svc.storage.get('k');
  const quota = await code(host.svc.storage.set('big', 'x'.repeat(300 * 1024)));
  const first = await host.svc.permissions.request('room.context');
  const again = await host.svc.permissions.request('room.context');
  const undeclared = await code(host.svc.permissions.request('identity.email'));
  host.svc.actions.handle('close_poll', (_i: unknown, c: { confirmed: boolean }) => c.confirmed);
  const badInput = await code(host.invokeAction('close_poll', {}));
  const confirmed = await host.invokeAction('close_poll', { poll_id: 'p1' });
  const token = (await host.svc.auth.getToken()).access_token.split('.').length;
  host.close();
  return { stored, quota, first, again, prompts, undeclared, badInput, confirmed, token };
}

const expected = {
  stored: { a: [1] },
  quota: 'ERR_QUOTA_EXCEEDED',
  first: 'granted',
  again: 'granted',
  prompts: 1,
  undeclared: 'ERR_SCOPE_NOT_DECLARED',
  badInput: 'ERR_ACTION_INVALID_INPUT',
  confirmed: true,
  token: 3,
};

test.beforeAll(async () => {
  // Workers do not read the page's import map: for the worker the mock is bundled, as an app's bundler would.
  const out = await build({
    entryPoints: [join(root, 'dist/mock.js')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  bundle = out.outputFiles[0]!.text;
  server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path == '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    if (path == '/bundle/mock.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    if (path == '/worker.js') {
      const worker = `const scenario = ${scenario};
        scenario({ url: '/bundle/mock.js', manifest: JSON.parse(new URL(location.href).searchParams.get('m')) })
          .then((ok) => postMessage({ ok, window: typeof window }), (e) => postMessage({ error: String(e) }));`;
      return res.writeHead(200, { 'content-type': 'text/javascript' }).end(worker);
    }
    const file = normalize(join(root, /\.[cm]?js$/.test(path) ? path : `${path}.js`));
    const served = ['/dist/', '/node_modules/'].some((dir) => path.startsWith(dir) && file.startsWith(join(root, dir)));
    if (!served) return res.writeHead(404).end();
    try {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(await readFile(file));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((done) => server.close(() => done())));

test('the built mock runs its rules in a page', async ({ page: tab }) => {
  const errors: string[] = [];
  tab.on('pageerror', (e) => errors.push(e.message));
  await tab.goto(`${base}/`);
  const result = await tab.evaluate(scenario, { url: `${base}/dist/mock.js`, manifest: exchangeManifest() });
  expect(result).toEqual(expected);
  expect(errors).toEqual([]);
});

test('the mock runs in a Web Worker (no window, no document), bundled as an app bundles it', async ({ page: tab }) => {
  await tab.goto(`${base}/`);
  const result = await tab.evaluate(
    (manifest) =>
      new Promise((resolve, reject) => {
        const worker = new Worker(`/worker.js?m=${encodeURIComponent(JSON.stringify(manifest))}`, { type: 'module' });
        worker.onmessage = (e) => resolve(e.data);
        worker.onerror = (e) => reject(new Error(e.message));
      }),
    exchangeManifest(),
  );
  expect(result).toEqual({ ok: expected, window: 'undefined' });
});
