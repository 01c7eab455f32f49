// The Node half of the benchmark: raw MessagePort echo, svc (dist/, real createSvc on real createHost), penpal and
// comlink, each over Node's MessageChannel, in interleaved rounds so that drift hits them all alike.
import { performance } from 'node:perf_hooks';
import * as Comlink from 'comlink';
import { connect, PortMessenger } from 'penpal';
import { createHost, portTransport } from '../../dist/host.js';
import { createSvc } from '../../dist/index.js';
import { measure, summarise } from './measure.js';

const app = { id: 'bench', version: '1', locale: 'en', theme: 'light', launch_params: {} };

/** Each setup returns { call, close } once its first call has been answered (that time is "ready"). */
export const setups = {
  async raw() {
    const { port1, port2 } = new MessageChannel();
    port2.onmessage = (e) => port2.postMessage(e.data);
    const pending = new Map();
    let seq = 0;
    port1.onmessage = (e) => {
      pending.get(e.data.id)(e.data);
      pending.delete(e.data.id);
    };
    const call = () =>
      new Promise((resolve) => {
        const id = String(seq++);
        pending.set(id, resolve);
        port1.postMessage({ svc: 1, id, method: 'storage.get', params: { key: 'k' } });
      });
    await call();
    return {
      call,
      close: () => {
        port1.close();
        port2.close();
      },
    };
  },
  async svc() {
    const { port1, port2 } = new MessageChannel();
    const host = createHost({ app, handlers: { 'storage.get': () => 'v' }, transport: portTransport(port2) });
    const client = createSvc({ transport: portTransport(port1) });
    const call = () => client.svc.storage.get('k');
    await call();
    return {
      call,
      close: () => {
        client.close();
        host.close();
      },
    };
  },
  async penpal() {
    const { port1, port2 } = new MessageChannel();
    const hostSide = connect({ messenger: new PortMessenger({ port: port2 }), methods: { get: () => 'v' } });
    const appSide = connect({ messenger: new PortMessenger({ port: port1 }), methods: {} });
    const remote = await appSide.promise;
    const call = () => remote.get('k');
    await call();
    return {
      call,
      close: () => {
        appSide.destroy();
        hostSide.destroy();
      },
    };
  },
  async comlink() {
    const { port1, port2 } = new MessageChannel();
    Comlink.expose({ get: () => 'v' }, port2);
    const remote = Comlink.wrap(port1);
    const call = () => remote.get('k');
    await call();
    return {
      call,
      close: () => {
        remote[Comlink.releaseProxy]();
        port1.close();
        port2.close();
      },
    };
  },
};

/** Runs every library `rounds` times, interleaved; returns rows { lib, median, p99, throughput, ready }. */
export async function benchNode({ rounds = 3, samples = 10000 } = {}) {
  const acc = Object.fromEntries(Object.keys(setups).map((k) => [k, { lat: [], tp: [], ready: [] }]));
  for (let r = 0; r < rounds; r++) {
    for (const [lib, setup] of Object.entries(setups)) {
      const t0 = performance.now();
      const s = await setup();
      acc[lib].ready.push((performance.now() - t0) * 1000);
      const m = await measure(s.call, { samples, warmup: r === 0 ? 5000 : 1000 });
      acc[lib].lat.push(...m.lat);
      acc[lib].tp.push(m.throughput);
      s.close();
    }
  }
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  return Object.entries(acc).map(([lib, a]) => ({
    lib,
    ...summarise(a.lat),
    throughput: median(a.tp),
    ready: median(a.ready),
  }));
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchNode({ rounds: 1, samples: 5000 }));
