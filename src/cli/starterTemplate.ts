import { deflateSync } from 'node:zlib';
import type { ManifestInput } from '../manifest';
import { createStarterManifest } from './starterManifest';

/** Options of {@link starterTemplate}. */
export interface StarterOptions {
  /** The app's name (the manifest's `name`). */
  name: string;
  /** The npm package name of the project. */
  slug: string;
  /** The 16-hex-character id. */
  id: string;
  /** The svc-sdk version range the project depends on. */
  sdkRange: string;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
};

/**
 * A square PNG icon: a rounded tile in the accent colour with a lighter speech bubble, so the starter's icons exist,
 * are real PNGs of the declared sizes, and can be told apart from a blank square.
 * @internal
 */
export function starterIcon(size: number): Buffer {
  const rows: Buffer[] = [];
  const r = size * 0.18;
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) {
      // Rounded corners: transparent outside a radius r from each corner.
      const cx = Math.min(Math.max(x, r), size - r);
      const cy = Math.min(Math.max(y, r), size - r);
      const inside = (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
      const bubble = x > size * 0.25 && x < size * 0.75 && y > size * 0.28 && y < size * 0.62;
      const tail = y >= size * 0.62 && y < size * 0.74 && x > size * 0.3 && x < size * 0.3 + (size * 0.74 - y);
      const [red, green, blue] = bubble || tail ? [255, 255, 255] : [56, 103, 214];
      row.set([red!, green!, blue!, inside ? 255 : 0], 1 + x * 4);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The starter's manifest: svc-exchange with a backend, the room scope, icons that the template writes. */
function starterAppManifest(options: StarterOptions): ManifestInput {
  return {
    ...createStarterManifest({ name: options.name, id: options.id }),
    routes: [{ path: '/', title: options.name }],
    permissions: [{ scope: 'svc.room.context', purpose: 'Post the hello card into the room you opened the app in.' }],
    network: { connect: ['api.example.com'] },
    csp: "default-src 'self'; connect-src https://api.example.com; script-src 'self'; object-src 'none'; base-uri 'none'",
    auth: { type: 'svc-exchange', audience: `${options.slug}-backend`, scopes: ['hello.write'] },
  };
}

/**
 * The files of a new app (`svc init --template vite`), by path: a Vite + TypeScript page on the svc client, its
 * manifest and icons (in `public/`, so `vite build` makes `dist/` a package), a backend on `svc-sdk/server`, a
 * Vitest test against `svc-sdk/mock`, an end-to-end test of the backend against `svc-sdk-dev`, and `npm run dev`
 * starting Vite, the backend and the simulated messenger together with one URL printed.
 */
export function starterTemplate(options: StarterOptions): Record<string, string | Buffer> {
  const manifest = starterAppManifest(options);
  return {
    'package.json': `${JSON.stringify(
      {
        name: options.slug,
        version: '0.1.0',
        private: true,
        type: 'module',
        scripts: {
          dev: 'node scripts/dev.mjs',
          build: 'tsc --noEmit && svc check && vite build && svc validate dist',
          test: 'svc check && vitest run',
        },
        dependencies: { 'svc-sdk': options.sdkRange },
        // svc-sdk-dev: svc dev, svc check and svc pack, which the scripts and the end-to-end test use; the app and
        // its backend need svc-sdk alone.
        devDependencies: {
          '@types/node': '^20.19.0',
          'svc-sdk-dev': options.sdkRange,
          typescript: '~6.0.3',
          vite: '^8.0.0',
          vitest: '^4.1.0',
        },
      },
      null,
      2,
    )}\n`,
    '.gitignore': `node_modules/
dist/
# The backend's settings (the signing secret among them) and the simulated messenger's state, with their locks.
.env
.env.*
.svc-dev.json
.svc-dev.json.lock
`,
    'README.md': `# ${options.name}

A mini app made with \`svc init --template vite\`.

- \`npm run dev\`: Vite, the backend (server/backend.js) and the simulated messenger together; open the URL it
  prints. Edits of \`src/\` reload the app; the backend (\`server/\`) runs in the same process, so an edit of it takes
  a restart (Ctrl-C, then \`npm run dev\`). The messenger's state lives in \`.svc-dev.json\` (\`npm run dev -- --reset\`
  starts afresh). Vite serves on port 5173 and the messenger on 4310, each on the next free one when it is taken,
  and the backend on any free port; \`VITE_PORT\`, \`SVC_DEV_PORT\` and \`BACKEND_PORT\` in the environment start
  them elsewhere.
- \`npm test\`: the app against \`svc-sdk/mock\` (test/app.test.ts) and the backend end to end against the local
  platform of \`svc-sdk-dev\` (test/backend.test.ts).
- \`npm run build\`: type-checks, builds \`dist/\` (the page, \`manifest.json\` and the icons from \`public/\`: a
  package), and validates it (\`svc validate dist\` checks the entry and the icons are there).
- The built package with its backend, as a host runs it: the page calls the backend at \`VITE_BACKEND_URL\`, which
  the build bakes in (\`npm run dev\` sets it; without it the page calls \`https://api.example.com\`), and the
  messenger must send the backend its webhooks and let the page reach it:

  \`\`\`sh
  VITE_BACKEND_URL=http://127.0.0.1:8787 npm run build
  npx svc dev dist --webhooks http://127.0.0.1:8787/svc/webhooks --allow http://127.0.0.1:8787 --backend-env .env
  # in a second terminal, once svc dev runs (it wrote .env): the backend on 8787 (PORT for another)
  node --env-file=.env server/backend.js
  \`\`\`

The id in \`public/manifest.json\` is derived from this app's key, which \`svc init\` wrote outside the project
(\`~/.svc-sdk/keys/<id>.pem\`): back it up, never commit it. \`npm run build && npx svc pack dist\` signs the
package (\`<name>-<version>.swbn\`); \`npx svc verify\` checks it as a host does.

Before publishing: replace the description and the vendor in \`public/manifest.json\` (\`svc validate\` warns until
you do), and \`api.example.com\` with your backend's host.
`,
    'tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: {
          target: 'es2022',
          module: 'esnext',
          moduleResolution: 'bundler',
          strict: true,
          resolveJsonModule: true,
          // The backend is plain JavaScript (Node runs it as is); its JSDoc types reach the tests.
          allowJs: true,
          lib: ['es2022', 'dom'],
          types: ['vite/client', 'node'],
          skipLibCheck: true,
          noEmit: true,
        },
        include: ['src', 'test'],
      },
      null,
      2,
    )}\n`,
    'vite.config.ts': `/// <reference types="vitest/config" />
