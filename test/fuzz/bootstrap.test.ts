// Property-based: random window messages thrown at both sides of the bootstrap. The app adopts a port only from a
// welcome of its parent window, at the host's exact origin, with its nonce; the host sends a port only for a hello
// of its iframe's window at the app's exact origin, and only to that origin. Listeners are removed afterwards.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connect } from '../../src/client/connect';
import { attachIframe } from '../../src/host/attachIframe';
import type { HostEndpoint } from '../../src/host/types';
import { value } from './arbitraries';

const HOST = 'https://host.example';
const APP = 'https://app.example';
const origins = fc.constantFrom(
  HOST,
  APP,
  'https://host.example.evil',
  'https://HOST.example',
  'http://host.example',
  `${HOST}/`,
  'null',
  '',
  '*',
);

/** A fake window: counts its message listeners and lets the test dispatch events to them. */
function fakeWindow(parent?: unknown) {
  const listeners = new Set<(e: any) => void>();
  const w: any = {
    parent,
    location: {},
    addEventListener: (_t: string, fn: (e: any) => void) => void listeners.add(fn),
    removeEventListener: (_t: string, fn: (e: any) => void) => void listeners.delete(fn),
    dispatch: (e: unknown) => [...listeners].forEach((fn) => fn(e)),
    listeners,
  };
  return w;
}

afterEach(() => {
  delete (globalThis as any).window;
  vi.useRealTimers();
});

describe("the app's side of the bootstrap", () => {
  it('ignores a welcome whose fields are objects, without throwing, and adopts the exact one after it', async () => {
    // Found by the property below: structured clone keeps String and Number objects, and a loose comparison converts
    // them (or throws, for an object whose toString is not a function).
    const posted: any[] = [];
    const parent = { postMessage: (m: any) => void posted.push(m) };
    const win = fakeWindow(parent);
    (globalThis as any).window = win;
    const connected = connect(HOST, 3000, [HOST]);
    const { nonce } = posted[0];
    const { port1, port2 } = new MessageChannel();
    const welcome = (data: object) => () => win.dispatch({ source: parent, origin: HOST, data, ports: [port2] });
    for (const data of [
      { svc: { toString: new String('') }, wire: 1, nonce },
      { svc: new String('welcome'), wire: 1, nonce },
      { svc: 'welcome', wire: new Number(1), nonce },
      { svc: 'welcome', wire: 1, nonce: new String(nonce) },
      { svc: 'welcome', wire: { valueOf: 1 }, nonce },
    ])
      expect(welcome(data)).not.toThrow();
    expect(win.listeners.size).toBe(1);
    welcome({ svc: 'welcome', wire: 1, nonce })();
    const [transport] = await connected;
    expect(transport).toBeDefined();
    expect(win.listeners.size).toBe(0);
    port1.close();
    port2.close();
  });

  it('adopts only the exact welcome, ignores every near miss, and removes its listener', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const sources = ['parent', 'sibling', 'self', 'top', null] as const;
    const event = fc.record({
      source: fc.constantFrom(...sources),
      origin: origins,
      data: fc.oneof(
        value,
        fc.record(
          {
            svc: fc.constantFrom('welcome', 'hello', 1, 'Welcome'),
            wire: fc.constantFrom(1, 2, 0),
            nonce: fc.oneof(fc.constant('$nonce'), fc.string({ maxLength: 4 })),
          },
          { requiredKeys: [] },
        ),
      ),
      port: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 20 }), async (events) => {
        const posted: any[] = [];
        const parent = { postMessage: (m: any, o: string) => void posted.push([m, o]) };
        const win = fakeWindow(parent);
        (globalThis as any).window = win;
        const other = { postMessage() {} };
        let adopted = false;
        const p = connect(HOST, 3000, [HOST]).then(
          () => (adopted = true),
          (e) => e,
        );
        expect(posted).toHaveLength(1);
        const [hello, target] = posted[0];
        expect(target).toBe(HOST);
        const source = { parent, sibling: other, self: win, top: other, null: null };
        let exact = false;
        for (const e of events) {
          const data =
            e.data && typeof e.data === 'object' && (e.data as any).nonce === '$nonce'
              ? { ...(e.data as object), nonce: hello.nonce }
              : e.data;
          // Delivered as a browser delivers it: postMessage structured-clones the data, so what arrives never has
          // a null prototype or functions (the generator makes such values; a clone turns them into plain data).
          let delivered: unknown;
          try {
            delivered = structuredClone(data);
          } catch {
            continue; // not sendable at all: a browser would have thrown at postMessage, delivering nothing
          }
          const ports = e.port ? [new MessageChannel().port1] : [];
          const d: any = delivered;
          exact ||=
            e.source === 'parent' &&
            e.origin === HOST &&
            !!d &&
            typeof d === 'object' &&
            !Array.isArray(d) &&
            d.svc === 'welcome' &&
            d.wire === 1 &&
            d.nonce === hello.nonce &&
            e.port;
          expect(() =>
            win.dispatch({
              source: source[String(e.source) as keyof typeof source],
              origin: e.origin,
              data: delivered,
              ports,
            }),
          ).not.toThrow();
          for (const port of ports) port.close();
        }
        await Promise.resolve();
        await Promise.resolve();
        expect(adopted).toBe(exact);
        if (!exact) {
          vi.advanceTimersByTime(3000);
          expect((await p).code).toBe('ERR_HOST_UNREACHABLE');
        }
        expect(win.listeners.size).toBe(0);
        expect(vi.getTimerCount()).toBe(0);
      }),
      { numRuns: 1500 },
    );
  });
});

