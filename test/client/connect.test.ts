import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSvc } from '../../src/index';
import { attachIframe, createHost, WIRE } from '../../src/host/index';
import { framedApp } from '../helpers/windows';

const app = {
  id: '0123456789abcdef',
  version: '1.0.0',
  locale: 'de',
  theme: 'dark' as const,
  launch_params: { from: 'link' },
};
const g = globalThis as any;

function world(options: { connectTimeout?: number; hostOrigin?: string | null; hostOrigins?: string[] | null } = {}) {
  const w = framedApp();
  const host = createHost({ app, handlers: { 'auth.state': () => 'signed-in' }, hostOrigin: w.host.origin });
  const detach = attachIframe(host, w.iframe, w.app.origin, w.host as never);
  g.window = w.app;
  const snapshot = options.hostOrigin === null ? { ...host.snapshot, host_origin: undefined } : host.snapshot;
  // The app trusts the real host unless a test says otherwise (null: no list given, so the page's <meta> decides).
  const hostOrigins = options.hostOrigins === null ? undefined : (options.hostOrigins ?? [w.host.origin]);
  const client = createSvc({ snapshot, connectTimeout: options.connectTimeout ?? 500, hostOrigins });
  return { appWin: w.app, hostWin: w.host, host, client, svc: client.svc, detach };
}

