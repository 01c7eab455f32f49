import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSvc, type JsonValue, type SvcError } from '../../src/index';
import {
  createHost,
  installNativePort,
  NATIVE_CONTRACT,
  NATIVE_PORT,
  NATIVE_RECEIVE,
  NATIVE_SECRET,
  nativeTransport,
} from '../../src/host/index';

const g = globalThis as any;
// The launch's secret, as a host sets it before the adapter runs: 32 random bytes as hex.
const secret = 'a3f1'.repeat(16);

/** What native code does with a message from the bridge: the frame's JSON when it carries the launch's secret. */
function unwrap(message: string): string | undefined {
  const envelope = JSON.parse(message);
  return envelope.secret === secret && typeof envelope.frame === 'string' ? envelope.frame : undefined;
}

/** The host's top-frame document-start script: the secret, then the adapter. */
function install() {
  g[NATIVE_SECRET] = secret;
  return installNativePort();
}

/**
 * Native code, simulated: the page's bridge hands JSON strings to a host that reads them with `nativeTransport`, as
 * a host relaying a WebView's messages to JavaScript does; the host answers by calling the page's __svc_receive.
 */
function nativeSide(kind: 'ios' | 'android') {
  const inbox: string[] = [];
  const hostScope: Record<string, any> = {};
  const bridge = {
    postMessage: (message: string) => {
      const json = unwrap(message);
      if (json === undefined) return;
      inbox.push(json);
      hostScope[NATIVE_RECEIVE]?.(json);
    },
  };
  if (kind === 'ios') g.webkit = { messageHandlers: { svc: bridge } };
  else g.svcAndroid = bridge;
  // The host's end: JSON both ways, as a WKWebView or an Android WebView carries it, delivered a task later.
  // The page is looked up when a frame is sent, so a frame sent by one test never reaches the next test's page.
  const transport = nativeTransport((json) => {
    const page = g[NATIVE_RECEIVE];
    setTimeout(() => page?.(json));
  }, hostScope);
  return { inbox, transport };
}

