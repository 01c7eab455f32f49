import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { type FileHandle, open, realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, sep } from 'node:path';
import type { Manifest } from '../../../manifest';
import { contentTypeOf } from '../../../package/contentTypeOf';
import type { PackageFile } from '../../../package';
import { secretIn } from '../../../package/secretIn';
import { isArchive } from '../../../package/unpackedMembers';
import { leftOutOfPackage } from '../../../package/leftOutOfPackage';
import { describePathProblem, packagePathOf } from '../../../package/readPackage';
import type { DevBlockedRequest } from '../../devContract';
import { blockedAdvice, CSP_REPORT_PATH, type PackagePolicies, packageCsp } from './packageCsp';
import { sendFile } from './sendFile';
import { closeServer } from '../closeServer';

/**
 * Whether a content type is an HTML page, which gets the client's meta tag. Media types are case-insensitive. Every
 * answer carries the policies, not pages alone: an SVG or XML document runs scripts too, and a worker's script
 * answer sets the worker's own policy.
 */
const isPage = (type: string) => type.toLowerCase().startsWith('text/html');

/** The two policies as one header's values: a browser enforces each of them. */
const headerOf = (policies: PackagePolicies) => [policies.declared, policies.platform];

/** How much of a file svc dev looks through for a private key before serving it. */
const KEY_SCAN_BYTES = 1024 * 1024;
const ARCHIVE_SCAN_BYTES = 64 * 1024 * 1024;

/**
 * How many of a served file's bytes are looked through for secrets, from its first MiB (`head`) and its size: the
 * first MiB, or an archive's (gzip, zip) first 64 MiB, as svc pack reads it whole: a key may be a later member.
 */
const scanLength = (head: Buffer, size: number) =>
  Math.min(size, isArchive(head) ? ARCHIVE_SCAN_BYTES : KEY_SCAN_BYTES);

/** The bytes of a folder's file that {@link scanLength} says are looked through, read from its descriptor. */
async function scannedBytes(handle: FileHandle, size: number): Promise<Buffer> {
  const { buffer: head, bytesRead } = await handle.read(Buffer.alloc(KEY_SCAN_BYTES), 0, KEY_SCAN_BYTES, 0);
  const read = head.subarray(0, bytesRead);
  const length = scanLength(read, size);
  if (length <= bytesRead) return read;
  const whole = Buffer.alloc(length);
  return whole.subarray(0, (await handle.read(whole, 0, whole.length, 0)).bytesRead);
}

/**
 * {@link secretIn} of a served file, searched once per version of the file (its inode, size and modification time,
 * from `info`, the open file's own) and of the secrets looked for: an archive's members take seconds to search, and a
 * page loads its files again and again. The latest 1,000 verdicts are kept.
 */
function searchedOnce() {
  const verdicts = new Map<string, ReturnType<typeof secretIn>>();
  return async (
    handle: FileHandle,
    info: Stats,
    keyForms: readonly (string | Uint8Array)[],
    live: readonly string[],
  ) => {
    const { ino, dev, size, mtimeMs, ctimeMs } = info;
    const key = `${dev}:${ino}:${size}:${mtimeMs}:${ctimeMs}:${live.join(',')}`;
    if (verdicts.has(key)) return verdicts.get(key);
    const verdict = secretIn(await scannedBytes(handle, size), keyForms, live);
    if (verdicts.size >= 1000) verdicts.delete(verdicts.keys().next().value!);
    verdicts.set(key, verdict);
    return verdict;
  };
}

/**
 * {@link secretIn} of a package's file (the one svc dev started with, or one its store accepted), searched once per
 * file and secrets looked for: a package built by other tools, or by svc pack, which cannot know this run's secrets,
 * may hold them (sec44 F3: a published package's /secret.txt was served with the signing secret).
 */
