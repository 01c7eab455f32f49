// `svc publish` when the svc dev it finds does not answer: the discovery file names a running process (this one) and
// a port nothing listens on, as after a crash of the server alone. The shipping flow itself, accepted and refused
// uploads, is in ship.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { formatDevEvent, startDevPlatform } from '../../src/dev';
import { listStoreDiscoveries, writeStoreDiscovery } from '../../src/dev/platform/store/storeDiscovery';
import { localDiscoveryFolder } from '../../src/dev/localDiscovery';
import { writeAppDir } from '../dev/appDir';
import { readPackage } from '../../src/package';
import { runSvc } from './runInProcess';

let state: string;
beforeEach(() => {
  state = mkdtempSync(join(tmpdir(), 'svc-publish-state-'));
  process.env.SVC_STATE_DIR = state;
});
afterEach(() => {
  delete process.env.SVC_STATE_DIR;
});

it('says which error it got and what to check when the store does not answer', async () => {
  const closed = createServer();
  await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((ok) => closed.close(() => ok()));
  await writeStoreDiscovery({ url, token: 'publish-token-of-the-test', pid: process.pid });
  const dir = mkdtempSync(join(tmpdir(), 'svc-publish-'));
  writeFileSync(join(dir, 'app-1.0.0.swbn'), new Uint8Array(64));
  const run = await runSvc(['publish', 'app-1.0.0.swbn', '--to', url], dir);
  expect(run.code).toBe(2);
  expect(run.stderr).toBe(`svc publish: ${url} did not answer (ECONNREFUSED); is svc dev still running?\n`);
  expect(run.stderr).not.toContain('publish-token-of-the-test');
});

it('without --to and nothing on port 4310, finds the one svc dev running elsewhere, or names them when several run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-publish-'));
  writeFileSync(join(dir, 'app-1.0.0.swbn'), new Uint8Array(64));
  const none = await runSvc(['publish', 'app-1.0.0.swbn'], dir);
  expect(none.code).toBe(2);
  // Whether anything else listens on 4310 here is not this test's to know: either sentence says no store was found.
  expect(none.stderr).toMatch(
    /^svc publish: (no svc dev runs at http:\/\/127\.0\.0\.1:4310, and none left its publish token in|a server answers at http:\/\/127\.0\.0\.1:4310, but no svc dev there left its publish token)/,
  );

  // A store that answers: the svc dev this test plays, refusing the package as a store refuses a broken one.
  const answered: string[] = [];
  const store = createHttpServer((request, response) => {
    answered.push(`${request.method} ${request.url} ${request.headers.authorization}`);
    response.writeHead(422, { 'content-type': 'application/problem+json' });
    response.end(
      JSON.stringify({ title: 'Not a valid package', status: 422, detail: 'The package failed the check truncated' }),
    );
  });
  await new Promise<void>((ok) => store.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
  try {
    await writeStoreDiscovery({ url, token: 'token-of-the-only-one', pid: process.pid });
    const one = await runSvc(['publish', 'app-1.0.0.swbn'], dir);
    expect(one.stderr).toContain(
      `svc publish: no svc dev runs at http://127.0.0.1:4310; publishing to the one at ${url}\n`,
    );
    expect(answered).toEqual(['POST /__svc/store/packages Bearer token-of-the-only-one']);
    expect(one.code).toBe(1);

    await writeStoreDiscovery({ url: 'http://127.0.0.1:9', token: 'another', pid: process.pid });
    const two = await runSvc(['publish', 'app-1.0.0.swbn'], dir);
    expect(two.code).toBe(2);
    expect(two.stderr).toBe(
      `svc publish: no svc dev runs at http://127.0.0.1:4310, and 2 run elsewhere (${[url, 'http://127.0.0.1:9'].sort().join(', ')}); pass --to with the one that runs this app\n`,
    );
    expect(answered).toHaveLength(1);
  } finally {
    await new Promise<void>((ok) => store.close(() => ok()));
  }
});

it("with several svc dev running, publishes to the one that runs the package's app", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-publish-'));
  const bytes = readFileSync(join(import.meta.dirname, '../../vectors/package/valid.swbn'));
  writeFileSync(join(dir, 'app.swbn'), bytes);
  const { id } = readPackage(new Uint8Array(bytes));
  const answered: string[] = [];
  const store = createHttpServer((request, response) => {
    answered.push(`${request.method} ${request.url} ${request.headers.authorization}`);
    response.writeHead(201, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ id, version: '1.0.0', key_id: id }));
  });
  await new Promise<void>((ok) => store.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
  try {
    await writeStoreDiscovery({ url, token: 'token-of-this-app', pid: process.pid, mini_app_id: id });
    await writeStoreDiscovery({
      url: 'http://127.0.0.1:9',
      token: 'another',
      pid: process.pid,
      mini_app_id: 'f'.repeat(16),
    });
    const run = await runSvc(['publish', 'app.swbn'], dir);
    expect(run.stderr).toContain(
      `svc publish: no svc dev runs at http://127.0.0.1:4310; publishing to the one at ${url} that runs ${id}\n`,
    );
    expect(answered).toEqual(['POST /__svc/store/packages Bearer token-of-this-app']);
  } finally {
    await new Promise<void>((ok) => store.close(() => ok()));
  }
});

