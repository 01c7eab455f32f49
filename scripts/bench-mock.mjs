// Measures what the mock host costs a test suite (against the built dist: run `npx tsup` first):
// creating a host, one call round trip, and whole create + call + close cycles, next to raw baselines measured
// in the same process (a bare in-memory pair round trip, and the real client on createHost without the mock).
// Usage: node scripts/bench-mock.mjs [--quick]
import { readFileSync } from 'node:fs';
import { createHost, createMemoryPair } from '../dist/host.js';
import { createSvc } from '../dist/index.js';
import { createMockHost } from '../dist/mock.js';

const manifest = JSON.parse(readFileSync(new URL('../examples/polls/manifest.json', import.meta.url), 'utf8'));
const scale = process.argv.includes('--quick') ? 0.1 : 1;

async function measure(label, n, fn) {
  n = Math.max(10, Math.round(n * scale));
  for (let i = 0; i < Math.min(n, 200); i++) await fn(i); // warm-up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn(i);
  const us = Number(process.hrtime.bigint() - t0) / 1000 / n;
  return { label, n, 'µs/op': us.toFixed(1), 'ops/s': Math.round(1e6 / us).toLocaleString('en') };
}

const rows = [];

// Baseline 1: a frame to the other end of a bare createMemoryPair and back (structuredClone both ways).
{
  const [a, b] = createMemoryPair();
  b.listen((m) => b.send(m));
  let resolve;
  a.listen(() => resolve());
  rows.push(
    await measure(
      'baseline: memory pair round trip',
      20000,
      () =>
        new Promise((r) => {
          resolve = r;
          a.send({ svc: 1, id: 'x', method: 'm', params: {} });
        }),
    ),
  );
}

// Baseline 2: the real client against createHost with one trivial handler, no mock.
{
  const [appEnd, hostEnd] = createMemoryPair();
  const host = createHost({
    handlers: { 'storage.get': () => 1 },
    app: { id: manifest.id, version: '1.0.0', locale: 'en', theme: 'light', launch_params: {} },
    transport: hostEnd,
  });
  const { svc } = createSvc({ transport: appEnd, snapshot: host.snapshot });
  rows.push(await measure('baseline: client + createHost call', 20000, () => svc.storage.get('k')));
  host.close();
}

// The mock: a call on a live host (no scope, then one behind a granted scope).
{
  const host = createMockHost({ manifest, permissions: { 'room.context': 'granted' } });
  rows.push(await measure('mock: storage.get round trip', 20000, () => host.svc.storage.get('k')));
  rows.push(await measure('mock: room.current (scope checked)', 20000, () => host.svc.room.current()));
  rows.push(await measure('mock: getToken (mints a JWT)', 5000, () => host.svc.auth.getToken()));
  host.svc.actions.handle('create_poll', () => ({ poll_id: 'p' }));
  rows.push(
    await measure('mock: invokeAction (schema checked)', 5000, () =>
      host.invokeAction('create_poll', { question: 'Lunch?', options: ['a', 'b'] }),
    ),
  );
  host.close();
}

// The mock: creating a host (manifest validated each time), and the cycle a typical test does.
rows.push(await measure('mock: createMockHost', 2000, () => createMockHost({ manifest }).close()));
rows.push(
  await measure('mock: create + 1 call + close (a test)', 2000, async () => {
    const host = createMockHost({ manifest });
    await host.svc.storage.get('k');
    host.close();
  }),
);

console.log(
  `svc-sdk/mock bench, Node ${process.version}, ${process.platform}/${process.arch}${scale < 1 ? ' (quick)' : ''}`,
);
console.table(rows);
const cycle = Number(rows.at(-1)['µs/op']);
console.log(
  `1000 tests that each create a host and make one call spend about ${((cycle * 1000) / 1000).toFixed(0)} ms in the mock.`,
);
