// The native bridge in a real WebKit (WebKitGTK, the engine of Safari and iOS WKWebView): a WebView host that
// registers the `svc` script message handler and injects the snapshot, a per-launch secret and
// dist/native-adapter.js at document start into the top frame only (test/native/webkitHost.py), answering through
// `createHost` over `nativeTransport` relayed to this process, and a second host written from PROTOCOL.md alone
// (test/native/protocolHost.py) that answers by itself. Both drop what a child frame forges.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type HostEndpoint } from '../../src/host/index';
import type { SvcError } from '../../src/index';
import { startServers } from '../browser/server.mjs';
import { exchangeManifest } from '../mock/fixtures';
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
let sameOriginEvil = '';
beforeAll(async () => {
  servers = await startServers(2);
  app = `http://127.0.0.1:${servers.ports[0]}/fixtures/app-iife.html`;
  evil = `http://localhost:${servers.ports[1]}/fixtures/evil.html`;
  sameOriginEvil = `http://127.0.0.1:${servers.ports[0]}/fixtures/evil.html`;
});
afterAll(() => servers?.close());

/**
 * Loads a child frame into the app's page that posts each of `messages` through its own `svc` handler: a
 * third-party page, or a `sandbox="allow-scripts"` page served from the app's own origin (an opaque origin).
 */
const forgeFromIframe = (native: NativeHost, messages: string[], frame: 'third-party' | 'sandboxed') =>
  native.evaluate(
    ({ url, sandboxed }) =>
      new Promise((loaded) => {
        const iframe = document.createElement('iframe');
        if (sandboxed) iframe.setAttribute('sandbox', 'allow-scripts');
        iframe.onload = () => loaded(true);
        iframe.src = url;
        document.body.append(iframe);
      }),
    {
      url: `${frame === 'sandboxed' ? sameOriginEvil : evil}?${new URLSearchParams(messages.map((m) => ['nativeForge', m]))}`,
      sandboxed: frame === 'sandboxed',
    },
  );

// What a frame without the launch's secret can post, for each forged frame: the bare frame, an envelope without a
// secret, and one with a guessed secret of the right shape.
const forgeries = (...frames: object[]) =>
  frames.flatMap((frame) => {
    const json = JSON.stringify(frame);
    return [json, JSON.stringify({ frame: json }), JSON.stringify({ secret: 'f'.repeat(64), frame: json })];
  });
// Planting a storage key, and replacing the app's handler list with an empty one.
const planted = { svc: 1, id: 'forged-1', method: 'storage.set', params: { key: 'planted', value: 1 } };
const noHandlers = { svc: 1, method: 'actions.handlers', params: { names: [] } };

/** Resolves once the host has reported `count` events of `kind` after `from`. */
const counted = (native: NativeHost, kind: string, count: number, from: number) =>
  expect.poll(() => native.events.slice(from).filter((e) => e.event === kind).length, { timeout: 15_000 }).toBe(count);

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

  it("drops what a third-party iframe posts through the WebView's handler: it has no secret", async () => {
    const from = native.events.length;
    await forgeFromIframe(native, forgeries(planted), 'third-party');
    await counted(native, 'refused', 3, from);
    expect(kept.has('planted')).toBe(false);
    // The channel is untouched.
    expect(await native.evaluate(() => (window as any).sdk.svc.auth.state())).toBe('signed-in');
  });

  it("drops what a sandboxed iframe of the app's own origin forges: no planted key, the handler list holds", async () => {
    await native.evaluate(() => {
      (window as any).sdk.svc.actions.handle('echo', (input: unknown) => ({ echoed: input }));
    });
    await expect.poll(() => host.handledActions()).toContain('echo');
    const from = native.events.length;
    await forgeFromIframe(native, forgeries(planted, noHandlers), 'sandboxed');
    await counted(native, 'refused', 6, from);
    expect(native.events.slice(from).filter((e) => e.event === 'message')).toEqual([]);
    expect(kept.has('planted')).toBe(false);
    expect(await native.evaluate(() => (window as any).sdk.svc.storage.get('planted'))).toBeUndefined();
    expect(host.handledActions()).toContain('echo');
    expect(await host.invokeAction('echo', { n: 1 }, { invoked_by: 'user', confirmed: false })).toEqual({
      echoed: { n: 1 },
    });
  });

  it('keeps the top frame on the app: a navigation to another origin never loads (it would get the secret)', async () => {
    const from = native.events.length;
    await native.evaluate((url) => {
      location.href = url;
    }, evil);
    await native.next((e) => e.event === 'navigation-refused', from);
    expect(await native.evaluate(() => location.href)).toBe(app);
    expect(await native.evaluate(() => (window as any).sdk.svc.auth.state())).toBe('signed-in');
  });

  // The handler itself is hidden at document start, but WebKit may give it back when it rebuilds `messageHandlers`
  // (seen after a few calls): a frame posted through it without the secret is dropped (the forgery cases above).
  it("leaves the secret out of reach of the page's later scripts, and no bootstrap global but the receiver", async () => {
    // The client takes the bootstrap globals when it first needs them (its first call), so they are looked at after one.
    const out = await native.evaluate(async () => {
      const state = await (window as any).sdk.svc.auth.state();
      return {
        secret: typeof (window as any).__svc_secret,
        globals: Object.getOwnPropertyNames(window).filter((name) => name.startsWith('__svc')),
        state,
      };
    });
    expect(out).toEqual({ secret: 'undefined', globals: ['__svc_receive'], state: 'signed-in' });
  });
});

