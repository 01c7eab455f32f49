// Markup in the app's page can put values on the bootstrap names (an element with id="__svc_port", a child frame
// named "__svc_launch"): the client takes only plain objects from them, and removes what it took.
import { afterEach, describe, expect, it } from 'vitest';
import { createSvc } from '../../src/index';
import { createHost, createMemoryPair, installNativePort, NATIVE_PORT, NATIVE_RECEIVE } from '../../src/host/index';

const g = globalThis as any;
const app = { id: '0123456789abcdef', version: '3.1.4', locale: 'pt-BR', theme: 'dark' as const, launch_params: {} };

// What markup creates: an element, or a child frame's window (which has a postMessage).
class HTMLDivElement {}
class WindowProxy {
  sent: unknown[] = [];
  postMessage(m: unknown) {
    this.sent.push(m);
  }
}

describe('bootstrap globals planted by markup', () => {
  afterEach(() => {
    for (const key of ['window', 'location', '__svc_launch', NATIVE_PORT, NATIVE_RECEIVE, 'webkit']) delete g[key];
  });

  it('an element at __svc_launch does not hide the URL fragment', () => {
    g.__svc_launch = new HTMLDivElement();
    g.location = { href: `https://app.example/#svc=${encodeURIComponent(JSON.stringify({ app }))}` };
    expect(createSvc().svc.app.locale).toBe('pt-BR');
  });

  it('a frame window at __svc_port gets none of the app calls, and the call fails cleanly', async () => {
    const frame = new WindowProxy();
    g.window = { parent: undefined, __svc_port: frame };
    g.window.parent = g.window; // a top-level page: no host
    const error = await createSvc({ connectTimeout: 100 })
      .svc.storage.set('k', 'secret')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ERR_NO_HOST' });
    expect(frame.sent).toEqual([]);
    expect(g.window.__svc_port).toBe(frame); // not taken: it is the page's own
  });

  it('the native snapshot and port are taken, then removed from the page', async () => {
    g.webkit = { messageHandlers: { svc: { postMessage: () => {} } } };
    g.__svc_secret = 'f'.repeat(64);
    expect(installNativePort()).toBe(true);
    g.window = g;
    g.__svc_launch = { bridge: '1.0', methods: ['storage.get'], app };
    const { svc } = createSvc();
    expect(svc.app.version).toBe('3.1.4');
    expect('__svc_launch' in g).toBe(false);
    // The port is taken on the first call.
    const [hostEnd] = createMemoryPair();
    createHost({ transport: hostEnd, app, handlers: {} });
    void svc.storage.get('k').catch(() => {});
    expect(NATIVE_PORT in g).toBe(false);
  });
});
