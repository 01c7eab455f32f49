// `svc publish` when the svc dev it finds does not answer: the discovery file names a running process (this one) and
// a port nothing listens on, as after a crash of the server alone. The shipping flow itself, accepted and refused
// uploads, is in ship.test.ts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { writeStoreDiscovery } from '../../src/dev/platform/store/storeDiscovery';
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