describe.each(['ios', 'android'] as const)('the native adapter (%s)', (kind) => {
  afterEach(() => {
    for (const key of ['webkit', 'svcAndroid', 'window', NATIVE_PORT, NATIVE_RECEIVE, NATIVE_SECRET, '__svc_launch'])
      delete g[key];
  });

  it('installs a port the client adopts, and carries calls as JSON strings', async () => {
    const native = nativeSide(kind);
    expect(install()).toBe(true);
    g.window = g;
    g.__svc_launch = {
      bridge: '1.0',
      methods: ['storage.get'],
      app: { id: 'abcdefabcdefabcd', version: '2.0.0', locale: 'ja', theme: 'dark', launch_params: {} },
    };
    const host = createHost({
      transport: native.transport,
      app: g.__svc_launch.app,
      handlers: { 'storage.get': ({ key }) => ({ key }) },
    });
    const { svc, close } = createSvc();
    expect(svc.app.locale).toBe('ja');
    expect(svc.supports('storage.get')).toBe(true);
    expect(await svc.storage.get('k')).toEqual({ key: 'k' });
    expect(native.inbox.every((json) => typeof json === 'string')).toBe(true);
    // The adapter says hello when the client opens its channel, before any frame of it.
    expect(JSON.parse(native.inbox[0]!)).toEqual({ svc: 'hello', wire: 1, adapter: NATIVE_CONTRACT });
    expect(native.inbox.map((json) => JSON.parse(json))).toContainEqual(
      expect.objectContaining({ method: 'storage.get', params: { key: 'k' } }),
    );
    close();
    host.close();
  });

  it('encodes Blobs as base64 for the bridge and decodes them on the way back', async () => {
    // Native code written by hand, as Swift or Kotlin would: answers from the JSON it gets.
    const frames: any[] = [];
    const bridge = {
      postMessage(message: string) {
        const frame = JSON.parse(unwrap(message)!);
        if (!frame.id) return; // the hello and notifications (rpc.close) want no answer
        frames.push(frame);
        const result =
          frame.method === 'files.pick'
            ? [
                {
                  file_id: 'p',
                  name: 'x.bin',
                  type: 'application/octet-stream',
                  size: 3,
                  blob: { $blob: 'AP8H', type: 'application/octet-stream' },
                },
              ]
            : { file_id: 'saved' };
        setTimeout(() => g[NATIVE_RECEIVE]?.(JSON.stringify({ svc: 1, id: frame.id, result })));
      },
    };
    if (kind === 'ios') g.webkit = { messageHandlers: { svc: bridge } };
    else g.svcAndroid = bridge;
    install();
    g.window = g;
    const { svc, close } = createSvc();
    expect(
      await svc.files.save({ name: 'a.png', blob: new Blob([new Uint8Array([1, 2, 250])], { type: 'image/png' }) }),
    ).toEqual({ file_id: 'saved' });
    expect(frames[0].params).toEqual({ name: 'a.png', blob: { $blob: 'AQL6', type: 'image/png' } });
    const [file] = await svc.files.pick();
    expect(file!.blob).toBeInstanceOf(Blob);
    expect(file!.blob.type).toBe('application/octet-stream');
    expect([...new Uint8Array(await file!.blob.arrayBuffer())]).toEqual([0, 255, 7]);
    close();
  });

  it('drops malformed JSON from the bridge without throwing into the page', async () => {
    nativeSide(kind);
    install();
    const received: unknown[] = [];
    g[NATIVE_PORT].onmessage = (event: { data: unknown }) => received.push(event.data);
    expect(() => g[NATIVE_RECEIVE]('{not json')).not.toThrow();
    expect(() => g[NATIVE_RECEIVE]('{"__proto__":{"polluted":true}}')).not.toThrow();
    expect(({} as any).polluted).toBeUndefined();
    expect(received).toHaveLength(1);
  });

  it('sends frames in the order they were posted, a Blob before what follows it', async () => {
    const native = nativeSide(kind);
    install();
    g.window = g;
    const host = createHost({
      transport: native.transport,
      handlers: { 'files.save': () => ({ file_id: 'f' }), 'storage.set': () => undefined, 'ui.close': () => {} },
    });
    const { svc, close } = createSvc({ snapshot: { methods: ['files.save', 'storage.set', 'ui.close'] } });
    const big = new Blob([new Uint8Array(2_000_000)]);
    const saved = svc.files.save({ name: 'big.bin', blob: big });
    const set = svc.storage.set('k', { deep: { deeper: [1, { x: 1 }] } });
    svc.ui.close();
    await Promise.all([saved, set]);
    await vi.waitFor(() => expect(native.inbox.length).toBeGreaterThanOrEqual(4));
    const methods = native.inbox.map((json) => JSON.parse(json).method ?? JSON.parse(json).svc);
    expect(methods.filter((m) => m !== 'actions.handlers').slice(0, 4)).toEqual([
      'hello',
      'files.save',
      'storage.set',
      'ui.close',
    ]);
    close();
    host.close();
  });

  it('carries a value shaped like an encoded Blob, or like an escape, back exactly as it was', async () => {
    const native = nativeSide(kind);
    install();
    g.window = g;
    const kept = new Map<string, unknown>();
    const host = createHost({
      transport: native.transport,
      handlers: {
        'storage.set': ({ key, value }) => void kept.set(key, value),
        'storage.get': ({ key }) => kept.get(key) as never,
      },
    });
    const { svc, close } = createSvc({ snapshot: { methods: ['storage.set', 'storage.get'] } });
    const lookalike: JsonValue = {
      top: { $blob: 'AAAA', type: 'text/plain' },
      list: [{ $blob: 'AQ', type: 'x' }, { $esc: { $blob: 'x' } }],
      $esc: 'not an escape',
    };
    await svc.storage.set('v', lookalike);
    expect(kept.get('v')).toEqual(lookalike);
    expect(await svc.storage.get('v')).toEqual(lookalike);
    close();
    host.close();
  });

  it('recovers from a reload by itself: the new page says hello, pending calls fail, the next ones work', async () => {
    const native = nativeSide(kind);
    install();
    g.window = g;
    const host = createHost({ transport: native.transport, handlers: { 'auth.state': () => 'signed-in' } });
    const first = createSvc({ snapshot: { methods: ['auth.state'] } });
    let started = false;
    first.svc.actions.handle('slow', () => {
      started = true;
      return new Promise(() => {});
    });
    expect(await first.svc.auth.state()).toBe('signed-in');
    const pending = host.invokeAction('slow', {}, { invoked_by: 'user', confirmed: false }).catch((e: SvcError) => e);
    await vi.waitFor(() => expect(started).toBe(true));
    // The page reloads: a new adapter and a new client on the same WebView, the host object unchanged.
    install();
    const second = createSvc({ snapshot: { methods: ['auth.state'] } });
    expect(await second.svc.auth.state()).toBe('signed-in');
    const error = await pending;
    expect([(error as SvcError).code, (error as SvcError).retriable]).toEqual(['ERR_DISCONNECTED', true]);
    second.svc.actions.handle('quick', () => ({ done: true }));
    await vi.waitFor(async () =>
      expect(await host.invokeAction('quick', {}, { invoked_by: 'user', confirmed: false })).toEqual({ done: true }),
    );
    first.close();
    second.close();
    host.close();
  });

  it('refuses an adapter of another contract version with a message that says what to ship', async () => {
    nativeSide(kind);
    install();
    g.window = g;
    g[NATIVE_PORT].version = 1;
    const { svc } = createSvc({ snapshot: { methods: ['auth.state'] } });
    const error = await svc.auth.state().catch((e) => e);
    expect(error.code).toBe('ERR_PROTOCOL');
    expect(error.message).toMatch(/native-adapter.js is contract 1; this svc-sdk needs 3/);
  });

  it('reports that there is no bridge when neither is present', () => {
    expect(installNativePort({})).toBe(false);
  });

  it('sends every frame inside {secret, frame}, and leaves the secret nowhere a later script can read it', async () => {
    const messages: string[] = [];
    const bridge = { postMessage: (message: string) => void messages.push(message) };
    if (kind === 'ios') g.webkit = { messageHandlers: { svc: bridge } };
    else g.svcAndroid = bridge;
    expect(install()).toBe(true);
    expect(NATIVE_SECRET in g).toBe(false);
    // The handler is out of the page's reach too: later scripts have `svc`.
    expect(kind === 'ios' ? g.webkit.messageHandlers.svc : g.svcAndroid).toBeUndefined();
    // A later script of the page replaces the handler's postMessage and JSON.stringify: neither sees a frame.
    const seen: unknown[] = [];
    bridge.postMessage = (message: string) => void seen.push(message);
    const realStringify = JSON.stringify;
    JSON.stringify = ((value: unknown, ...rest: []) => {
      seen.push(value);
      return realStringify(value, ...rest);
    }) as typeof JSON.stringify;
    try {
      await g[NATIVE_PORT].postMessage({ svc: 1, id: 'a', method: 'storage.get', params: { key: 'k' } });
    } finally {
      JSON.stringify = realStringify;
    }
    expect(seen.some((value) => realStringify(value).includes(secret))).toBe(false);
    expect(messages.map((message) => JSON.parse(message))).toEqual([
      { secret, frame: '{"svc":1,"id":"a","method":"storage.get","params":{"key":"k"}}' },
    ]);
    // The port the page can reach holds no copy of it.
    const port = g[NATIVE_PORT];
    expect(Object.getOwnPropertyNames(port).map((name) => String(port[name]))).not.toContainEqual(
      expect.stringContaining(secret),
    );
  });

  it.each([
    ['no secret', undefined],
    ['a short one', 'abc123'],
    ['one with characters a JSON string would escape', `${'a'.repeat(32)}"`],
    ['a number', 1234],
  ])('refuses to install with %s, naming the global to set and never echoing the value', (_, value) => {
    nativeSide(kind);
    g[NATIVE_SECRET] = value;
    const error = (() => {
      try {
        installNativePort();
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/Set globalThis.__svc_secret to 32 to 512 random characters/);
    if (typeof value === 'string') expect(error?.message).not.toContain(value);
    expect(NATIVE_PORT in g).toBe(false);
    expect(NATIVE_SECRET in g).toBe(false);
  });

  it('installs nothing in a child frame (Android injects into every frame of the origin) and drops its secret', () => {
    const bridge = { postMessage: () => {} };
    const frame: any = kind === 'ios' ? { webkit: { messageHandlers: { svc: bridge } } } : { svcAndroid: bridge };
    frame.top = {};
    frame[NATIVE_SECRET] = secret;
    expect(installNativePort(frame)).toBe(false);
    expect(frame).not.toHaveProperty(NATIVE_PORT);
    expect(frame).not.toHaveProperty(NATIVE_SECRET);
  });
});