describe('the window bootstrap', () => {
  let w: ReturnType<typeof world> | undefined;
  afterEach(() => {
    vi.useRealTimers();
    w?.client.close();
    w?.host.close();
    w?.detach();
    delete g.window;
  });

  it('says hello to the exact host origin, gets a port, and talks over it', async () => {
    w = world();
    expect(await w.svc.auth.state()).toBe('signed-in');
    const hello = w.appWin.sent.find((m: any) => m.data.svc === 'hello')!;
    expect(hello.targetOrigin).toBe('https://host.example');
    const welcome = w.hostWin.sent.find((m: any) => m.data.svc === 'welcome')!;
    expect(welcome.targetOrigin).toBe('https://app.example');
    expect(welcome.data).toMatchObject({ svc: 'welcome', wire: WIRE, nonce: (hello.data as any).nonce });
    // Everything after the welcome went over the port, not the windows.
    expect(w.appWin.sent).toHaveLength(1);
  });

  it('never posts anything to "*"', async () => {
    w = world();
    await w.svc.auth.state();
    expect([...w.appWin.sent, ...w.hostWin.sent].map((m) => m.targetOrigin)).not.toContain('*');
  });

  it('fails with ERR_NO_HOST at once when the host origin is unknown, saying so without "undefined"', async () => {
    // No launch names the host, and the browser does not report the parent (jsdom, and Firefox without
    // ancestorOrigins): nobody can tell which host frames the app.
    w = world({ hostOrigin: null });
    await expect(w.svc.auth.state()).rejects.toMatchObject({
      code: 'ERR_NO_HOST',
      retriable: false,
      message: 'svc.auth.state(): not in a host frame: open the app in a host; in tests use svc-sdk/mock',
    });
    expect(w.appWin.sent).toEqual([]);
  });

  it('refuses a host the app does not trust: a page that frames it naming itself in the fragment gets nothing', async () => {
    w = world({ hostOrigins: ['https://messenger.example'] });
    const error = await w.svc.storage.set('k', 'secret').catch((e) => e);
    expect(error).toMatchObject({ code: 'ERR_NO_HOST', retriable: false });
    expect(error.message).toBe('svc.storage.set(): https://host.example is not in <meta name=svc-host-origins>');
    expect(w.appWin.sent).toEqual([]); // no hello, so no call can follow
  });

  it('takes the trusted origins from <meta name="svc-host-origins"> when no list is given', async () => {
    w = world({ hostOrigins: null });
    const content = 'https://other.example https://host.example';
    (w.appWin as any).document = {
      querySelector: (selector: string) => (selector === 'meta[name=svc-host-origins]' ? { content } : null),
    };
    expect(await w.svc.auth.state()).toBe('signed-in');
  });

  it('refuses every host when the page lists none', async () => {
    w = world({ hostOrigins: null });
    (w.appWin as any).document = { querySelector: () => null };
    await expect(w.svc.auth.state()).rejects.toMatchObject({
      code: 'ERR_NO_HOST',
      message: 'svc.auth.state(): https://host.example is not in <meta name=svc-host-origins>',
    });
    expect(w.appWin.sent).toEqual([]);
  });

  it('refuses when the browser reports another parent origin (location.ancestorOrigins)', async () => {
    w = world();
    (w.appWin.location as any).ancestorOrigins = ['https://evil.example'];
    await expect(w.svc.auth.state()).rejects.toMatchObject({
      code: 'ERR_NO_HOST',
      message: 'svc.auth.state(): the parent frame is https://evil.example, not https://host.example',
    });
    expect(w.appWin.sent).toEqual([]);
    (w.appWin.location as any).ancestorOrigins = ['https://host.example'];
    expect(await w.svc.auth.state()).toBe('signed-in');
  });

  it("never takes '*' as the host origin, even when listed", async () => {
    w = world({ hostOrigins: ['*'] });
    const client = createSvc({ snapshot: { ...w.host.snapshot, host_origin: '*' }, hostOrigins: ['*'] });
    await expect(client.svc.auth.state()).rejects.toMatchObject({
      code: 'ERR_NO_HOST',
      message: 'svc.auth.state(): * is not in <meta name=svc-host-origins>',
    });
    expect(w.appWin.sent).toEqual([]);
  });

  it('fails with ERR_NO_HOST in a top-level page (no parent), with or without a host named', async () => {
    w = world();
    w.appWin.parent = w.appWin;
    const message = 'svc.auth.state(): not in a host frame: open the app in a host; in tests use svc-sdk/mock';
    await expect(w.svc.auth.state()).rejects.toMatchObject({ code: 'ERR_NO_HOST', message });
    // The page opened on its own: no launch names a host, and a top-level page has no ancestor origins.
    const alone = createSvc({ snapshot: { ...w.host.snapshot, host_origin: undefined }, hostOrigins: [] });
    await expect(alone.svc.auth.state()).rejects.toMatchObject({ code: 'ERR_NO_HOST', message });
  });

  it('says which case of ERR_NO_HOST applies, and never prints "undefined"', async () => {
    w = undefined; // each case below makes its own world and closes it
    const refusal = async (setUp: (w: ReturnType<typeof world>) => void, options?: Parameters<typeof world>[0]) => {
      const one = world(options);
      setUp(one);
      const e = await one.svc.room.current().catch((x) => x);
      one.client.close();
      one.host.close();
      one.detach();
      expect(e).toMatchObject({ code: 'ERR_NO_HOST', retriable: false, method: 'room.current' });
      expect(e.message).not.toContain('undefined');
      return e.message;
    };
    const trim = (message: string) => message.replace('svc.room.current(): ', '');
    // A top-level page, named host or not.
    expect(trim(await refusal((w) => (w.appWin.parent = w.appWin)))).toBe(
      'not in a host frame: open the app in a host; in tests use svc-sdk/mock',
    );
    expect(trim(await refusal((w) => (w.appWin.parent = w.appWin), { hostOrigin: null }))).toBe(
      'not in a host frame: open the app in a host; in tests use svc-sdk/mock',
    );
    // An origin the app does not list, named by the launch or reported by the browser alone.
    expect(trim(await refusal(() => {}, { hostOrigins: ['https://messenger.example'] }))).toBe(
      'https://host.example is not in <meta name=svc-host-origins>',
    );
    expect(
      trim(
        await refusal((w) => ((w.appWin.location as any).ancestorOrigins = ['https://other.example']), {
          hostOrigin: null,
        }),
      ),
    ).toBe('https://other.example is not in <meta name=svc-host-origins>');
    // The browser reports a parent other than the origin named.
    expect(trim(await refusal((w) => ((w.appWin.location as any).ancestorOrigins = ['https://evil.example'])))).toBe(
      'the parent frame is https://evil.example, not https://host.example',
    );
  });

  it('rejects with a retriable ERR_HOST_UNREACHABLE within the connect timeout when nobody answers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    w = world({ connectTimeout: 100 });
    w.detach();
    let settled = false;
    const pending = w.svc.auth.state().catch((x) => x);
    void pending.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(90);
    expect(settled).toBe(false); // not before the connect timeout
    await vi.advanceTimersByTimeAsync(50);
    const e = await pending;
    expect(e).toMatchObject({ code: 'ERR_HOST_UNREACHABLE', retriable: true, method: 'auth.state' });
    expect(e.message).toContain('https://host.example');
  });

  it('ignores welcomes from another window, another origin, or with another nonce', async () => {
    w = world({ connectTimeout: 300 });
    w.detach(); // the real host stays silent; only forgeries arrive
    const pending = w.svc.auth.state().catch((e) => e);
    await new Promise((r) => setTimeout(r, 10));
    const nonce = (w.appWin.sent[0]!.data as any).nonce;
    const port = () => new MessageChannel().port2;
    const sibling = { postMessage() {} };
    w.appWin.receive(sibling as never, 'https://host.example', { svc: 'welcome', wire: WIRE, nonce }, [port()]);
    w.appWin.receive(w.hostWin, 'https://evil.example', { svc: 'welcome', wire: WIRE, nonce }, [port()]);
    w.appWin.receive(w.hostWin, 'https://host.example', { svc: 'welcome', wire: WIRE, nonce: 'guess' }, [port()]);
    w.appWin.receive(w.hostWin, 'https://host.example', { svc: 'welcome', wire: 2, nonce }, [port()]);
    w.appWin.receive(w.hostWin, 'https://host.example', { svc: 'welcome', wire: WIRE, nonce }, []);
    w.appWin.receive(w.hostWin, 'https://host.example', 'welcome', []);
    expect(await pending).toMatchObject({ code: 'ERR_HOST_UNREACHABLE' });
  });

  it('takes the fresher snapshot a welcome carries', async () => {
    w = world();
    expect(w.svc.app.locale).toBe('de');
    w.host.snapshot.app.locale = 'fr';
    await w.svc.auth.state();
    expect(w.svc.app.locale).toBe('fr');
  });
});

