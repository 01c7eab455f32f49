// The native bridge in a real WebKit (WebKitGTK, the engine of Safari and iOS WKWebView): a WebView host that
// registers the `svc` script message handler and injects the snapshot and dist/native-adapter.js at document start
// (test/native/webkitHost.py), answering through `createHost` over `nativeTransport` relayed to this process, and
// through a host written from PROTOCOL.md alone (the Python program answering by itself).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type HostEndpoint } from '../../src/host/index';
import type { SvcError } from '../../src/index';
import { startServers } from '../browser/server.mjs';
import { type NativeHost, startNativeHost } from './startNativeHost';

const methods = ['identity.get', 'auth.state', 'storage.get', 'storage.set', 'files.save', 'ui.close'];
const snapshot = {
  bridge: '1.0',
  methods,
  app: { id: 'polls', version: '1.0.0', locale: 'en', theme: 'light', launch_params: {} },
};
// A stored value shaped like the adapter's own encodings, at several depths.
const lookalike = {
  top: { $blob: 'AAAA', type: 'text/plain' },
  list: [{ $blob: 'AQ', type: 'x' }, { $esc: { $blob: 'x' } }],
  $esc: 'not an escape',
};

let servers: Awaited<ReturnType<typeof startServers>>;
let app = '';
let evil = '';
beforeAll(async () => {
  servers = await startServers(2);
  app = `http://127.0.0.1:${servers.ports[0]}/fixtures/app-iife.html`;
  evil = `http://localhost:${servers.ports[1]}/fixtures/evil.html`;
});
afterAll(() => servers?.close());

/** Loads a third-party iframe into the app's page that posts `forged` through the WebView's `svc` handler. */
const forgeFromIframe = (native: NativeHost, forged: string) =>
  native.evaluate(
    (url) =>
      new Promise((loaded) => {
        const frame = document.createElement('iframe');
        frame.onload = loaded;
        frame.src = url;
        document.body.append(frame);
      }),
    `${evil}?${new URLSearchParams({ nativeForge: forged })}`,
  );

describe('createHost over nativeTransport, in WebKitGTK', () => {
  let native: NativeHost;
  let host: HostEndpoint;
  const seen: string[] = [];
  const kept = new Map<string, unknown>();

  beforeAll(async () => {
    native = await startNativeHost({ snapshot });
    host = createHost({
      transport: native.transport,
      app: snapshot.app as never,
      onCall: (call) => void seen.push(call.method),
      handlers: {
        'identity.get': () => ({ app_user_id: 'u-1', tenant_id: 't-1', locale: 'en', display_name: 'Ada' }),
        'auth.state': () => 'signed-in',
        'storage.get': ({ key }) => kept.get(key) as never,
        'storage.set': ({ key, value }) => void kept.set(key, value),
        // A host that answers a void operation with null: the app still gets undefined.
        'files.save': async ({ name, blob }) => ({ file_id: `${name}:${blob.size}:${await blob.text()}` }),
        'ui.close': () => {},
      },
    });
    await native.load(app);
  }, 60_000);
  afterAll(async () => {
    host?.close();
    await native?.stop();
  });
  afterEach(() => {
    seen.length = 0;
  });

  it('carries calls both ways as JSON strings, Blobs included, and keeps look-alikes as they were', async () => {
    const out = await native.evaluate(async (value) => {
      const { svc } = (window as any).sdk;
      const identity = await svc.identity.get();
      const set = await svc.storage.set('v', value);
      const got = await svc.storage.get('v');
      const missing = await svc.storage.get('none');
      const saved = await svc.files.save({ name: 'a.txt', blob: new Blob(['héllo'], { type: 'text/plain' }) });
      return { name: identity.display_name, set, got, missing, saved, errors: (window as any).__errors };
    }, lookalike);
    expect(out).toEqual({
      name: 'Ada',
      set: undefined,
      got: lookalike,
      missing: undefined,
      saved: { file_id: 'a.txt:6:héllo' },
      errors: [],
    });
    expect(kept.get('v')).toEqual(lookalike);
  });

  it('delivers frames in the order the app sent them: a Blob does not let what follows overtake it', async () => {
    const out = await native.evaluate(async () => {
      const { svc } = (window as any).sdk;
      const big = new Blob([new Uint8Array(3_000_000)]);
      const saved = svc.files.save({ name: 'big.bin', blob: big });
      svc.storage.set('after', 1); // not awaited
      const got = await svc.storage.get('after');
      svc.ui.close();
      await saved;
      return got;
    });
    expect(out).toBe(1);
    await expect
      .poll(() => seen.filter((m) => m !== 'actions.handlers'))
      .toEqual(['files.save', 'storage.set', 'storage.get', 'ui.close']);
  });

  it('recovers from a reload by itself: pending invocations fail, the new page is served by the same host', async () => {
    await native.evaluate(() => {
      (window as any).sdk.svc.actions.handle('slow', () => new Promise(() => {}));
    });
    await expect.poll(() => host.handledActions()).toEqual(['slow']);
    const pending = host.invokeAction('slow', {}, { invoked_by: 'user', confirmed: false }).catch((e: SvcError) => e);
    await native.reload();
    const out = await native.evaluate(async () => {
      const { svc } = (window as any).sdk;
      svc.actions.handle('quick', (input: { n: number }) => ({ twice: input.n * 2 }));
      return svc.auth.state();
    });
    expect(out).toBe('signed-in');
    const error = (await pending) as SvcError;
    expect([error.code, error.retriable]).toEqual(['ERR_DISCONNECTED', true]);
    await expect.poll(() => host.handledActions()).toEqual(['quick']);
    expect(await host.invokeAction('quick', { n: 21 }, { invoked_by: 'user', confirmed: false })).toEqual({
      twice: 42,
    });
  });

  it("refuses a frame a third-party iframe posts through the WebView's handler: only the app's top frame counts", async () => {
    const forged = JSON.stringify({
      svc: 1,
      id: 'forged-1',
      method: 'storage.set',
      params: { key: 'planted', value: 1 },
    });
    const from = native.events.length;
    await forgeFromIframe(native, forged);
    await native.next((e) => e.event === 'refused', from);
    expect(kept.has('planted')).toBe(false);
    // The channel is untouched.
    expect(await native.evaluate(() => (window as any).sdk.svc.auth.state())).toBe('signed-in');
  });
});

