// Webhook deliveries kept in a state file, from an outside soak check: a backend often down made svc dev keep
// every delivery and every attempt, so the state file, the page and the time each change takes grew without end.
// A start keeps every pending delivery and the latest finished ones (LIMITS.finishedDeliveries).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { startDevPlatform } from '../../src/dev';
import { LIMITS } from '../../src/dev/limits';
import { writeAppDir } from './appDir';

it('a start keeps the pending deliveries and the latest finished ones, in their order', async () => {
  let up = true;
  const backend = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(up ? 200 : 503).end());
  });
  await new Promise<void>((ok) => backend.listen(0, '127.0.0.1', ok));
  onTestFinished(() => new Promise<void>((ok) => backend.close(() => ok())));
  const webhooks = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/hooks`;
  const dir = await writeAppDir();
  const statePath = join(await mkdtemp(join(tmpdir(), 'svc-kept-')), 'state.json');
  // A long retry delay: the deliveries the backend refuses stay pending until the platform stops.
  const options = { dir, port: 0, mcp: false, webhooks, statePath, retryScale: 1000 };
  const first = await startDevPlatform(options);
  const finished = LIMITS.finishedDeliveries + 20;
  for (let i = 0; i < finished; i++) await (i % 2 ? first.revoke('svc.room.context') : first.grant('svc.room.context'));
  await expect.poll(() => first.state.deliveries.filter((d) => d.state === 'delivered').length).toBe(finished);
  up = false;
  await first.grant('svc.files.read');
  await expect.poll(() => first.state.deliveries.at(-1)?.attempts.length).toBe(1);
  const ids = first.state.deliveries.map((d) => d.id);
  await first.close();

  const second = await startDevPlatform(options);
  onTestFinished(() => second.close());
  // The 20 oldest delivered ones are gone; the rest, and the pending one, are kept in order.
  expect(second.state.deliveries.map((d) => d.id)).toEqual(ids.slice(20));
  expect(second.state.deliveries.at(-1)?.state).toBe('pending');
});