describe('the host side of the bootstrap', () => {
  it('answers only a hello from its iframe and the exact app origin', async () => {
    const w = framedApp();
    const host = createHost({ app, handlers: {} });
    const detach = attachIframe(host, w.iframe, w.app.origin, w.host as never);
    w.host.receive({} as never, 'https://app.example', { svc: 'hello', wire: WIRE, nonce: 'n1' });
    w.host.receive(w.app, 'https://evil.example', { svc: 'hello', wire: WIRE, nonce: 'n2' });
    w.host.receive(w.app, 'https://app.example', { svc: 'hello', wire: 9, nonce: 'n3' });
    await new Promise((r) => setTimeout(r, 10));
    expect(w.host.sent).toEqual([]);
    w.host.receive(w.app, 'https://app.example', { svc: 'hello', wire: WIRE, nonce: 'n4' });
    await new Promise((r) => setTimeout(r, 10));
    expect(w.host.sent.map((m) => [(m.data as any).nonce, m.targetOrigin])).toEqual([['n4', 'https://app.example']]);
    detach();
    host.close();
  });

  it('replaces the port on a new hello (a reload), failing calls pending on the old one', async () => {
    const w = framedApp();
    const host = createHost({ app, handlers: {} });
    const detach = attachIframe(host, w.iframe, w.app.origin, w.host as never);
    w.host.receive(w.app, 'https://app.example', { svc: 'hello', wire: WIRE, nonce: 'first' });
    await new Promise((r) => setTimeout(r, 10));
    const pending = host.invokeAction('slow', {}, { invoked_by: 'user', confirmed: false }).catch((e) => e);
    w.host.receive(w.app, 'https://app.example', { svc: 'hello', wire: WIRE, nonce: 'second' });
    expect(await pending).toMatchObject({
      code: 'ERR_DISCONNECTED',
      retriable: true,
      message: expect.stringContaining('reconnected'),
    });
    expect(w.host.sent).toHaveLength(2);
    detach();
    host.close();
  });

  it('refuses a wildcard or opaque app origin', () => {
    const w = framedApp();
    const host = createHost({ app, handlers: {} });
    expect(() => attachIframe(host, w.iframe, '*', w.host as never)).toThrow(/exact origin/);
    expect(() => attachIframe(host, w.iframe, 'null', w.host as never)).toThrow(/exact origin/);
  });

  it('refuses an origin the browser would write otherwise, saying how it writes it: no hello would ever match', () => {
    const w = framedApp();
    const host = createHost({ app, handlers: {} });
    for (const [given, written] of [
      ['https://app.example/', 'https://app.example'],
      ['https://App.Example', 'https://app.example'],
      ['https://app.example/index.html', 'https://app.example'],
      ['https://app.example:443', 'https://app.example'],
      ['app.example', 'https://app.example'],
    ])
      expect(() => attachIframe(host, w.iframe, given!, w.host as never)).toThrow(
        `must be the app's exact origin as the browser writes it (scheme, host and port; no path, no trailing slash, lower case), such as '${written}', not '${given}'.`,
      );
  });
});
