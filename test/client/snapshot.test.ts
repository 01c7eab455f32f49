import { afterEach, describe, expect, it } from 'vitest';
import { createSvc } from '../../src/index';
import { createHost, launchUrl, parseSnapshot } from '../../src/host/index';

const g = globalThis as any;
const app = {
  id: '0123456789abcdef',
  version: '3.1.4',
  locale: 'pt-BR',
  theme: 'dark' as const,
  launch_params: { poll: '12', tab: 'results' },
};

describe('the launch snapshot', () => {
  afterEach(() => {
    delete g.location;
    delete g.__svc_launch;
  });

  it('is read from the URL fragment a web host built with launchUrl()', () => {
    const host = createHost({ app, handlers: { 'room.current': () => null }, hostOrigin: 'https://host.example' });
    const url = new URL(launchUrl('https://app.example/index.html#/route', host.snapshot));
    g.location = { href: url.href };
    const { svc } = createSvc();
    expect([svc.app.id, svc.app.version, svc.app.locale, svc.app.theme]).toEqual([
      '0123456789abcdef',
      '3.1.4',
      'pt-BR',
      'dark',
    ]);
    expect(svc.app.launchParams).toEqual({ poll: '12', tab: 'results' });
    expect(svc.supports('room.current')).toBe(true);
    expect(url.pathname).toBe('/index.html');
  });

  it('is written as #svc=<encodeURIComponent(JSON)>, after the fragment the URL had, which stays as it was', () => {
    const { snapshot } = createHost({ app: { ...app, launch_params: { q: 'a b+c&d=e/f#g' } }, handlers: {} });
    const built = launchUrl('https://app.example/index.html', snapshot);
    // What a reader following the protocol does (a native host, a host in another language): no form decoding.
    const written = new URL(built).hash.slice('#svc='.length);
    expect(written).toBe(encodeURIComponent(JSON.stringify(snapshot)));
    expect(JSON.parse(decodeURIComponent(written)).app.launch_params.q).toBe('a b+c&d=e/f#g');
    // A hash route and a plain anchor stay what they were, and a snapshot already there is replaced.
    expect(new URL(launchUrl('https://app.example/#/polls/7', snapshot)).hash).toBe(`#/polls/7&svc=${written}`);
    expect(new URL(launchUrl('https://app.example/#top', snapshot)).hash).toBe(`#top&svc=${written}`);
    const other = createHost({ app, handlers: {} }).snapshot;
    expect(new URL(launchUrl(built, other)).hash).toBe(`#svc=${encodeURIComponent(JSON.stringify(other))}`);
    // And the client reads it back whole.
    g.location = { href: launchUrl('https://app.example/#/polls/7', snapshot) };
    expect(createSvc().svc.app.launchParams).toEqual({ q: 'a b+c&d=e/f#g' });
  });

  it('prefers the snapshot a native host injected', () => {
    g.__svc_launch = { app: { ...app, locale: 'sv' } };
    g.location = { href: `https://app.example/#svc=${encodeURIComponent(JSON.stringify({ app }))}` };
    expect(createSvc().svc.app.locale).toBe('sv');
  });

  it('is read lazily: importing and creating the client touch nothing', () => {
    const { svc } = createSvc();
    g.__svc_launch = { app };
    expect(svc.app.id).toBe('0123456789abcdef');
  });

  it('falls back to defaults for a broken fragment or malformed fields', () => {
    g.location = { href: 'https://app.example/#svc=%7Bnot-json' };
    const { svc } = createSvc();
    expect([svc.version, svc.app.id, svc.app.theme]).toEqual(['1.0', '', 'light']);
    expect(svc.supports('room.current')).toBe(false);
    const odd = parseSnapshot({
      bridge: 2,
      methods: 'room.current',
      app: { id: 5, theme: 'blue', launch_params: { ok: 'yes', n: 1, nested: {} } },
    });
    expect(odd).toMatchObject({
      bridge: '1.0',
      methods: [],
      app: { id: '', theme: 'light', launch_params: { ok: 'yes' } },
    });
  });

  it('cannot pollute a prototype through __proto__ keys', () => {
    const hostile = JSON.parse(
      '{"__proto__":{"polluted":1},"app":{"launch_params":{"__proto__":{"polluted":2},"constructor":"x"}}}',
    );
    const s = parseSnapshot(hostile);
    expect(({} as any).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(s.app.launch_params)).toBe(Object.prototype);
    expect((s.app.launch_params as any).polluted).toBeUndefined();
  });

  it('keeps svc.app read-only', () => {
    const { svc } = createSvc({ snapshot: { app } });
    expect(() => {
      (svc.app as any).theme = 'light';
    }).toThrow(TypeError);
    expect(svc.app.theme).toBe('dark');
  });
});