import { defineConfig } from 'vite';

// base './': the built page finds its assets beside it, wherever the package is served from.
export default defineConfig({
  base: './',
  build: { outDir: 'dist' },
  // Vite serves the project's files to any page on this machine: not the messenger's state (.svc-dev.json holds the
  // signing secret and the MCP token) nor its lock. Vite's own list (env files, keys, .git) is kept.
  server: { fs: { deny: ['.env', '.env.*', '*.{crt,pem}', '**/.git/**', '.svc-dev.json*'] } },
  test: { include: ['test/**/*.test.ts'] },
});
`,
    'index.html': `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.name}</title>
</head>
<body>
<h1 id="hello">${options.name}</h1>
<button id="say-hello" type="button">Say hello in the room</button>
<p id="status" role="status"></p>
<script type="module" src="/src/main.ts"></script>
</body>
</html>
`,
    'src/main.ts': `// The page: one button that asks the backend to post a hello card into the room.
import { svc } from 'svc-sdk';
import { createApp } from './app';
import './style.css';

const app = createApp(svc, fetch, import.meta.env.VITE_BACKEND_URL ?? 'https://api.example.com');
const status = document.getElementById('status')!;
document.body.dataset.theme = svc.app.theme;
svc.app.onThemeChange((theme) => {
  document.body.dataset.theme = theme;
});
const sayHello = document.getElementById('say-hello')!;
sayHello.addEventListener('click', async () => {
  status.textContent = await app.sayHello();
  // The host's permission sheet, if it showed one, took the focus out of this frame: give it back to the button.
  if (document.activeElement === document.body) sayHello.focus();
});
`,
    'src/app.ts': `// What the app does, apart from the page: testable against svc-sdk/mock with a stand-in for fetch.