function packagedSearchedOnce() {
  const verdicts = new WeakMap<PackageFile, { live: string; verdict: ReturnType<typeof secretIn> }>();
  return (file: PackageFile, keyForms: readonly (string | Uint8Array)[], live: readonly string[]) => {
    const secrets = live.join(',');
    const known = verdicts.get(file);
    if (known?.live === secrets) return known.verdict;
    // As much of it as of a folder's file.
    const body = Buffer.from(file.body.buffer, file.body.byteOffset, file.body.byteLength);
    const verdict = secretIn(
      body.subarray(0, scanLength(body.subarray(0, KEY_SCAN_BYTES), body.length)),
      keyForms,
      live,
    );
    verdicts.set(file, { live: secrets, verdict });
    return verdict;
  };
}

/** Answers 404 for a file that is or holds a secret, and tells where blocked requests go. */
function refusedSecret(
  res: ServerResponse,
  path: string,
  secret: NonNullable<ReturnType<typeof secretIn>>,
  onBlocked: PackageServerOptions['onBlocked'],
): void {
  // svc dev's own secrets are known to it alone: svc pack, another process, cannot look for them.
  const refusing = secret.running ? 'svc dev does not serve it' : 'svc pack refuses to pack it and svc dev to serve it';
  const advice = `${path.slice(1)} ${secret.what}; ${refusing} (anyone who can load the app's files could read it): ${secret.advice}.`;
  onBlocked?.({
    blocked: path,
    directive: secret.running ? 'svc dev' : 'svc pack',
    advice,
    at: new Date().toISOString(),
  });
  fail(res, 404, `${path}: ${advice}`);
}

/** A request the package's policies blocked, as the platform logs it. @public */
export type BlockedRequest = DevBlockedRequest;

/** Options of {@link createPackageServer}. @public */
export interface PackageServerOptions {
  /** The package folder. */
  dir: string;
  manifest: Manifest;
  /** The only origin allowed to frame the package, and the host origin its pages trust. */
  messengerOrigin: string;
  /** Loopback backends the app may reach besides `network` (`--allow`). */
  allow?: readonly string[];
  /** Port on 127.0.0.1; default a free one. */
  port?: number;
  /**
   * Absolute paths never served even inside the folder, nor files beside them named `<path>.<anything>` (the
   * state file holding the signing secret and its temporary files, the backend's env file).
   */
  exclude?: readonly string[];
  /** The developer key's forms no served file may hold (see `DevPlatformOptions.keyForms`); asked once. */
  keyForms?: () => Promise<readonly (string | Uint8Array)[]>;
  /** The running platform's secrets (its signing secrets and tokens) no served file may hold: a copy of its files. */
  secrets?: () => readonly string[];
  /**
   * Serve a signed package's files (by path) with its manifest's CSP instead of the folder (while it returns one):
   * nothing else is reachable. Asked on every request, so an update the store accepted is served at once.
   */
  source?: () => { manifest: Manifest; files: ReadonlyMap<string, PackageFile> } | undefined;
  /** Called for every request the browser reports blocked. */
  onBlocked?: (request: BlockedRequest) => void;
}

/**
 * The file a request's URL path asks for (PACKAGE.md, "Serving"), or the answer's status and why not. The path is
 * decoded segment by segment: an encoded slash (%2F) stays inside its segment, where it names no file, as no package
 * path holds one. `/` is the entry document as the manifest names it (`./index.html?v=2` is /index.html); a folder,
 * its index.html.
 */
function requestedPath(pathname: string, entry: string): { path: string } | { status: 400 | 404; detail: string } {
  let path: string;
  try {
    path = pathname.split('/').map(decodeURIComponent).join('/');
  } catch {
    return { status: 400, detail: 'malformed path.' };
  }
  const segments = path.split('/');
  if (segments.length !== pathname.split('/').length)
    return { status: 404, detail: `${pathname} names no file: a path's segments hold no encoded slash (%2F).` };
  // Compared exactly, as a host looks a path up in the package's index: no segment is empty, `.` or `..`.
  if (segments.slice(1, -1).includes('') || segments.some((segment) => segment === '.' || segment === '..'))
    return { status: 404, detail: `${pathname} names no file: a package path has no empty, . or .. segment.` };
  if (path === '/') return { path: packagePathOf(entry) ?? `/${entry}` };
  return { path: path.endsWith('/') ? `${path}index.html` : path };
}

