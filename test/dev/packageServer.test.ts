// The app's package on its own origin, as the platform serves it: the manifest's CSP plus the platform's policy
// (only the messenger may frame it; fetch reaches the network allowlist), the host-origin meta tag, no way out of
// the folder, and CSP reports that name what to change.
import { createHash } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, symlink, truncate, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockedAdvice, type DevPlatform, DevAppError, startDevPlatform } from '../../src/dev';
import { runSvc } from '../cli/runInProcess';
import { platformHeaders } from '../helpers/controlApi';
import { writeAppDir } from './appDir';

let p: DevPlatform;
let appDir: string;
let events: string[] = [];

beforeAll(async () => {
  appDir = await writeAppDir();
  p = await startDevPlatform({ dir: appDir, port: 0, allow: ['http://127.0.0.1:3999'] });
});
afterAll(() => p.close());

/** Where the browser sends CSP reports: the report-uri of the app page's CSP. */
const reportPath = async () =>
  /report-uri (\S+?)[;,]/.exec((await fetch(p.appUrl)).headers.get('content-security-policy')!)![1]!;

/** Posts a CSP report as the browser does, to `path` (default the page's report address). */
const sendReport = async (report: Record<string, string>, path?: string, type = 'application/csp-report') =>
  fetch(new URL(path ?? (await reportPath()), p.appOrigin), {
    method: 'POST',
    headers: { 'content-type': type, origin: 'https://evil.example' },
    body: JSON.stringify({ 'csp-report': report }),
  });

/**
 * A raw GET of `url` with a chosen Host header (fetch cannot set one); `path` is sent as it is (`new URL` would
 * resolve its `..`).
 */
