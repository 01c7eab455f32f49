// Property-based: thousands of random and malformed frames thrown at one endpoint. Nothing throws into the caller,
// nothing rejects unhandled, no pending call is settled by a frame that is not its answer, no prototype is polluted,
// and every timer (the endpoint's timeout sweeper) is gone at the end.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEndpoint, type InboundHandler } from '../../src/rpc/createEndpoint';
import { portTransport } from '../../src/rpc/portTransport';
import type { Transport } from '../../src/rpc/Transport';
import { hostileFrame, materialize, guardAgainstLeaks } from './arbitraries';

guardAgainstLeaks();
afterEach(() => void vi.useRealTimers());

const flush = () => new Promise((r) => setImmediate(r));

/** A transport the test drives by hand: what the endpoint sends is structured-cloned (like postMessage) and kept. */
function driven() {
  let receive: (m: unknown) => void = () => {};
  const sent: any[] = [];
  const t: Transport & { sent: any[]; deliver(m: unknown): void; closed: boolean } = {
    sent,
    closed: false,
    send: (m) => void sent.push(structuredClone(m)),
    listen: (r) => {
      receive = r;
    },
    close: () => {
      t.closed = true;
    },
    deliver: (m) => receive(m),
  };
  return t;
}

const handlers = new Map<string, InboundHandler>([
  ['ok', (p) => p],
  [
    'throws',
    () => {
      throw new Error('boom');
    },
  ],
  [
    'rejects',
    async () => {
      throw Object.assign(new Error('no'), { code: 'ERR_X', stack: 'secret stack' });
    },
  ],
  ['unclonable', () => () => {}],
]);

/** A promise's state, readable synchronously. */
function track<T>(p: Promise<T>) {
  const s: { state: 'pending' | 'resolved' | 'rejected'; value?: unknown } = { state: 'pending' };
  p.then(
    (v) => Object.assign(s, { state: 'resolved', value: v }),
    (e) => Object.assign(s, { state: 'rejected', value: e }),
  );
  return s;
}

describe('an endpoint under hostile frames', () => {
  it('settles a pending call only with its own answer; its own answers are well-formed and carry no stack', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    await fc.assert(
      fc.asyncProperty(fc.array(hostileFrame, { maxLength: 25 }), async (frames) => {
        const t = driven();
        const ep = createEndpoint(t, handlers, 60_000);
        const calls = [0, 1, 2].map((i) => track(ep.call(`m${i}`, { i })));
        await flush();
        const ids = t.sent.map((f) => f.id as string);
        expect(ids).toHaveLength(3);
        for (const f of frames) expect(() => t.deliver(materialize(f, ids))).not.toThrow();
        await flush();
        await flush();
        expect(calls.map((c) => c.state)).toEqual(['pending', 'pending', 'pending']);
        // Every answer the endpoint sent back is a well-formed frame: a result, or an error of whitelisted fields.
        for (const a of t.sent.slice(3)) {
          if (a.method === 'rpc.close') continue;
          expect(typeof a.id).toBe('string');
          if (Object.hasOwn(a, 'error')) {
            expect(Object.keys(a.error).sort()).toEqual(['code', 'message', 'retriable']);
            expect(JSON.stringify(a.error)).not.toContain('secret stack');
          }
        }
        // The real answers settle exactly their calls; late duplicates are dropped.
        ids.forEach((id, i) => t.deliver({ svc: 1, id, result: `answer ${i}` }));
        ids.forEach((id) => t.deliver({ svc: 1, id, result: 'duplicate' }));
        await flush();
        expect(calls.map((c) => c.value)).toEqual(['answer 0', 'answer 1', 'answer 2']);
        ep.close();
        if (!t.closed) await flush();
        expect(t.closed).toBe(true);
        expect(vi.getTimerCount()).toBe(0);
      }),
      { numRuns: 1500 },
    );
  });

  it('a close from the peer rejects every pending call ERR_DISCONNECTED and leaves no timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 20 }), fc.array(hostileFrame, { maxLength: 5 }), async (n, after) => {
        const t = driven();
        const ep = createEndpoint(t, handlers, 60_000);
        const calls = Array.from({ length: n }, (_, i) => track(ep.call('m', i)));
        await flush();
        t.deliver({ svc: 1, method: 'rpc.close', params: {} });
        for (const f of after)
          expect(() =>
            t.deliver(
              materialize(
                f,
                t.sent.filter((s) => s.id !== undefined).map((s) => s.id),
              ),
            ),
          ).not.toThrow();
        await flush();
        expect(
          calls.every(
            (c) => c.state === 'rejected' && (c.value as any).code === 'ERR_DISCONNECTED' && (c.value as any).retriable,
          ),
        ).toBe(true);
        expect(ep.closed).toBe(true);
        expect(vi.getTimerCount()).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('over a real Node MessageChannel (real structured clone), hostile frames neither throw nor settle calls', async () => {
    // Polled every millisecond: a port delivers within a task or two, and the property runs 200 times.
    const soon = { interval: 1, timeout: 5_000 };
    await fc.assert(
      fc.asyncProperty(fc.array(hostileFrame, { maxLength: 15 }), async (frames) => {
        const { port1, port2 } = new MessageChannel();
        const ep = createEndpoint(portTransport(port1 as any), handlers, 60_000);
        const requests: any[] = [];
        port2.onmessage = (e) => void requests.push(e.data);
        const calls = [track(ep.call('a', 1)), track(ep.call('b', 2))];
        await vi.waitFor(() => expect(requests.filter((r) => r.method)).toHaveLength(2), soon);
        const ids = requests.filter((r) => r.method).map((r) => r.id);
        for (const f of frames) {
          try {
            port2.postMessage(materialize(f, ids));
          } catch {
            // Values that cannot be posted at all never reach the endpoint.
          }
        }
        // A port delivers in order: once the endpoint answered a probe sent after them, it has seen every frame.
        port2.postMessage({ svc: 1, id: 'after-the-frames', method: 'rpc.ping', params: {} });
        await vi.waitFor(() => expect(requests.some((r) => r?.id === 'after-the-frames')).toBe(true), soon);
        expect(calls.map((c) => c.state)).toEqual(['pending', 'pending']);
        ids.forEach((id, i) => port2.postMessage({ svc: 1, id, result: i }));
        await vi.waitFor(() => expect(calls.map((c) => c.value)).toEqual([0, 1]), soon);
        ep.close();
        port2.close();
      }),
      { numRuns: 200 },
    );
  });
});
