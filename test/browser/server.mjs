// Static servers for the browser suite: the same files on several loopback ports, so that each port is an origin.
// Only 127.0.0.1 is bound; `localhost` (which Chromium resolves to loopback) gives a second site for cross-site pairs.
import { createServer } from 'node:http';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '../..');
// dist/ is served from a copy taken at start, so that a rebuild running meanwhile cannot break a test half-way.
const roots = {
  '/dist/': join(root, 'dist'),
  '/fixtures/': join(import.meta.dirname, 'fixtures'),
  '/node_modules/': join(root, 'node_modules'),
};
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
};

let extraHeaders = {};
// Every origin the servers answer on: the app pages trust these as hosts (<meta name="svc-host-origins">), as the
// platform serving a package would write it; the hostile tests rely on origin and window checks beyond it.
let hostOrigins = '';

// The mock as an app's bundler would bundle it, for the Web Worker case (workers do not read an import map).
let mockBundle = '';

async function handle(req, res) {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (path === '/bundle/mock.js') return res.writeHead(200, { 'content-type': types['.js'] }).end(mockBundle);
  const prefix = Object.keys(roots).find((p) => path.startsWith(p));
  // An import map onto a package's folder (`@noble/hashes/sha2`) leaves out the `.js` its exports map would add.
  const rest = path.slice(prefix?.length ?? 0);
  const file =
    prefix && normalize(join(roots[prefix], prefix === '/node_modules/' && !extname(rest) ? `${rest}.js` : rest));
  if (!file?.startsWith(roots[prefix])) return res.writeHead(404).end();
  try {
    let body = await readFile(file);
    // `?trust=<origins>` on a page narrows the host origins it lists to those (an app that trusts only its host).
    const trust = new URL(req.url, 'http://x').searchParams.get('trust') ?? hostOrigins;
    if (extname(file) === '.html')
      body = String(body).replace('<meta charset="utf-8">', `$&<meta name="svc-host-origins" content="${trust}">`);
    res
      .writeHead(200, {
        'content-type': types[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        ...extraHeaders,
      })
      .end(body);
  } catch {
    res.writeHead(404).end();
  }
}

/**
 * Starts `count` servers on ephemeral ports; returns their ports and a close function.
 * `roots` adds URL prefixes served from folders; `headers` go on every response (the benchmark isolates its pages).
 */
export async function startServers(count, { roots: more = {}, headers = {} } = {}) {
  Object.assign(roots, more);
  extraHeaders = headers;
  const copy = await mkdtemp(join(tmpdir(), 'svc-dist-'));
  // SVC_DIST serves another build (e.g. a deliberately broken one, to check that the hostile tests catch it).
  await cp(process.env.SVC_DIST || join(root, 'dist'), copy, { recursive: true });
  roots['/dist/'] = copy;
  const bundled = await build({
    entryPoints: [join(copy, 'mock.js')],
    // The copy sits outside the project: its imports resolve in the project's node_modules.
    nodePaths: [join(root, 'node_modules')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  mockBundle = bundled.outputFiles[0].text;
  const servers = [];
  for (let i = 0; i < count; i++) {
    const server = createServer((req, res) => void handle(req, res));
    await new Promise((ok, fail) => server.once('error', fail).listen(0, '127.0.0.1', ok));
    servers.push(server);
  }
  const ports = servers.map((s) => s.address().port);
  hostOrigins = ports.flatMap((p) => [`http://127.0.0.1:${p}`, `http://localhost:${p}`]).join(' ');
  return {
    ports,
    close: async () => {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise((ok) => {
              s.closeAllConnections();
              s.close(() => ok());
            }),
        ),
      );
      await rm(copy, { recursive: true, force: true });
    },
  };
}