describe('without the top-frame check', () => {
  it("a third-party iframe's forged frame would be taken as the app's (why PROTOCOL.md requires the check)", async () => {
    const native = await startNativeHost({ snapshot, frameCheck: false });
    const kept = new Map<string, unknown>();
    const host = createHost({
      transport: native.transport,
      handlers: { 'storage.set': ({ key, value }) => void kept.set(key, value), 'auth.state': () => 'signed-in' },
    });
    try {
      await native.load(app);
      const forged = JSON.stringify({ svc: 1, id: 'f', method: 'storage.set', params: { key: 'planted', value: 1 } });
      await forgeFromIframe(native, forged);
      await expect.poll(() => kept.get('planted')).toBe(1);
    } finally {
      host.close();
      await native.stop();
    }
  });
});

describe('a host written from PROTOCOL.md alone (Python), in WebKitGTK', () => {
  let native: NativeHost;
  beforeAll(async () => {
    native = await startNativeHost({ snapshot, answer: true });
    await native.load(app);
  }, 60_000);
  afterAll(() => native?.stop());

  it('serves the SDK client: identity, storage with look-alikes, void results, Blobs, and errors', async () => {
    const out = await native.evaluate(async (value) => {
      const { svc } = (window as any).sdk;
      const settle = (p: Promise<unknown>) =>
        p.then(
          (v) => ({ ok: true, v }),
          (e) => ({
            ok: false,
            code: e.code,
            message: e.message,
            isSvcError: e instanceof Error && e.name === 'SvcError',
          }),
        );
      return {
        identity: await svc.identity.get(),
        set: await svc.storage.set('v', value),
        got: await svc.storage.get('v'),
        missing: await svc.storage.get('none'),
        saved: await svc.files.save({ name: 'n.bin', blob: new Blob([new Uint8Array([1, 2, 3])], { type: 'x/y' }) }),
        bad: await settle(svc.storage.get('')),
        unsupported: await settle(svc.ui.confirm({ title: 't', body: 'b' })),
        errors: (window as any).__errors,
      };
    }, lookalike);
    expect(out).toEqual({
      identity: { app_user_id: 'u-native', tenant_id: 't-1', locale: 'en', display_name: 'Ada' },
      set: undefined,
      got: lookalike,
      missing: undefined,
      saved: { file_id: 'native:n.bin:3:x/y' },
      bad: {
        ok: false,
        code: 'ERR_INVALID_ARGUMENT',
        message: 'svc.storage.get(): key must be a non-empty string.',
        isSvcError: true,
      },
      unsupported: {
        ok: false,
        code: 'ERR_UNSUPPORTED',
        message: 'svc.ui.confirm is not supported by this host.',
        isSvcError: true,
      },
      errors: [],
    });
    // The adapter said hello before the app's first frame.
    const frames = native.events.filter((e) => e.event === 'frame').map((e) => e.frame);
    expect(frames[0]).toEqual({ svc: 'hello', wire: 1, adapter: 2 });
  });
});