/**
 * The developer key's forms, read when the first file is served (never on the way to the printed URL) and kept; a
 * key that cannot be read has none.
 */
function readOnce(read: (() => Promise<readonly (string | Uint8Array)[]>) | undefined) {
  let forms: Promise<readonly (string | Uint8Array)[]> | undefined;
  return () => (forms ??= (read?.() ?? Promise.resolve([])).catch(() => []));
}

/**
 * The file of the app folder `dir` that `path` names, or why it is not in the package: nothing outside the folder, no
 * dotfile (.env, .git: a package has none worth serving), no .swbn, nothing excluded, nothing reached through a
 * symbolic link (svc pack refuses links, so the app would not find the file once packed, and a link may lead out of
 * the folder), and no file whose name svc pack refuses (then with the blocked request to tell). `realDir` is the
 * folder as the file system names it: its own path may go through a link, as /tmp does on macOS.
 */
async function fileInFolder(
  dir: string,
  realDir: string,
  path: string,
  exclude: readonly string[],
): Promise<string | { missing: string; blocked?: BlockedRequest }> {
  const root = normalize(dir + sep);
  const file = normalize(join(root, path));
  if (!file.startsWith(root) || exclude.some((p) => file === normalize(p) || file.startsWith(`${normalize(p)}.`)))
    return { missing: 'not in the package.' };
  const leftOut = leftOutOfPackage(file.slice(root.length).split(sep));
  if (leftOut === 'dotfile') return { missing: 'not in the package.' };
  if (leftOut === 'package') return { missing: `${path} is a package, and svc pack leaves packages out.` };
  if (leftOut === 'declarations')
    return { missing: `${path} holds TypeScript declarations, which svc pack leaves out (no page loads them).` };
  const info = await stat(file).catch(() => undefined);
  if (info?.isDirectory())
    return { missing: `${path} is a folder, and a package holds files: link to ${path}/ for its index.html.` };
  if (!info?.isFile()) return { missing: `${path} is not in the package.` };
  if ((await realpath(file)) !== join(realDir, file.slice(root.length)))
    return {
      missing: `${path} is reached through a symbolic link; a package holds files only: copy the file in, or remove the link.`,
    };
  // A name svc pack refuses (a space, an accent) would never reach a host: not served here either, and told where
  // blocked requests go, since a missing image or script is easy to miss in the page.
  const unpackable = describePathProblem(path);
  if (unpackable) {
    const advice = `svc pack refuses the file name "${path.slice(1)}", so no host would serve it: ${unpackable}; rename it.`;
    const blocked = { blocked: path, directive: 'svc pack', advice, at: new Date().toISOString() };
    return { missing: `${path}: ${advice}`, blocked };
  }
  return file;
}

