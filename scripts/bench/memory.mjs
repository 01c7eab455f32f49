// Run with `node --expose-gc`: retained heap before and after 100,000 svc calls (100 in flight), client and host
// over a Node MessageChannel. Prints one JSON line.
import { createHost, portTransport } from '../../dist/host.js';
import { createSvc } from '../../dist/index.js';

const N = Number(process.argv[2] || 100_000);
const { port1, port2 } = new MessageChannel();
const host = createHost({
  app: { id: 'm', version: '1', locale: 'en', theme: 'light', launch_params: {} },
  handlers: { 'storage.get': () => 'v' },
  transport: portTransport(port2),
});
const { svc, close } = createSvc({ transport: portTransport(port1) });
const run = async (n) => {
  for (let i = 0; i < n; i += 100) await Promise.all(Array.from({ length: 100 }, () => svc.storage.get('k')));
};
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 20));
    global.gc();
  }
  return process.memoryUsage().heapUsed;
};
await run(10_000); // warm-up: JIT, inline caches
const before = await settle();
const t0 = performance.now();
await run(N);
const seconds = (performance.now() - t0) / 1000;
const after = await settle();
console.log(JSON.stringify({ calls: N, before, after, growth: after - before, seconds }));
close();
host.close();