describe('without the secret check', () => {
  it("a sandboxed iframe's forged frames would be taken as the app's (why PROTOCOL.md requires the check)", async () => {
    const native = await startNativeHost({ snapshot, secretCheck: false });
    const host = createHost({ manifest: exchangeManifest(), transport: native.transport, handlerWait: 0 });
    try {
      await native.load(app);
      await native.evaluate(() => {
        (window as any).sdk.svc.actions.handle('list_polls', () => []);
      });
      await expect.poll(() => host.handledActions()).toEqual(['list_polls']);
      await forgeFromIframe(native, forgeries(planted, noHandlers), 'sandboxed');
      // The app reads the planted key as its own, and the next invocation finds no handler.
      await expect.poll(() => native.evaluate(() => (window as any).sdk.svc.storage.get('planted'))).toBe(1);
      await expect.poll(() => host.handledActions()).toEqual([]);
      const error = await host
        .invokeAction('list_polls', {}, { invoked_by: 'user' } as never)
        .catch((e: SvcError) => e);
      expect((error as SvcError).code).toBe('ERR_ACTION_NO_HANDLER');
    } finally {
      host.close();
      await native.stop();
    }
  });
});

describe('a host that injects no secret', () => {
  it('gets no bridge: the adapter installs nothing, so the app finds no host and nothing reaches native code', async () => {
    const native = await startNativeHost({ snapshot, secret: false });
    try {
      await native.load(app);
      const out = await native.evaluate(async () => {
        const error = await (window as any).sdk.svc.auth.state().catch((e: SvcError) => e);
        return { code: error.code, port: typeof (window as any).__svc_port };
      });
      expect(out).toEqual({ code: 'ERR_NO_HOST', port: 'undefined' });
      expect(native.events.filter((e) => e.event === 'message' || e.event === 'refused')).toEqual([]);
    } finally {
      await native.stop();
    }
  });
});

describe('a host written from PROTOCOL.md alone (Python), in WebKitGTK', () => {
  let native: NativeHost;
  beforeAll(async () => {
    native = await startNativeHost({ snapshot, host: 'protocol' });
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
    expect(frames[0]).toEqual({ svc: 'hello', wire: 1, adapter: 3 });
  });

  it("drops what a sandboxed iframe of the app's own origin forges: no planted key, the handler list holds", async () => {
    await native.evaluate(() => {
      (window as any).sdk.svc.actions.handle('echo', (input: unknown) => ({ echoed: input }));
    });
    await expect.poll(async () => (await native.invoke('echo', { n: 1 })).result).toEqual({ echoed: { n: 1 } });
    const from = native.events.length;
    await forgeFromIframe(native, forgeries(planted, noHandlers), 'sandboxed');
    await counted(native, 'dropped', 6, from);
    expect(native.events.slice(from).filter((e) => e.event === 'frame')).toEqual([]);
    expect(await native.evaluate(() => (window as any).sdk.svc.storage.get('planted'))).toBeUndefined();
    expect(await native.invoke('echo', { n: 2 })).toMatchObject({ result: { echoed: { n: 2 } } });
  });

  it('keeps the top frame on the app: a navigation to another origin never loads (it would get the secret)', async () => {
    const from = native.events.length;
    await native.evaluate((url) => {
      location.href = url;
    }, evil);
    await native.next((e) => e.event === 'navigation-refused', from);
    expect(await native.evaluate(() => location.href)).toBe(app);
    expect(await native.evaluate(() => (window as any).sdk.svc.auth.state())).toBe('signed-in');
  });
});