describe("the host's side of the bootstrap", () => {
  it('sends a port only for a hello from its iframe at the app origin, and only to that origin', () => {
    const event = fc.record({
      fromFrame: fc.boolean(),
      origin: origins,
      data: fc.oneof(
        value,
        fc.record(
          {
            svc: fc.constantFrom('hello', 'welcome', 1),
            wire: fc.constantFrom(1, 2),
            nonce: fc.oneof(fc.string({ maxLength: 6 }), value),
          },
          { requiredKeys: [] },
        ),
      ),
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 20 }), (events) => {
        const win = fakeWindow();
        const posted: [unknown, string, unknown[]][] = [];
        const contentWindow = { postMessage: (m: unknown, o: string, t: unknown[]) => void posted.push([m, o, t]) };
        const stranger = { postMessage: () => expect.unreachable('a port was offered to another window') };
        let attached = 0;
        const host = { attach: () => void attached++, snapshot: {} } as unknown as HostEndpoint;
        const stop = attachIframe(host, { contentWindow } as HTMLIFrameElement, APP, win);
        let expected = 0;
        let last: unknown;
        for (const e of events) {
          const d: any = e.data;
          if (
            e.fromFrame &&
            e.origin === APP &&
            d &&
            typeof d === 'object' &&
            !Array.isArray(d) &&
            [Object.prototype, null].includes(Object.getPrototypeOf(d)) &&
            d.svc === 'hello' &&
            d.wire === 1 &&
            typeof d.nonce === 'string' &&
            d.nonce !== last
          ) {
            expected++;
            last = d.nonce;
          }
          expect(() =>
            win.dispatch({ source: e.fromFrame ? contentWindow : stranger, origin: e.origin, data: e.data }),
          ).not.toThrow();
        }
        expect(attached).toBe(expected);
        expect(posted).toHaveLength(expected);
        for (const [m, o, t] of posted) {
          expect(o).toBe(APP);
          expect((m as any).svc).toBe('welcome');
          expect(t).toHaveLength(1);
          (t[0] as MessagePort).close();
        }
        stop();
        expect(win.listeners.size).toBe(0);
      }),
      { numRuns: 1500 },
    );
  });
});