function rawGet(url: string, host: string, path?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request({ host: '127.0.0.1', port: u.port, path: path ?? u.pathname, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the package server', () => {
  it('serves the entry on its own origin with both policies and the host-origin meta tag', async () => {
    expect(p.appOrigin).toMatch(/^http:\/\/localhost:\d+$/);
    expect(p.appOrigin).not.toBe(p.origin);
    const res = await fetch(p.appUrl);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    // Two policies arrive joined by a comma; both are enforced.
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`frame-ancestors ${p.origin}`);
    expect(csp).toContain("connect-src 'self' https://api.polls.example http://127.0.0.1:3999");
    // The reports' address is this run's own: another site's page cannot name it in its own CSP.
    expect(csp).toMatch(/report-uri \/__svc\/csp-report\/[\w-]{16}, .*report-uri \/__svc\/csp-report\/[\w-]{16}$/);
    const html = await res.text();
    expect(html).toContain(`<head><meta name="svc-host-origins" content="${p.origin}">`);
  });

  it('puts the meta tag first in the head of a page without a <head> tag, after the doctype (never before it)', async () => {
    const dir = await writeAppDir();
    const pages: Record<string, string> = {
      'no-head.html': '<!doctype html><meta charset="utf-8"><script src="a.js"></script><body><header>top</header>',
      'html-tag.html': '<!-- built --><!DOCTYPE html>\n<html lang="en"><script src="a.js"></script></html>',
      'commented.html': '\uFEFF<!-- built by a tool -->\n<!doctype html><title>x</title><header class="bar"></header>',
      'bare.html': '<p>no doctype at all</p>',
      // A <head> inside a comment or an attribute value is none; a script before the head opens it itself.
      'head-in-comment.html': '<!doctype html><!-- <head> --><head data-x="a>b"><title>x</title>',
      'script-first.html': '<!doctype html><script src="a.js"></script><head><title>x</title>',
      'bom.html': '\uFEFF<p>no doctype</p>',
      'empty-comment.html': '<!--><!doctype html><!---><!-- a --!><head><title>x</title>',
      // A start tag of millions of characters (once past the stack of the expression that reads a tag).
      'long-tag.html': `<!doctype html><head data-x=${'a'.repeat(8 << 20)}><title>x</title>`,
    };
    for (const [name, html] of Object.entries(pages)) await writeFile(join(dir, name), html);
    const q = await startDevPlatform({ dir, port: 0, mcp: false });
    try {
      const meta = `<meta name="svc-host-origins" content="${q.origin}">`;
      // text() drops the byte order mark, which the page keeps.
      const served = async (name: string) => (await fetch(`${q.appOrigin}/${name}`)).text();
      expect(await served('no-head.html')).toBe(
        `<!doctype html>${meta}<meta charset="utf-8"><script src="a.js"></script><body><header>top</header>`,
      );
      expect(await served('html-tag.html')).toBe(
        `<!-- built --><!DOCTYPE html>\n<html lang="en">${meta}<script src="a.js"></script></html>`,
      );
      expect(await served('commented.html')).toBe(
        `<!-- built by a tool -->\n<!doctype html>${meta}<title>x</title><header class="bar"></header>`,
      );
      expect(await served('bare.html')).toBe(`${meta}<p>no doctype at all</p>`);
      expect(await served('head-in-comment.html')).toBe(
        `<!doctype html><!-- <head> --><head data-x="a>b">${meta}<title>x</title>`,
      );
      expect(await served('script-first.html')).toBe(
        `<!doctype html>${meta}<script src="a.js"></script><head><title>x</title>`,
      );
      // `<!-->` and `<!--->` are whole comments to a browser, and `--!>` ends one: they hide nothing after them.
      expect(await served('empty-comment.html')).toBe(
        `<!--><!doctype html><!---><!-- a --!><head>${meta}<title>x</title>`,
      );
      expect(await served('long-tag.html')).toBe(
        `<!doctype html><head data-x=${'a'.repeat(8 << 20)}>${meta}<title>x</title>`,
      );
      // After the byte order mark, which stays the page's first bytes.
      const bom = Buffer.from(await (await fetch(`${q.appOrigin}/bom.html`)).arrayBuffer());
      expect(bom.toString('utf8')).toBe(`\uFEFF${meta}<p>no doctype</p>`);
    } finally {
      await q.close();
    }
  });

  it('keeps every other byte of a page: UTF-16 gets the tag in UTF-16, another charset keeps its bytes', async () => {
    const dir = await writeAppDir();
    const page = '<!doctype html><head><title>Café</title>';
    const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(page, 'utf16le')]);
    const pages: Record<string, Buffer> = {
      'le.html': utf16le,
      'be.html': Buffer.from(utf16le).swap16(),
      // A last byte that ends no code unit stays after the others.
      'odd.html': Buffer.concat([utf16le, Buffer.from([0x41])]),
      'latin1.html': Buffer.from(page, 'latin1'),
      // A no-break space is text, which opens the body: the tag goes before it, not after a later <head>.
      'nbsp.html': Buffer.from('\u00a0<head><script src="a.js"></script>'),
      'two-marks.html': Buffer.from('\uFEFF\uFEFF<head><script src="a.js"></script>'),
    };
    for (const [name, bytes] of Object.entries(pages)) await writeFile(join(dir, name), bytes);
    const q = await startDevPlatform({ dir, port: 0, mcp: false });
    try {
      const meta = `<meta name="svc-host-origins" content="${q.origin}">`;
      const served = async (name: string) => Buffer.from(await (await fetch(`${q.appOrigin}/${name}`)).arrayBuffer());
      const withMeta = `<!doctype html><head>${meta}<title>Café</title>`;
      const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(withMeta, 'utf16le')]);
      expect(await served('le.html')).toEqual(le);
      expect(await served('be.html')).toEqual(Buffer.from(le).swap16());
      expect(await served('odd.html')).toEqual(Buffer.concat([le, Buffer.from([0x41])]));
      expect(await served('latin1.html')).toEqual(Buffer.from(withMeta, 'latin1'));
      expect((await served('nbsp.html')).toString()).toBe(`${meta}\u00a0<head><script src="a.js"></script>`);
      expect((await served('two-marks.html')).toString()).toBe(`\uFEFF${meta}\uFEFF<head><script src="a.js"></script>`);
    } finally {
      await q.close();
    }
  });

  it('serves each file with the type a browser needs for it, a page named .htm included, with its policies', async () => {
    const dir = await writeAppDir();
    const files = [
      'page.htm',
      'module.wasm',
      'font.otf',
      'clip.webm',
      'sound.ogg',
      'worker.cjs',
      'data.csv',
      'x.bin',
      'captions.vtt',
      'scene.glb',
      'map.geojson',
    ];
    for (const name of files) await writeFile(join(dir, name), name === 'page.htm' ? '<!doctype html><p>htm' : 'x');
    const q = await startDevPlatform({ dir, port: 0, mcp: false });
    try {
      const types = await Promise.all(
        files.map(async (name) => (await fetch(`${q.appOrigin}/${name}`)).headers.get('content-type')),
      );
      expect(types).toEqual([
        'text/html; charset=utf-8',
        'application/wasm',
        'font/otf',
        'video/webm',
        'audio/ogg',
        'text/javascript; charset=utf-8',
        'text/csv; charset=utf-8',
        'application/octet-stream',
        'text/vtt; charset=utf-8',
        'model/gltf-binary',
        'application/geo+json',
      ]);
      const htm = await fetch(`${q.appOrigin}/page.htm`);
      expect(htm.headers.get('content-security-policy')).toContain(`frame-ancestors ${q.origin}`);
      expect(await htm.text()).toContain('<meta name="svc-host-origins"');
      // Every answer carries both policies, not pages alone: an SVG or XML document runs scripts as a page does
      // (its fetches to hosts the manifest does not name must fail too), and a worker takes its script's policy.
      await writeFile(
        join(dir, 'evil.svg'),
        '<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/x")</script></svg>',
      );
      for (const name of [...files, 'evil.svg']) {
        const csp = (await fetch(`${q.appOrigin}/${name}`)).headers.get('content-security-policy') ?? '';
        expect(csp, name).toContain("script-src 'self'");
        expect(csp, name).toContain(`frame-ancestors ${q.origin}`);
      }
    } finally {
      await q.close();
    }
  });

  it('serves other files without the meta tag, and never a dotfile or a path outside the folder', async () => {
    const js = await fetch(`${p.appOrigin}/js/app.js`);
    expect(js.headers.get('content-type')).toContain('text/javascript');
    expect(await js.text()).toBe('console.log("app");');
    expect((await fetch(`${p.appOrigin}/.env`)).status).toBe(404);
    expect((await rawGet(`${p.appOrigin}/../../../../etc/passwd`, new URL(p.appOrigin).host)).status).toBe(404);
    expect((await rawGet(`${p.appOrigin}/%2e%2e/%2e%2e/etc/passwd`, new URL(p.appOrigin).host)).status).toBe(404);
    const missing = await fetch(`${p.appOrigin}/missing.html`);
    expect(missing.status).toBe(404);
    // It names the path asked for: never sniffed as a page.
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
    const post = await fetch(`${p.appOrigin}/index.html`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const report = await fetch(new URL(await reportPath(), p.appOrigin));
    expect([report.status, report.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('serves no file svc pack leaves out or refuses, and says so of a name where blocked requests go', async () => {
    await writeFile(join(appDir, 'app-1.0.0.swbn'), 'an earlier package');
    expect((await fetch(`${p.appOrigin}/app-1.0.0.swbn`)).status).toBe(404);
    await writeFile(join(appDir, 'my photo.png'), 'png');
    const res = await fetch(`${p.appOrigin}/my%20photo.png`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('svc pack refuses the file name "my photo.png", so no host would serve it');
    expect(p.blocked.at(-1)).toMatchObject({
      blocked: '/my photo.png',
      directive: 'svc pack',
      advice: expect.stringMatching(/no spaces.*rename it/),
    });
  });

  it('decodes a path segment by segment: an encoded slash names no file; / is the entry document', async () => {
    expect((await fetch(`${p.appOrigin}/js/%61pp.js`)).status).toBe(200);
    // As sent, not resolved: a package's index holds no empty, . or .. segment (browsers resolve them themselves).
    for (const path of ['/js/../js/app.js', '/js/%2e%2e/js/app.js', '//js/app.js', '/js//app.js', '/./js/app.js'])
      expect((await rawGet(p.appOrigin, new URL(p.appOrigin).host, path)).status, path).toBe(404);
    expect((await rawGet(p.appOrigin, new URL(p.appOrigin).host, '/../../../etc/passwd')).status).toBe(404);
    const slash = await fetch(`${p.appOrigin}/js%2Fapp.js`);
    expect(slash.status).toBe(404);
    expect(await slash.text()).toBe("/js%2Fapp.js names no file: a path's segments hold no encoded slash (%2F).\n");
    const root = await fetch(`${p.appOrigin}/`);
    expect(await root.text()).toBe(await (await fetch(p.appUrl)).text());
  });

  it("serves a name with [ and ], as Next.js names a dynamic route's code, sent as it is or encoded", async () => {
    await mkdir(join(appDir, 'chunks'), { recursive: true });
    await writeFile(join(appDir, 'chunks', '[id]-8f3c1a2b.js'), 'export {};');
    for (const path of ['/chunks/[id]-8f3c1a2b.js', '/chunks/%5Bid%5D-8f3c1a2b.js'])
      expect((await rawGet(p.appOrigin, new URL(p.appOrigin).host, path)).status, path).toBe(200);
  });

  it('says that a folder asked for without its trailing slash is served with it', async () => {
    const folder = await fetch(`${p.appOrigin}/js`);
    expect(folder.status).toBe(404);
    expect(await folder.text()).toBe('/js is a folder, and a package holds files: link to /js/ for its index.html.\n');
  });

  it('serves no file reached through a symbolic link, as svc pack packs none, even one that leads out of the folder', async () => {
    const dir = await writeAppDir();
    const outside = await mkdtemp(join(tmpdir(), 'svc-outside-'));
    await writeFile(join(outside, 'secret.txt'), 'outside the app');
    await symlink(join(outside, 'secret.txt'), join(dir, 'leak.txt'));
    await symlink(outside, join(dir, 'linked'));
    await symlink(join(dir, 'js', 'app.js'), join(dir, 'alias.js'));
    const platform = await startDevPlatform({ dir, port: 0 });
    try {
      for (const path of ['/leak.txt', '/linked/secret.txt', '/alias.js']) {
        const res = await fetch(`${platform.appOrigin}${path}`);
        expect(res.status, path).toBe(404);
        expect(await res.text()).toBe(
          `${path} is reached through a symbolic link; a package holds files only: copy the file in, or remove the link.\n`,
        );
      }
      expect((await fetch(`${platform.appOrigin}/js/app.js`)).status).toBe(200);
    } finally {
      await platform.close();
    }
  });

  it('answers one byte range with 206, as a media element asks to seek, and the whole file to anything else', async () => {
    const dir = await writeAppDir();
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    await writeFile(join(dir, 'clip.webm'), bytes);
    await writeFile(join(dir, 'empty.bin'), '');
    const q = await startDevPlatform({ dir, port: 0, mcp: false });
    const get = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
      const res = await fetch(`${q.appOrigin}/${path}`, { method, headers });
      return {
        status: res.status,
        range: res.headers.get('content-range'),
        length: res.headers.get('content-length'),
        accept: res.headers.get('accept-ranges'),
        nosniff: res.headers.get('x-content-type-options'),
        body: Buffer.from(await res.arrayBuffer()),
      };
    };
    try {
      const whole = await get('clip.webm');
      expect(whole).toMatchObject({ status: 200, range: null, length: '1000', accept: 'bytes' });
      expect(whole.body.equals(bytes)).toBe(true);
      // A start and an end (both included), from a start to the end, the last N bytes, and an end past the file.
      for (const [range, start, end] of [
        ['bytes=100-199', 100, 199],
        ['bytes=900-', 900, 999],
        ['bytes=-10', 990, 999],
        ['bytes=990-5000', 990, 999],
        ['bytes=0-0', 0, 0],
      ] as const) {
        const part = await get('clip.webm', { range });
        expect(part, range).toMatchObject({
          status: 206,
          range: `bytes ${start}-${end}/1000`,
          length: String(end - start + 1),
          accept: 'bytes',
        });
        expect(part.body.equals(bytes.subarray(start, end + 1)), range).toBe(true);
      }
      // Overlapping ranges are one; HEAD says what GET would send.
      expect(await get('clip.webm', { range: 'bytes=0-9,5-19' })).toMatchObject({
        status: 206,
        range: 'bytes 0-19/1000',
      });
      const head = await get('clip.webm', { range: 'bytes=10-19' }, 'HEAD');
      expect(head).toMatchObject({ status: 206, range: 'bytes 10-19/1000', length: '10', body: Buffer.alloc(0) });
      // No byte of the file: 416, saying how long the file is.
      for (const [path, range] of [
        ['clip.webm', 'bytes=1000-'],
        ['clip.webm', 'bytes=2000-3000'],
        ['empty.bin', 'bytes=0-'],
      ]) {
        const none = await get(path!, { range: range! });
        expect(none.status, range).toBe(416);
        expect(none.range, range).toBe(`bytes */${path === 'empty.bin' ? 0 : 1000}`);
        expect(none.nosniff, range).toBe('nosniff');
      }
      // Two ranges apart, a malformed header, another unit, and an If-Range (this server gives no validator for it
      // to match): the whole file, as RFC 9110 allows.
      for (const headers of [
        { range: 'bytes=0-9,500-509' } as Record<string, string>,
        { range: 'bytes=abc' },
        { range: 'items=0-9' },
        { range: 'bytes=0-9', 'if-range': '"v1"' },
      ]) {
        const all = await get('clip.webm', headers);
        expect(all, JSON.stringify(headers)).toMatchObject({ status: 200, range: null, length: '1000' });
        expect(all.body.equals(bytes)).toBe(true);
      }
      // A page's range counts the meta tag the page is served with.
      const page = (await get('index.html')).body;
      const head20 = await get('index.html', { range: 'bytes=0-19' });
      expect(head20.status).toBe(206);
      expect(head20.range).toBe(`bytes 0-19/${page.length}`);
      expect(head20.body.equals(page.subarray(0, 20))).toBe(true);
      expect((await get('empty.bin')).status).toBe(200);
    } finally {
      await q.close();
    }
  });

  it('cuts off the answer for a file a build shortens while it is sent, and goes on serving', async () => {
    const dir = await writeAppDir();
    const file = join(dir, 'big.bin');
    await writeFile(file, Buffer.alloc(32 * 1024 * 1024, 1));
    const q = await startDevPlatform({ dir, port: 0, mcp: false });
    try {
      const res = await fetch(`${q.appOrigin}/big.bin`);
      expect(res.headers.get('content-length')).toBe(String(32 * 1024 * 1024));
      // Written again in place, shorter, as the answer streams: what was promised can no longer come.
      await truncate(file, 1000);
      // At once, not when Node closes the idle connection (keepAliveTimeout, 5 s), which a browser may never reach.
      const cutOff = await Promise.race([
        res.arrayBuffer().then(
          () => 'whole',
          () => 'cut off',
        ),
        new Promise((ok) => setTimeout(() => ok('still waiting after 3 s'), 3000)),
      ]);
      expect(cutOff).toBe('cut off');
      const again = await fetch(`${q.appOrigin}/big.bin`);
      expect(again.headers.get('content-length')).toBe('1000');
      expect((await again.arrayBuffer()).byteLength).toBe(1000);
    } finally {
      await q.close();
    }
  });

  it('leaves no file open after downloads the browser aborts, however early', async () => {
    const dir = await writeAppDir();
    const file = join(dir, 'video.bin');
    await writeFile(file, Buffer.alloc(8 * 1024 * 1024, 1));
    const q = await startDevPlatform({ dir, port: 0, mcp: false });
    const openOnFile = async () =>
      (await readdir('/proc/self/fd').catch(() => [] as string[])).filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === file;
        } catch {
          return false;
        }
      }).length;
    try {
      const { port } = new URL(q.appOrigin);
      // Each request's connection closes at once, after its first bytes, or a few milliseconds in: a reload, a seek.
      for (let i = 0; i < 60; i++)
        await new Promise<void>((done) => {
          const socket = connect(Number(port), '127.0.0.1', () => {
            socket.write(`GET /video.bin HTTP/1.1\r\nHost: localhost:${port}\r\n\r\n`);
            if (i % 3 === 0) socket.destroy();
            else socket.once('data', () => setTimeout(() => socket.destroy(), i % 3 === 1 ? 0 : 5));
          });
          socket.once('close', () => done());
          socket.on('error', () => {});
        });
      // Closed as each answer ends, not when garbage collection finds the handle.
      let open = await openOnFile();
      for (let i = 0; i < 50 && open > 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        open = await openOnFile();
      }
      expect(open).toBe(0);
    } finally {
      await q.close();
    }
  });

  it('refuses a request addressed to another host name (DNS rebinding)', async () => {
    expect((await rawGet(p.appUrl, 'evil.example')).status).toBe(403);
  });

  it('turns a CSP report into a blocked request with the host to add', async () => {
    const res = await sendReport({
      'blocked-uri': 'https://tracker.example/pixel',
      'effective-directive': 'connect-src',
    });
    expect(res.status).toBe(204);
    expect(p.blocked.at(-1)).toMatchObject({
      blocked: 'https://tracker.example/pixel',
      advice: expect.stringContaining('add "tracker.example" to network.connect'),
    });
    expect(blockedAdvice('http://127.0.0.1:3000/api', 'connect-src')).toContain('--allow http://127.0.0.1:3000');
    // svc dev's own address is never advised as one to allow (sec44 F5): the app reaches the platform through svc.
    await sendReport({ 'blocked-uri': `${p.origin}/__svc/state`, 'effective-directive': 'connect-src' });
    expect(p.blocked.at(-1)?.advice).toBe(
      `${p.origin} is svc dev's own platform (the messenger, its control API, the server API): a mini app reaches the platform through svc, never by fetch, and its backend through the server API.`,
    );
    // The page refused a frame: not a host to --allow, but the manifest's frame-ancestors to remove.
    const framed = blockedAdvice(`${p.appOrigin}/`, 'frame-ancestors');
    expect(framed).toContain('remove frame-ancestors from the manifest');
    expect(framed).not.toContain('--allow');
    events = p.blocked.map((b) => b.blocked);
    expect(events).toContain('https://tracker.example/pixel');
    // A report another site's page could send (a simple request: text/plain, no preflight) is refused, not shown;
    // so is one its own CSP sends to the address every run had before (its reports are of the browser's own type).
    const forged = { 'blocked-uri': 'https://forged.example/', 'effective-directive': 'x' };
    expect((await sendReport(forged, undefined, 'text/plain')).status).toBe(415);
    expect((await sendReport(forged, '/__svc/csp-report')).status).toBe(404);
    expect((await sendReport(forged, '/__svc/csp-report/AAAAAAAAAAAAAAAA')).status).toBe(404);
    expect(p.blocked.map((b) => b.blocked)).not.toContain('https://forged.example/');
  });

  it('closes the connection of a report too large, so the next report (a browser reuses connections) is not held', async () => {
    const { port } = new URL(p.appOrigin);
    const path = await reportPath();
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (d) => (answer += d));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    const big = 'x'.repeat(200_000);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${new URL(p.appOrigin).host}\r\nContent-Type: application/csp-report\r\nContent-Length: ${big.length}\r\n\r\n${big}`,
    );
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413 .*\r\n(?:.*\r\n)*connection: close\r\n/i);
    // A report on a new connection is taken at once.
    expect(
      (await sendReport({ 'blocked-uri': 'https://next.example/', 'effective-directive': 'img-src' })).status,
    ).toBe(204);
  });

  it('keeps each blocked request once, the latest 100, each URL cut to 1,000 characters', async () => {
    for (let i = 0; i < 3; i++)
      await sendReport({ 'blocked-uri': 'https://again.example/pixel', 'effective-directive': 'img-src' });
    expect(p.blocked.filter((b) => b.blocked === 'https://again.example/pixel')).toHaveLength(1);
    const long = `https://long.example/${'x'.repeat(60_000)}`;
    expect((await sendReport({ 'blocked-uri': long, 'effective-directive': 'img-src' })).status).toBe(204);
    expect(p.blocked.at(-1)!.blocked).toBe(long.slice(0, 1000));
    // A flood of distinct reports (anyone on this machine can send them) keeps the platform and its page small.
    await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        sendReport({ 'blocked-uri': `https://flood.example/${i}`, 'effective-directive': 'img-src' }),
      ),
    );
    expect(p.blocked).toHaveLength(100);
    const config = await (await fetch(`${p.origin}/__svc/config`, { headers: platformHeaders(p) })).text();
    expect(config.length).toBeLessThan(200_000);
  });

  it("serves no copy of svc dev's files: its state, its backend env file, nor any text holding its secrets", async () => {
    // Anyone on this machine can load the app's files: a copy left in the app folder (a hard link too) gave them
    // the signing secret, the MCP token and the token that publishes to the store.
    const copies: Record<string, [string, string]> = {
      'state-copy.json': ['{"svc_dev_state":1,"secrets":{"current":"x"}}', "is svc dev's state file"],
      'backend.env': ['SVC_API_BASE=http://127.0.0.1\nSVC_SIGNING_SECRET=abc\n', 'holds SVC_SIGNING_SECRET'],
      'store.json': [
        `{"url":"${p.origin}/__svc/store","token":"${p.publishToken}"}`,
        'holds a secret of the running svc dev',
      ],
      'mcp.txt': [`Authorization: Bearer ${p.mcpToken}`, 'holds a secret of the running svc dev'],
    };
    for (const [name, [text, what]] of Object.entries(copies)) {
      await writeFile(join(appDir, name), text);
      const res = await fetch(`${p.appOrigin}/${name}`);
      const body = await res.text();
      expect(res.status, name).toBe(404);
      expect(body, name).toContain(`${name} ${what}`);
      expect(body, name).not.toContain(text);
    }
    // Its running secrets are its own to know: svc dev refuses them, and does not say svc pack would (sec44 F1).
    expect(p.blocked.at(-1)).toMatchObject({ blocked: '/mcp.txt', directive: 'svc dev' });
    expect(p.blocked.at(-1)?.advice).toContain('svc dev does not serve it (anyone who can load');
    expect(p.blocked.at(-1)?.advice).not.toContain('svc pack');
    expect(p.blocked.find((b) => b.blocked === '/backend.env')).toMatchObject({ directive: 'svc pack' });
    expect(p.blocked.find((b) => b.blocked === '/backend.env')?.advice).toContain('svc pack refuses to pack it');
    // Gzipped, as a copy is put aside: looked at inside.
    for (const [name, [text, what]] of Object.entries(copies)) {
      await writeFile(join(appDir, `${name}.gz`), gzipSync(text));
      const res = await fetch(`${p.appOrigin}/${name}.gz`);
      expect(res.status, name).toBe(404);
      expect(await res.text(), name).toContain(`${name}.gz ${what}`);
    }
    // Saved as UTF-16, as Windows PowerShell 5.1's `>` and Notepad's "Unicode" write a text, either byte order, with
    // or without a byte order mark; the signing secret itself too.
    const wide: Record<string, [string, string]> = {
      ...copies,
      'secret.txt': [`secret=${p.signingSecret}\n`, 'holds a secret of the running svc dev'],
    };
    for (const [name, [text, what]] of Object.entries(wide))
      for (const [form, bytes] of [
        ['le', Buffer.from(`\ufeff${text}`, 'utf16le')],
        ['be', Buffer.from(`\ufeff${text}`, 'utf16le').swap16()],
        ['le-no-bom', Buffer.from(text, 'utf16le')],
      ] as const) {
        await writeFile(join(appDir, `${form}-${name}`), bytes);
        const res = await fetch(`${p.appOrigin}/${form}-${name}`);
        expect(res.status, `${form} ${name}`).toBe(404);
        expect(await res.text(), name).toContain(`${form}-${name} ${what}`);
      }
    // And as UTF-32, either byte order.
    const utf32 = Buffer.alloc(p.signingSecret.length * 4);
    for (let i = 0; i < p.signingSecret.length; i++) utf32[i * 4] = p.signingSecret.charCodeAt(i);
    for (const [form, bytes] of [
      ['le', utf32],
      ['be', Buffer.from(utf32).swap32()],
    ] as const) {
      await writeFile(join(appDir, `utf32-${form}.txt`), bytes);
      expect((await fetch(`${p.appOrigin}/utf32-${form}.txt`)).status, form).toBe(404);
    }
  });

  it('serves no private key, which svc pack refuses too, and says so where blocked requests go', async () => {
    const pem = `-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI${'FAKE'.repeat(11)}\n-----END PRIVATE KEY-----\n`;
    await writeFile(join(appDir, 'dev-key.pem'), pem);
    const res = await fetch(`${p.appOrigin}/dev-key.pem`);
    expect(res.status).toBe(404);
    const body = await res.text();
    expect(body).not.toContain('BEGIN PRIVATE KEY');
    expect(body).toContain(
      'dev-key.pem is or holds a private key; svc pack refuses to pack it and svc dev to serve it',
    );
    expect(p.blocked.at(-1)).toMatchObject({ blocked: '/dev-key.pem', directive: 'svc pack' });
    // A library that writes keys holds the marker as text in its code: it is served.
    const library = 'var key = "-----BEGIN RSA PRIVATE KEY-----\\n"; key += wordwrap(b64) + "\\n";\n';
    await writeFile(join(appDir, 'jsencrypt.js'), library);
    expect(await (await fetch(`${p.appOrigin}/jsencrypt.js`)).text()).toBe(library);
    // Nor when text comes before it, as `openssl pkcs12 -nodes` writes it, or many blank lines.
    for (const [name, before] of [
      ['backup.pem', 'Bag Attributes\n    localKeyID: 5A 1F 0C 33\n    friendlyName: svc-app\n'],
      ['notes.txt', '\n'.repeat(1000)],
    ]) {
      await writeFile(join(appDir, name!), `${before}${pem}`);
      const refused = await fetch(`${p.appOrigin}/${name}`);
      expect(refused.status, name).toBe(404);
      expect(await refused.text()).not.toContain('BEGIN PRIVATE KEY');
    }
    // A file is searched once per version: served clean, then a key written into it (even of the same length) is
    // found, and served clean again once it is gone.
    const clean = 'x'.repeat(pem.length);
    await writeFile(join(appDir, 'data.txt'), clean);
    expect((await fetch(`${p.appOrigin}/data.txt`)).status).toBe(200);
    expect((await fetch(`${p.appOrigin}/data.txt`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(join(appDir, 'data.txt'), pem);
    expect((await fetch(`${p.appOrigin}/data.txt`)).status).toBe(404);
    await writeFile(join(appDir, 'data.txt'), clean);
    expect(await (await fetch(`${p.appOrigin}/data.txt`)).text()).toBe(clean);
    // A page is still served whole, read from the descriptor whose first bytes were looked at.
    const page = `<!doctype html><html><head></head><body>${'long page '.repeat(10_000)}</body></html>`;
    await writeFile(join(appDir, 'long.html'), page);
    expect(
      (await (await fetch(`${p.appOrigin}/long.html`)).text()).endsWith(`${'long page '.repeat(3)}</body></html>`),
    ).toBe(true);
  });
});

describe('startDevPlatform({ dir })', () => {
  it('takes the app id, audience and version from the manifest, and rooms as { room_id, name, is_encrypted }', () => {
    expect(p.miniAppId).toBe('0123456789abcdef');
    expect(p.audience).toBe('polls-backend');
    expect(p.state.version).toBe('1.0.0');
    expect(p.rooms.some((r) => r.is_encrypted)).toBe(true);
    expect(p.rooms.some((r) => !r.is_encrypted)).toBe(true);
    expect(Object.keys(p.rooms[0]!).sort()).toEqual(['is_encrypted', 'name', 'room_id']);
    expect(p.baseUrl).toBe(`${p.origin}/v1`);
  });

  it('refuses an invalid manifest with the validator messages, naming the file', async () => {
    const dir = await writeAppDir((m) => {
      m.descripton = m.description;
      delete m.description;
    });
    const error = await startDevPlatform({ dir }).catch((e) => e);
    expect(error).toBeInstanceOf(DevAppError);
    expect(error.message).toContain('manifest.json is not a valid manifest');
    expect(error.message).toContain('description');
    const missing = await startDevPlatform({ dir: '/nonexistent/app' }).catch((e) => e);
    expect(missing.message).toContain('no manifest.json here');
    // An empty file, one with a byte order mark only, a syntax error, a repeated key: as svc validate says them.
    const file = join(dir, 'manifest.json');
    for (const [text, said] of [
      ['', `${file} is empty; write a JSON object (run \`svc init\` for a starter manifest).`],
      ['\uFEFF', `${file} is empty; write a JSON object (run \`svc init\` for a starter manifest).`],
      ['{\n  "name": "x"\n  "id": "y"\n}', `${file}:3:3 is not valid JSON: Expected ',' or '}' after property value.`],
      ['{"name": "a", "name": "b"}', `${file} is refused: `],
    ] as const) {
      await writeFile(file, text);
      const refused = await startDevPlatform({ dir }).catch((e) => e);
      expect(refused.message.startsWith(said), refused.message).toBe(true);
    }
  });

  it('reads a manifest.json that starts with a UTF-8 byte order mark, as svc validate and svc pack do', async () => {
    // Some Windows editors write one; svc dev refused what svc validate called valid.
    const dir = await writeAppDir();
    const file = join(dir, 'manifest.json');
    await writeFile(file, `\uFEFF${await readFile(file, 'utf8')}`);
    expect((await runSvc(['validate'], dir)).stdout).toBe('manifest.json: valid\n');
    const platform = await startDevPlatform({ dir, port: 0 });
    expect(platform.miniAppId).toBe('0123456789abcdef');
    await platform.close();
  });

  it('serves the messenger page only with the launch token, no inline script but its own (allowed by its hash)', async () => {
    expect(p.url).toBe(`${p.origin}/?token=${p.controlToken}`);
    const page = await fetch(p.url);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`frame-src ${p.appOrigin}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    // The built page script inline, which the CSP allows by its hash alone; unbuilt, the script's URL.
    const html = await page.text();
    const inline = /<script type="module">([\s\S]*?)<\/script>/.exec(html)?.[1];
    if (inline === undefined) expect(html).toContain('<script type="module" src="/__svc/ui.js">');
    else expect(csp).toContain(`script-src 'self' 'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
    expect((await fetch(`${p.origin}/`)).status).toBe(403);
    expect((await fetch(`${p.origin}/?token=wrong`)).status).toBe(403);
  });
});

/** Whether this machine has the IPv6 loopback (a container may not). */
async function hasIpv6Loopback(): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(0, '::1', () => probe.close(() => resolve(true)));
  });
}

describe.runIf(await hasIpv6Loopback())('the package origin, http://localhost:<port>', () => {
  it('is served on ::1 too, which browsers try first for localhost, so no other program can answer for it', async () => {
    const port = Number(new URL(p.appOrigin).port);
    const answer = await fetch(`http://[::1]:${port}/index.html`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-security-policy')).toContain('frame-ancestors');
  });

  it('is not started on a port whose ::1 side another program holds: that port is taken', async () => {
    const impostor = createServer((_req, res) => res.end('impostor'));
    await new Promise<void>((ok) => impostor.listen(0, '::1', ok));
    const port = (impostor.address() as AddressInfo).port;
    try {
      const dir = await writeAppDir();
      await expect(startDevPlatform({ dir, port: 0, packagePort: port, mcp: false })).rejects.toMatchObject({
        code: 'EADDRINUSE',
        option: '--package-port',
      });
    } finally {
      await new Promise<void>((ok) => impostor.close(() => ok()));
    }
  });
});