// What may come before a page's head and stays before the first element: ASCII white space (HTML's: a no-break space
// or a second byte order mark is text, which opens the body), comments (`<!-->` and `<!--->` are whole ones, `--!>`
// ends one too; one left open runs to the end), the doctype (before it, the page would render in quirks mode), a
// processing instruction, and the `<html>` start tag.
const PROLOGUE = /[\t\n\f\r ]+|<!--(?:-?>|[\s\S]*?(?:--!?>|$))|<![^>]*>|<\?[^>]*>/y;
// A start tag, to its `>`: a quoted attribute value may hold one (`<head data-x="a>b">`). The text between quoted
// values is one run each (a group repeated per character overflowed the stack on a tag of millions of characters).
const START_TAG = /<([a-zA-Z][^\s/>]*)[^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*>/y;

/**
 * The page's text with `element` first in its head, before anything that runs (PACKAGE.md, "Serving"): after the
 * prologue and the `<html>` tag, after the `<head>` tag when the next tag is that one, else before whatever comes
 * next (a `<script>` there opens the head itself, and would run before a tag placed after a later `<head>`). Read as
 * a browser reads it: a `<head>` inside a comment or an attribute value is none. `at` is where the text starts (after
 * a byte order mark).
 */
function withFirstInHead(html: string, element: string, at = 0): string {
  for (;;) {
    PROLOGUE.lastIndex = at;
    const skipped = PROLOGUE.exec(html)?.[0];
    if (skipped) {
      at += skipped.length;
      continue;
    }
    START_TAG.lastIndex = at;
    const tag = START_TAG.exec(html);
    const name = tag?.[1]?.toLowerCase();
    if (name === 'html' || name === 'head') at += tag![0].length;
    if (name !== 'html') return `${html.slice(0, at)}${element}${html.slice(at)}`;
  }
}

/**
 * The page's bytes with `element` (ASCII) first in its head, every other byte as it was: a UTF-16 page (its byte
 * order mark says so, and a browser reads it so whatever the header) gets the element in UTF-16; any other is read a
 * byte a character, so UTF-8, its byte order mark, and a page in another charset keep their bytes.
 */
function pageWithFirstInHead(html: Buffer, element: string): Buffer {
  const littleEndian = html[0] === 0xff && html[1] === 0xfe;
  if (littleEndian || (html[0] === 0xfe && html[1] === 0xff)) {
    // Whole code units only: an odd last byte stays as it is, after them.
    const units = Buffer.from(html.subarray(0, html.length - (html.length % 2)));
    const text = (littleEndian ? units : units.swap16()).toString('utf16le');
    const out = Buffer.from(withFirstInHead(text, element, 1), 'utf16le');
    return Buffer.concat([littleEndian ? out : out.swap16(), html.subarray(units.length)]);
  }
  const utf8Mark = html[0] === 0xef && html[1] === 0xbb && html[2] === 0xbf;
  return Buffer.from(withFirstInHead(html.toString('latin1'), element, utf8Mark ? 3 : 0), 'latin1');
}

/**
 * A plain-text answer of the package server. It names the path asked for, so it is never sniffed as a page
 * (`nosniff`), as the files it serves are not.
 */
const fail = (res: ServerResponse, status: number, detail: string) =>
  res
    .writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' })
    .end(`${detail}\n`);

/** The characters of a reported URL kept: a URL longer is cut (a data: URL, a tracker's query). */
const MAX_BLOCKED_URI = 1000;

/** A CSP report the browser sent, told as a blocked request with what to change. */
async function receiveReport(
  req: IncomingMessage,
  res: ServerResponse,
  options: Pick<PackageServerOptions, 'onBlocked' | 'messengerOrigin'>,
) {
  // Browsers send CSP reports as application/csp-report, a type no other site's page can send here without a
  // preflight this server never answers: any other type is a forged report, which the messenger would show.
  if (req.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== 'application/csp-report')
    return fail(res, 415, 'CSP reports only (application/csp-report).');
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    // The rest of the body is not read: the connection closes, or the next request on it would wait behind it.
    if (text.length > 64_000) return fail(res.setHeader('connection', 'close'), 413, 'report too large.');
  }
  try {
    const r = JSON.parse(text)['csp-report'] ?? {};
    // Bounded: what the platform keeps and the messenger shows stays small, whatever a report holds.
    const blocked = String(r['blocked-uri'] ?? '').slice(0, MAX_BLOCKED_URI);
    const directive = String(r['effective-directive'] ?? r['violated-directive'] ?? '').slice(0, 100);
    options.onBlocked?.({
      blocked,
      directive,
      advice: blockedAdvice(blocked, directive, options.messengerOrigin),
      at: new Date().toISOString(),
    });
  } catch {
    // A malformed report is dropped: it is the browser's, and nothing waits on it.
  }
  res.writeHead(204).end();
}

