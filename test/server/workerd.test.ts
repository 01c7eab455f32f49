// svc-sdk/server in Cloudflare's Workers runtime: workerd (installed from npm as a devDependency), the runtime
// `wrangler dev` runs, serving a worker on 127.0.0.1 that receives a signed webhook, verifies an app token and posts
// a card, against the local platform over real HTTP. Workers refuse some fetch options Node takes (redirect:
// 'error'), which Deno's test cannot show.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleServerEntry } from './bundleServerEntry';
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { startDevPlatform } from '../../src/dev';
import { signRequest } from '../../src/server';

/**
 * The workerd binary itself, the path the package's main export gives. node_modules/.bin/workerd is a Node shim that
 * runs the binary with execFileSync: killing the shim left workerd serving after the tests ended.
 */
const workerd = (() => {
  try {
    return createRequire(import.meta.url)('workerd').default as string;
  } catch {
    return '';
  }
})();
const dir = mkdtempSync(join(tmpdir(), 'svc-workerd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The worker, as docs/backend.md's Workers recipe writes it: every setting from its bindings, the webhook handler
// made once per isolate (its store of deliveries lives in it), waitUntil for the work after the answer.
const worker = `
import { createServerClient, createTokenVerifier, createWebhookHandler, isSvcApiError } from './server.mjs';
const deprovisioned = [];
let webhooks;
export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname === '/svc/webhooks') {
      webhooks ??= createWebhookHandler({
        secrets: [env.SVC_SIGNING_SECRET],
        // Answered 202 at once, the work finishing after the answer: only waitUntil keeps it alive on Workers.
        ackAfterMs: 0,
        on: {
          'user.deprovisioned': async (event) => {
            await new Promise((done) => setTimeout(done, 200));
            deprovisioned.push(event.app_user_id);
          },
        },
      });
      return webhooks.handle(request, { waitUntil: ctx.waitUntil.bind(ctx) });
    }
    if (pathname === '/deprovisioned') return Response.json(deprovisioned);
    try {
      if (pathname === '/me') {
        const verifier = createTokenVerifier({ authUrl: env.SVC_AUTH_URL, realm: env.SVC_REALM, audience: env.SVC_AUDIENCE });
        const { sub, actor } = await verifier.verifyRequest(request);
        return Response.json({ sub, actor: actor?.sub, runtime: navigator.userAgent });
      }
      if (pathname === '/card') {
        const api = createServerClient({ baseUrl: env.SVC_API_BASE, miniAppId: env.SVC_MINI_APP_ID, secret: env.SVC_SIGNING_SECRET });
        return Response.json(await api.postCard('general', { app_user_id: 'au-alice', card: { title: 'From a worker', body: 'hi' } }));
      }
    } catch (error) {
      return Response.json({ message: error.message, problem: isSvcApiError(error) ? error.problem : error.code }, { status: 500 });
    }
    return new Response('not found', { status: 404 });
  },
};
`;

const freePort = () =>
  new Promise<number>((resolvePort) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });

describe('svc-sdk/server in workerd (Cloudflare Workers)', () => {
  it.skipIf(!existsSync(workerd))(
    'handles a signed webhook once, verifies an app token and posts a card to the platform',
    async () => {
      const platform = await startDevPlatform({ miniAppId: '0123456789abcdef', audience: 'polls', port: 0 });
      onTestFinished(() => platform.close());
      await bundleServerEntry(join(dir, 'server.mjs'));
      writeFileSync(join(dir, 'worker.mjs'), worker);
      const port = await freePort();
      const bindings = {
        SVC_SIGNING_SECRET: platform.signingSecret,
        SVC_API_BASE: platform.baseUrl,
        SVC_AUTH_URL: platform.authUrl,
        SVC_REALM: platform.realm,
        SVC_AUDIENCE: platform.audience,
        SVC_MINI_APP_ID: platform.miniAppId,
      };
      // Outbound requests may reach loopback, where the platform listens (wrangler dev allows it the same way).
      writeFileSync(
        join(dir, 'config.capnp'),
        `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .backend),
    (name = "loopback", network = (allow = ["local", "private", "public"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const backend :Workerd.Worker = (
  modules = [(name = "worker.mjs", esModule = embed "worker.mjs"), (name = "server.mjs", esModule = embed "server.mjs")],
  compatibilityDate = "2025-09-01",
  globalOutbound = "loopback",
  bindings = [${Object.entries(bindings)
    .map(([name, value]) => `(name = "${name}", text = ${JSON.stringify(value)})`)
    .join(', ')}],
);
`,
      );
      const child = spawn(workerd, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      onTestFinished(() => void child.kill());
      const url = `http://127.0.0.1:${port}`;
      await vi.waitFor(
        async () => {
          if (child.exitCode !== null) throw new Error(`workerd exited ${child.exitCode}: ${stderr}`);
          await fetch(`${url}/deprovisioned`);
        },
        { timeout: 20_000, interval: 100 },
      );

      // A webhook signed as the platform signs it: acknowledged at once, its work done after the answer; sent again,
      // answered as a duplicate.
      const body = JSON.stringify({
        event: 'user.deprovisioned',
        occurred_at: new Date().toISOString(),
        mini_app_id: platform.miniAppId,
        tenant_id: 'acme',
        app_user_id: 'au-alice',
      });
      const headers = await signRequest({ body, secret: platform.signingSecret, miniAppId: platform.miniAppId });
      const first = await fetch(`${url}/svc/webhooks`, { method: 'POST', headers, body });
      expect([first.status, await first.json()]).toEqual([202, { ok: true, processing: true }]);
      await vi.waitFor(async () => expect(await (await fetch(`${url}/deprovisioned`)).json()).toEqual(['au-alice']), {
        timeout: 5_000,
        interval: 50,
      });
      const again = await fetch(`${url}/svc/webhooks`, { method: 'POST', headers, body });
      expect(await again.json()).toEqual({ ok: true, duplicate: true });

      // A real app token from the platform, verified in the worker against the platform's keys.
      const token = await platform.appToken({ agentId: 'agent-7' });
      const me = await fetch(`${url}/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(await me.json()).toEqual({ sub: 'au-alice', actor: 'agent-7', runtime: 'Cloudflare-Workers' });

      // The server API from the worker: the card reaches the platform's room.
      const card = await fetch(`${url}/card`, { method: 'POST' });
      const answer = (await card.json()) as { event_id?: string; message?: string };
      expect(answer.message).toBeUndefined();
      expect(card.status).toBe(200);
      const general = platform.state.rooms.find((room) => room.id === 'general')!;
      expect(general.timeline.at(-1)).toMatchObject({ event_id: answer.event_id, card: { title: 'From a worker' } });
    },
    60_000,
  );
});