it('tells a port nothing listens on from a server that answers without having left its publish token here', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-publish-'));
  writeFileSync(join(dir, 'app-1.0.0.swbn'), new Uint8Array(64));
  const closed = createServer();
  await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
  const nothing = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((ok) => closed.close(() => ok()));
  // The folder it looked in is named: a svc dev of another SVC_STATE_DIR leaves its token elsewhere (week45 F9).
  expect((await runSvc(['publish', 'app-1.0.0.swbn', '--to', nothing], dir)).stderr).toBe(
    `svc publish: no svc dev runs at ${nothing}, and none left its publish token in ${resolve(localDiscoveryFolder())} (${process.env.SVC_STATE_DIR ? 'under SVC_STATE_DIR' : 'under ~/.svc-sdk, as SVC_STATE_DIR is not set'}: a svc dev started with another SVC_STATE_DIR leaves it under that one); start one (svc dev <file.swbn>), or pass --to <the URL it printed> with the SVC_STATE_DIR it was started with\n`,
  );
  // A svc dev started by another user, or with another SVC_STATE_DIR: it answers, and its token is not here.
  const other = createHttpServer((_request, response) => response.end('a messenger'));
  await new Promise<void>((ok) => other.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  try {
    const run = await runSvc(['publish', 'app-1.0.0.swbn', '--to', url], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `svc publish: a server answers at ${url}, but no svc dev there left its publish token in ${join(state, 'dev')}: run svc publish as the user, and with the SVC_STATE_DIR, that started svc dev, or upload the file in its messenger's Settings → Store\n`,
    );
  } finally {
    await new Promise<void>((ok) => other.close(() => ok()));
  }
});

it('removes the temporary file a killed svc dev was writing when it next writes one (an empty file, or one holding a token)', async () => {
  const gone = spawnSync(process.execPath, ['-e', '']).pid;
  mkdirSync(join(state, 'dev'), { recursive: true, mode: 0o700 });
  const left = join(state, 'dev', `store-4310.json.${gone}.0a1b2c3d.tmp`);
  const writing = join(state, 'dev', `store-4311.json.${process.pid}.0a1b2c3d.tmp`);
  writeFileSync(left, '');
  writeFileSync(writing, '');
  await writeStoreDiscovery({ url: 'http://127.0.0.1:9', token: 't', pid: process.pid });
  await expect.poll(() => existsSync(left)).toBe(false);
  // A live writer's is its own, being written.
  expect(existsSync(writing)).toBe(true);
});

it("a platform started as the starter's npm run dev starts it (startDevPlatform, --app-url) is found and published to", async () => {
  const platform = await startDevPlatform({ dir: await writeAppDir(), port: 0, appUrl: 'http://127.0.0.1:5173/' });
  try {
    // The same file `svc dev` leaves: where the store is, its token, this process, the app it runs.
    const found = await listStoreDiscoveries();
    expect(found.map((s) => [s.url, s.token, s.mini_app_id])).toEqual([
      [platform.origin, platform.publishToken, platform.miniAppId],
    ]);
    // Found without --to, and the token taken: the store reads the upload (no valid package here: 422, not 401).
    const dir = mkdtempSync(join(tmpdir(), 'svc-publish-'));
    writeFileSync(join(dir, 'app-1.0.0.swbn'), new Uint8Array(64));
    const run = await runSvc(['publish', 'app-1.0.0.swbn'], dir);
    expect(run.stderr).toContain(platform.origin);
    expect(run.stderr).not.toMatch(/publish token|401/);
    // With --app-url, an accepted version is recorded, not what the frame loads: the terminal says so.
    const line = formatDevEvent({
      type: 'store',
      version: '1.1.0',
      signers: ['k'],
      key_id: 'k',
      app_url: 'http://127.0.0.1:5173/',
    });
    expect(line).toContain(
      "installed, but the app's frame still loads http://127.0.0.1:5173/ (--app-url, your dev server)",
    );
  } finally {
    await platform.close();
  }
  expect(await listStoreDiscoveries()).toEqual([]);
});