/**
 * Serves a mini app package on its own origin (`http://localhost:<port>`, another site than the messenger on
 * 127.0.0.1), as the platform would: its pages carry the manifest's CSP, a platform policy that only the messenger
 * may frame them and that `fetch`/WebSocket reach only the `network` hosts (and the `--allow` backends), and the
 * `<meta name="svc-host-origins">` the client needs. Blocked requests come back as CSP reports.
 * @public
 */
export async function createPackageServer(options: PackageServerOptions) {
  const realDir = await realpath(options.dir);
  let manifest = options.manifest;
  // The reports' address is this run's own, and only the app's pages carry it (in their CSP header): another site's
  // page could otherwise point its own CSP's reports here and fill the messenger with advice of its choosing.
  const reportPath = `${CSP_REPORT_PATH}/${randomBytes(12).toString('base64url')}`;
  const csp = (m: Manifest) => packageCsp(m, options.messengerOrigin, options.allow ?? [], reportPath);
  let policies = csp(manifest);
  const meta = `<meta name="svc-host-origins" content="${options.messengerOrigin}">`;
  let hosts: string[] = [];
  const keyForms = readOnce(options.keyForms);
  const secretOfFile = searchedOnce();
  const secretOfPackaged = packagedSearchedOnce();
  const refuseSecret = (res: ServerResponse, path: string, secret: NonNullable<ReturnType<typeof secretIn>>) =>
    refusedSecret(res, path, secret, options.onBlocked);

  async function handle(req: IncomingMessage, res: ServerResponse) {
    // DNS rebinding: only requests addressed to this server by its loopback names.
    if (!hosts.includes(req.headers.host ?? '')) return fail(res, 403, 'unknown Host; use the URL svc dev printed.');
    const url = new URL(req.url ?? '/', 'http://localhost');
    // RFC 9110: a 405 names the methods the resource takes.
    if (url.pathname === reportPath) {
      if (req.method === 'POST') return receiveReport(req, res, options);
      return fail(res.setHeader('allow', 'POST'), 405, 'the browser POSTs CSP reports here.');
    }
    if (url.pathname.startsWith(CSP_REPORT_PATH))
      return fail(res, 404, "not this run's report address: the browser sends reports where the page's CSP says.");
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return fail(res.setHeader('allow', 'GET, HEAD'), 405, 'the package is read-only.');
    const source = options.source?.();
    // The path as sent: `new URL` would resolve `..` and read `//x/` as a host, where a package names no such file.
    const sent = req.url?.startsWith('/') ? req.url.replace(/[?#][\s\S]*$/, '') : url.pathname;
    const asked = requestedPath(sent, (source?.manifest ?? manifest).entry);
    if ('status' in asked) return fail(res, asked.status, asked.detail);
    const { path } = asked;
    if (source) {
      const { manifest, files } = source;
      const found = files.get(path);
      if (!found) return fail(res, 404, `${path} is not in the package.`);
      const secret = secretOfPackaged(found, await keyForms(), options.secrets?.() ?? []);
      if (secret) return refuseSecret(res, path, secret);
      const bytes = Buffer.from(found.body.buffer, found.body.byteOffset, found.body.byteLength);
      const ofPackage = csp(manifest);
      return isPage(found.contentType)
        ? sendPage(req, res, found.contentType, bytes, ofPackage)
        : sendFile(
            req,
            res,
            found.contentType,
            bytes.length,
            (start, end) => bytes.subarray(start, end + 1),
            headerOf(ofPackage),
          );
    }
    const file = await fileInFolder(options.dir, realDir, path, options.exclude ?? []);
    if (typeof file !== 'string') {
      if (file.blocked) options.onBlocked?.(file.blocked);
      return fail(res, 404, file.missing);
    }
    const type = contentTypeOf(file);
    // Files are read from one open descriptor, each range from its offset: a video is read as the browser asks for
    // it, not whole per request, and its size and bytes come from the same file even if a build replaces it.
    const handle = await open(file);
    let streamed = false;
    try {
      // A key is looked for in the file's first MiB: a key file is a few KB, whatever text comes before it, and a
      // large media file is not read whole for each range the browser asks for. svc pack reads the whole file.
      // One fstat for the search's key and the size sent: both of the file this descriptor holds.
      const info = await handle.stat();
      const secret = await secretOfFile(handle, info, await keyForms(), options.secrets?.() ?? []);
      if (secret) return refuseSecret(res, path, secret);
      if (isPage(type)) return sendPage(req, res, type, await handle.readFile(), policies);
      sendFile(
        req,
        res,
        type,
        info.size,
        (start, end) => {
          streamed = true;
          return handle.createReadStream({ start, end });
        },
        headerOf(policies),
      );
    } finally {
      if (!streamed) await handle.close();
    }
  }

  /** A page: with its policies, and the meta tag the client reads first in its head. */
  function sendPage(req: IncomingMessage, res: ServerResponse, type: string, html: Buffer, page: PackagePolicies) {
    const bytes = pageWithFirstInHead(html, meta);
    return sendFile(req, res, type, bytes.length, (start, end) => bytes.subarray(start, end + 1), headerOf(page));
  }

  const servers = await listenOnBothLoopbacks(
    options.port,
    (req, res) => void handle(req, res).catch(() => fail(res, 500, 'internal error.')),
  );
  const port = (servers[0]!.address() as AddressInfo).port;
  hosts = [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`];
  const origin = `http://localhost:${port}`;
  return {
    /** The package's origin: `http://localhost:<port>`. */
    origin,
    /** The entry page's URL. */
    entryUrl: `${origin}/${options.manifest.entry.replace(/^\//, '')}`,
    /** The CSP the package's pages carry: the manifest's own, and the platform's. */
    get policies() {
      return policies;
    },
    /** Serves an edited manifest's policies from now on (the entry URL stays the one the server started with). */
    setManifest(next: Manifest) {
      manifest = next;
      policies = csp(next);
    },
    close: () => Promise.all(servers.map(closeServer)).then(() => {}),
  };
}

/** Listens on `port` of one loopback address; a failure to bind rejects with Node's error. */
const listenOn = (server: Server, port: number, host: string) =>
  new Promise<void>((ok, no) => server.once('error', no).listen(port, host, ok));

/**
 * One port on both loopback addresses, 127.0.0.1 and ::1. The package's origin is `http://localhost:<port>`, and
 * browsers resolve `localhost` to ::1 first: a server on 127.0.0.1 alone left [::1]:<port> to any other program, which
 * then got the app's frame and its launch context. A port whose ::1 side another program holds is taken
 * (`EADDRINUSE`, for the caller to move or report); a machine without IPv6 serves 127.0.0.1 alone. With no port given,
 * a free one on both is looked for.
 */
async function listenOnBothLoopbacks(port: number | undefined, handler: RequestListener): Promise<Server[]> {
  for (let tries = 0; ; tries++) {
    const v4 = createServer(handler);
    await listenOn(v4, port ?? 0, '127.0.0.1');
    const bound = (v4.address() as AddressInfo).port;
    const v6 = createServer(handler);
    const failed = await listenOn(v6, bound, '::1').then(
      () => undefined,
      (error: NodeJS.ErrnoException) => error,
    );
    if (!failed) return [v4, v6];
    if (failed.code === 'EADDRNOTAVAIL' || failed.code === 'EAFNOSUPPORT') return [v4];
    await closeServer(v4);
    if (port !== undefined && port !== 0) throw failed;
    if (tries >= 20) throw failed;
  }
}

/** A running package server. @public */
export type PackageServer = Awaited<ReturnType<typeof createPackageServer>>;
