// The README's recipes, run for real: Express, Fastify, a Next.js App Router route handler, and plain node:http.
import express from 'express';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookHandler, signRequest } from '../../src/server';
import { serveFetch, serveNode } from './loopback';

const secret = 'whsec_recipes_0123456789';
const event = {
  event: 'user.deprovisioned',
  occurred_at: '2026-11-22T10:00:00Z',
  mini_app_id: 'm',
  app_user_id: 'au_9',
  tenant_id: 't',
};
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function post(url: string, body = JSON.stringify(event)) {
  const headers = await signRequest({ body, secret, miniAppId: 'm' });
  const response = await fetch(url, { method: 'POST', headers, body });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

function recorder() {
  const deleted: string[] = [];
  const handle = createWebhookHandler({
    secrets: [secret],
    on: { 'user.deprovisioned': (e) => void deleted.push(e.app_user_id) },
  });
  return { deleted, handle };
}

describe('adapters', () => {
  it('Express: the middleware mounted before express.json() reads the raw body itself', async () => {
    const { deleted, handle } = recorder();
    const app = express();
    app.post('/svc/webhooks', handle.node);
    app.use(express.json());
    const server = await serveNode(app);
    closers.push(server.close);
    expect((await post(`${server.url}/svc/webhooks`)).status).toBe(200);
    expect(deleted).toEqual(['au_9']);
  });

  it('Express: express.raw() on the route works too', async () => {
    const { deleted, handle } = recorder();
    const app = express();
    app.post('/svc/webhooks', express.raw({ type: 'application/json' }), handle.node);
    const server = await serveNode(app);
    closers.push(server.close);
    expect((await post(`${server.url}/svc/webhooks`)).status).toBe(200);
    expect(deleted).toEqual(['au_9']);
  });

  it('Express: a body already parsed by express.json() is refused with the fix, not a signature mismatch', async () => {
    const { handle } = recorder();
    const app = express();
    app.use(express.json());
    app.post('/svc/webhooks', handle.node);
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
      res.status(500).json({ message: error.message }),
    );
    const server = await serveNode(app);
    closers.push(server.close);
    const { status, json } = await post(`${server.url}/svc/webhooks`);
    expect(status).toBe(500);
    expect(String(json.message)).toContain('already parsed');
    expect(String(json.message)).toContain("express.raw({ type: 'application/json' })");
  });

  it('Fastify: a route-scoped buffer parser, then the Fetch handler', async () => {
    const { deleted, handle } = recorder();
    const fastify = Fastify();
    await fastify.register(async (scope) => {
      scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
      scope.post('/svc/webhooks', async (req, reply) => {
        const response = await handle(
          new Request(`http://127.0.0.1${req.url}`, {
            method: 'POST',
            headers: req.headers as Record<string, string>,
            body: new Uint8Array(req.body as Buffer),
          }),
        );
        reply
          .code(response.status)
          .headers(Object.fromEntries(response.headers))
          .send(await response.text());
      });
    });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => fastify.close());
    const address = fastify.server.address() as { port: number };
    expect((await post(`http://127.0.0.1:${address.port}/svc/webhooks`)).status).toBe(200);
    expect(deleted).toEqual(['au_9']);
  });

  it('Next.js App Router: `export const POST = handle` answers a real Request', async () => {
    const { deleted, handle } = recorder();
    const POST = handle; // app/svc/webhooks/route.ts
    const server = await serveFetch(POST);
    closers.push(server.close);
    expect((await post(server.url)).status).toBe(200);
    expect(deleted).toEqual(['au_9']);
  });

  it('node:http: handle.node as the listener', async () => {
    const { deleted, handle } = recorder();
    const server = await serveNode((req, res) => void handle.node(req, res));
    closers.push(server.close);
    expect((await post(server.url)).status).toBe(200);
    expect((await post(server.url, '{"truncated":')).status).toBe(400); // signed, but not JSON
    expect(deleted).toEqual(['au_9']);
  });
});