import { isSvcError, type Svc } from 'svc-sdk';

/** The part of fetch the app uses. */
export type Fetch = (url: string, init: RequestInit) => Promise<Pick<Response, 'ok' | 'status' | 'json'>>;

export function createApp(svc: Svc, fetch: Fetch, api: string) {
  /** Asks the backend to post a hello card into the current room; returns what to tell the person. */
  async function sayHello(): Promise<string> {
    try {
      if ((await svc.permissions.request('room.context')) != 'granted') return 'Hello needs to know the room.';
      const room = await svc.room.current();
      if (!room) return 'Open the app from a room to say hello there.';
      // A fresh token for each request: never cached, never stored.
      const { access_token } = await svc.auth.getToken();
      const res = await fetch(\`\${api}/hello\`, {
        method: 'POST',
        headers: { authorization: \`Bearer \${access_token}\`, 'content-type': 'application/json' },
        body: JSON.stringify({ room_id: room.room_id }),
      });
      const answer = (await res.json()) as { posted?: boolean; error?: string };
      if (!res.ok) return answer.error ?? \`The backend answered \${res.status}.\`;
      return answer.posted ? \`Hello posted in \${room.name}.\` : (answer.error ?? 'Not posted.');
    } catch (error) {
      // fetch's own error names no address ("Failed to fetch"): this one does.
      return isSvcError(error) ? \`\${error.code}: \${error.message}\` : \`\${String(error)} (calling \${api}/hello)\`;
    }
  }
  return { sayHello };
}
`,
    'src/style.css': `body { font: 15px/1.5 system-ui, sans-serif; margin: 16px; background: #fff; color: #1d2330; }
body[data-theme="dark"] { background: #1b1f24; color: #e6e9ee; }
button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 0; background: #3867d6; color: #fff; cursor: pointer; }
body[data-theme="dark"] button { background: #8ea8ff; color: #0b1020; }
`,
    'public/manifest.json': `${JSON.stringify(manifest, null, 2)}\n`,
    'public/icons/icon-192.png': starterIcon(192),
    'public/icons/icon-512.png': starterIcon(512),
    'server/backend.js': `// The backend: verifies the app's token, posts a card through the signed server API, handles webhooks once each.
// Run alone with \`node --env-file=.env server/backend.js\` beside the built package in svc dev, which writes the settings
// (README.md has both commands), or from scripts/dev.mjs and the tests, which pass the settings in.
import { createServer } from 'node:http';
import {
  createMemoryIdempotencyStore,
  createServerClient,
  createTokenVerifier,
  createWebhookHandler,
  isSvcApiError,
} from 'svc-sdk/server';

/**
 * @typedef {object} BackendOptions
 * @property {string} apiBase the server API base, ending in /v1 (SVC_API_BASE)
 * @property {string} authUrl the identity provider (SVC_AUTH_URL)
 * @property {string} realm SVC_REALM
 * @property {string} audience the audience of the app's tokens (SVC_AUDIENCE)
 * @property {string} miniAppId SVC_MINI_APP_ID
 * @property {() => string[]} signingSecrets the secrets that verify now, newest first (a rotation adds one)
 * @property {string} appOrigin the app's exact origin, the only one allowed to call from a browser
 * @property {number} [port] default any free one
 */

/** Starts the backend on 127.0.0.1. @param {BackendOptions} options */
export async function createBackend(options) {
  const verifier = createTokenVerifier({ authUrl: options.authUrl, realm: options.realm, audience: options.audience });
  const store = createMemoryIdempotencyStore();
  /** @type {string[]} */
  const events = [];
  const on = {
    'installation.deleted': (event) => void events.push(\`installation.deleted \${event.app_user_id}\`),
    'scope.granted': (event) => void events.push(\`scope.granted \${event.scope}\`),
    // The person left their organisation: delete what you keep about them here.
    'user.deprovisioned': (event) => void events.push(\`user.deprovisioned \${event.app_user_id}\`),
  };
  let current;
  // The client and the webhook handler for the secrets of now: rebuilt when a rotation changed them.
  const clients = () => {
    const secrets = options.signingSecrets();
    const key = secrets.join(' ');
    if (current?.key != key)
      current = {
        key,
        api: createServerClient({ baseUrl: options.apiBase, miniAppId: options.miniAppId, secret: secrets[0] }),
        webhooks: createWebhookHandler({ secrets, on, store }),
      };
    return current;
  };
  const cors = { 'access-control-allow-origin': options.appOrigin, vary: 'origin' };
  const send = (res, status, body) =>
    res.writeHead(status, { 'content-type': 'application/json', ...cors }).end(JSON.stringify(body));

  const server = createServer(async (req, res) => {
    try {
      const path = new URL(req.url ?? '/', 'http://backend').pathname;
      if (path == '/svc/webhooks') return clients().webhooks.node(req, res);
      if (req.method == 'OPTIONS')
        return res
          .writeHead(204, {
            ...cors,
            'access-control-allow-methods': 'POST',
            'access-control-allow-headers': 'authorization, content-type',
          })
          .end();
      if (req.method != 'POST' || path != '/hello') return send(res, 404, { error: \`no route \${req.method} \${path}\` });
      // Who is asking comes from the verified token (sub is the person's app_user_id), never from the body.
      const identity = await verifier.verifyRequest(req.headers).catch(() => undefined);
      if (!identity) return send(res, 401, { error: 'a valid token is required (svc.auth.getToken())' });
      let text = '';
      for await (const chunk of req) text += chunk;
      const { room_id } = JSON.parse(text || '{}');
      if (typeof room_id != 'string' || !room_id) return send(res, 400, { error: 'room_id is required' });
      try {
        const card = { title: 'Hello!', body: 'Someone said hello from the app.', actions: [{ label: 'Open', deep_link: '/' }] };
        await clients().api.postCard(room_id, { app_user_id: identity.sub, card });
        return send(res, 201, { posted: true });
      } catch (error) {
        if (isSvcApiError(error) && error.problem == 'room-encrypted')
          return send(res, 200, { posted: false, error: 'This room is end-to-end encrypted: the backend cannot post into it.' });
        throw error;
      }
    } catch (error) {
      if (!res.headersSent) send(res, 500, { error: isSvcApiError(error) ? error.message : 'internal error' });
    }
  });
  await new Promise((ok, fail) => server.once('error', fail).listen(options.port ?? 0, '127.0.0.1', ok));
  const origin = \`http://127.0.0.1:\${server.address().port}\`;
  return {
    origin,
    /** The webhook events handled, for tests. */
    events,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/**
 * The settings of a running svc-sdk-dev platform, for scripts/dev.mjs and the tests.
 * @param {import('svc-sdk-dev').DevPlatform} platform
 */
export const platformSettings = (platform) => ({
  apiBase: platform.baseUrl,
  authUrl: platform.authUrl,
  realm: platform.realm,
  audience: platform.audience,
  miniAppId: platform.miniAppId,
  signingSecrets: () => platform.signingSecrets,
});

if (import.meta.url == \`file://\${process.argv[1]}\`) {
  const env = process.env;
  const backend = await createBackend({
    apiBase: env.SVC_API_BASE,
    authUrl: env.SVC_AUTH_URL,
    realm: env.SVC_REALM,
    audience: env.SVC_AUDIENCE,
    miniAppId: env.SVC_MINI_APP_ID,
    signingSecrets: () => [env.SVC_SIGNING_SECRET, env.SVC_SIGNING_SECRET_PREVIOUS].filter(Boolean),
    appOrigin: env.SVC_APP_ORIGIN ?? 'http://127.0.0.1:5173',
    port: Number(env.PORT ?? 8787),
  });
  console.log(\`backend at \${backend.origin}\`);
}
`,
    'scripts/dev.mjs': `// npm run dev: Vite (the page, reloading on edits), the backend and the simulated messenger together; prints the
// messenger's URL, and one line per event (launches, webhooks, server API calls) like svc dev does.
import { rm } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { APP_OPEN_FRAGMENT, formatDevEvent, startDevPlatform } from 'svc-sdk-dev';
import { createServer } from 'vite';
import { createBackend, platformSettings } from '../server/backend.js';

const statePath = '.svc-dev.json';
if (process.argv.includes('--reset')) await rm(statePath, { force: true });
// A port from the environment (VITE_PORT, SVC_DEV_PORT, BACKEND_PORT), or the default when it is not set.
const portFrom = (name, otherwise) => {
  const text = process.env[name];
  if (!text) return otherwise;
  // Digits only: Number() also reads 0x1F, 1e3 and +80 as ports.
  const port = /^[0-9]{1,5}$/.test(text) ? Number(text) : 0;
  if (port > 0 && port < 65536) return port;
  console.error(\`\${name} is \${JSON.stringify(text)}: set it to a port from 1 to 65535, or unset it.\`);
  process.exit(1);
};
// A start that fails (a port another program holds, a state file another npm run dev has open) is one line, not a
// stack trace.
const failed = (error) => {
  console.error(\`npm run dev: \${error.message}\`);
  process.exit(1);
};
const freePort = () =>
  new Promise((ok) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => ok(port));
    });
  });

const backendUrl = \`http://127.0.0.1:\${portFrom('BACKEND_PORT') ?? (await freePort())}\`;
let messengerOrigin = '';
// The page must name the messenger it trusts: Vite writes the tag into index.html as it serves it, first in its
// head (scripts there read it), and never in a build (the host writes its own into what ships).
const hostOrigins = {
  name: 'svc-host-origins',
  apply: 'serve',
  transformIndexHtml: () => [
    { tag: 'meta', attrs: { name: 'svc-host-origins', content: messengerOrigin }, injectTo: 'head-prepend' },
  ],
};
const vite = await createServer({
  server: { host: '127.0.0.1', port: portFrom('VITE_PORT', 5173) },
  define: { 'import.meta.env.VITE_BACKEND_URL': JSON.stringify(backendUrl) },
  plugins: [hostOrigins],
  logLevel: 'warn',
  clearScreen: false,
});
await vite.listen();
const appUrl = vite.resolvedUrls.local[0];

let platform;
// The messenger on a stable port (4310, or SVC_DEV_PORT), the next free one when it is taken.
const firstPort = portFrom('SVC_DEV_PORT', 4310);
for (let port = firstPort; !platform; port++) {
  try {
    platform = await startDevPlatform({
      dir: 'public',
      port,
      appUrl,
      webhooks: \`\${backendUrl}/svc/webhooks\`,
      allow: [backendUrl],
      statePath,
      retryScale: 0.05,
      onEvent: (event) => console.error(formatDevEvent(event)),
      // What svc dev says of the app as it runs: a manifest saved invalid (and what is still served), valid again.
      onNotice: (notice) => console.error(\`svc dev: \${notice.message}\`),
    });
  } catch (error) {
    // Only the messenger's own port moves on: another one taken (the app's, kept in .svc-dev.json) is said as itself.
    if (error.code != 'EADDRINUSE' || error.port !== port || port > firstPort + 20) failed(error);
    console.error(\`port \${port} is taken; trying \${port + 1}\`);
  }
}
messengerOrigin = platform.origin;
const backend = await createBackend({
  ...platformSettings(platform),
  appOrigin: new URL(appUrl).origin,
  port: Number(new URL(backendUrl).port),
}).catch((error) =>
  failed(
    error.code == 'EADDRINUSE'
      ? new Error(\`the backend's port \${new URL(backendUrl).port} is taken by another program: set BACKEND_PORT to another, or unset it.\`)
      : error,
  ),
);
// With #app (APP_OPEN_FRAGMENT) the messenger opens the app at start, and keeps it open across reloads until it is
// closed.
console.log(\`\${platform.url}\${APP_OPEN_FRAGMENT}\`);
console.error(\`app at \${appUrl}, backend at \${backend.origin}; open the URL above. Ctrl-C stops.\`);
// The MCP endpoint and what to paste into an agent (npx svc-sdk mcp public finds this platform too).
if (platform.mcpConfigs) console.error(platform.mcpConfigs);
const stop = async () => {
  await Promise.all([vite.close(), backend.close(), platform.close()]);
  process.exit(0);
};
// Vite ends the process itself on SIGTERM, and when standard input ends, as soon as its own server is closed: before
// the messenger has removed the file svc mcp finds it by (it holds a token). This script stops all three instead.
process.removeAllListeners('SIGTERM');
process.stdin.removeAllListeners('end');
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
// npm runs this script through a shell, which a signal to npm (a CI step stopping the process it started) may end
// without passing it on: this script would run on, holding its ports. Its parent gone, it stops too.
const parent = process.ppid;
const orphaned = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphaned);
  void stop();
}, 1000).unref();
`,
    'test/app.test.ts': `// The app against svc-sdk/mock: the real svc client and a host that follows the platform's rules.
import { createMockHost } from 'svc-sdk/mock';
import { afterEach, expect, test, vi } from 'vitest';
import manifest from '../public/manifest.json';
import { createApp, type Fetch } from '../src/app';

const room = { room_id: '!general:example', name: 'General', is_encrypted: false, member_count: 3 };
let host: ReturnType<typeof createMockHost>;
afterEach(() => host?.close());

test('asks for the room, then sends the backend the room and a fresh token', async () => {
  host = createMockHost({ manifest, room, answers: { permission: () => 'granted' } });
  const fetch = vi.fn<Fetch>(async () => ({ ok: true, status: 201, json: async () => ({ posted: true }) }));
  const app = createApp(host.svc, fetch, 'https://api.example.com');
  expect(await app.sayHello()).toBe('Hello posted in General.');
  const [url, init] = fetch.mock.calls[0]!;
  expect(url).toBe('https://api.example.com/hello');
  expect(JSON.parse(String(init.body))).toEqual({ room_id: room.room_id });
  expect((init.headers as Record<string, string>).authorization).toMatch(/^Bearer \\S+$/);
});

test('says why when the person does not share the room, and calls nobody', async () => {
  host = createMockHost({ manifest, room, answers: { permission: () => 'denied' } });
  const fetch = vi.fn<Fetch>();
  expect(await createApp(host.svc, fetch, 'https://api.example.com').sayHello()).toBe('Hello needs to know the room.');
  expect(fetch).not.toHaveBeenCalled();
});
`,
    'test/backend.test.ts': `// The backend end to end against svc-sdk-dev: a real identity provider (signed tokens), the server API with its
// rules, and signed webhooks, on loopback.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type DevPlatform, startDevPlatform } from 'svc-sdk-dev';
import { createBackend, platformSettings } from '../server/backend.js';

let platform: DevPlatform;
let backend: Awaited<ReturnType<typeof createBackend>>;
beforeAll(async () => {
  platform = await startDevPlatform({ dir: 'public', port: 0, retryScale: 0.01 });
  backend = await createBackend({ ...platformSettings(platform), appOrigin: 'http://127.0.0.1:5173' });
});
afterAll(async () => {
  await backend?.close();
  await platform?.close();
});

const hello = async (room_id: string, token?: string) =>
  fetch(\`\${backend.origin}/hello\`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: \`Bearer \${token}\` } : {}) },
    body: JSON.stringify({ room_id }),
  });

test('a person\\'s token posts a hello card into a plain room', async () => {
  const token = await platform.appToken({ scopes: ['hello.write'] });
  expect((await hello('general', token)).status).toBe(201);
  expect(platform.cards('general')).toHaveLength(1);
});

test('an encrypted room is explained, and a request without a token is refused', async () => {
  const token = await platform.appToken({ scopes: ['hello.write'] });
  expect(await (await hello('board', token)).json()).toMatchObject({ posted: false });
  expect((await hello('general')).status).toBe(401);
});
`,
  };
}
