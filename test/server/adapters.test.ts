// The README's recipes, run for real: Express, Fastify, a Next.js App Router route handler, and plain node:http.
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { connect } from 'node:net';
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
    expect(String(json.message)).toContain('already read by a body parser');
    // The advice is one that works with express.json() app-wide (express.raw() on the route would not).
    expect(String(json.message)).toContain('register the webhook route before app.use(express.json())');
    expect(String(json.message)).toContain('express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })');
  });

  it('Express: with express.json() app-wide, its verify option keeping the bytes as rawBody works', async () => {
    const { deleted, handle } = recorder();
    const app = express();
    app.use(
      express.json({
        // As docs/backend.md writes it (@koa/bodyparser's types declare a string rawBody on every request).
        verify: (req, _res, buf) => Object.assign(req, { rawBody: buf }),
      }),
    );
    app.post('/svc/webhooks', handle.node);
    const server = await serveNode(app);
    closers.push(server.close);
    expect((await post(`${server.url}/svc/webhooks`)).status).toBe(200);
    expect(deleted).toEqual(['au_9']);
  });

  it('Hono: a body a middleware already read is refused with the reason and the fix, not a bare TypeError', async () => {
    const errors: unknown[] = [];
    const handle = createWebhookHandler({ secrets: [secret], on: {}, onError: (error) => errors.push(error) });
    for (const read of ['json', 'text'] as const) {
      const app = new Hono();
      app.use(async (c, next) => {
        await c.req[read]();
        await next();
      });
      app.post('/svc/webhooks', handle);
      const server = await serveFetch((request) => Promise.resolve(app.fetch(request)));
      closers.push(server.close);
      const { status, json } = await post(`${server.url}/svc/webhooks`);
      expect([read, status, json.error]).toEqual([read, 500, 'parsed-body']);
      expect(String(json.message)).toContain("the request's body was already read");
    }
    expect(errors.map((e) => (e as { reason?: string }).reason)).toEqual(['parsed-body', 'parsed-body']);
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

  it('Koa: with @koa/bodyparser first, the fix is told in Koa words, and handing on its rawBody works', async () => {
    for (const keep of [false, true]) {
      const { deleted, handle } = recorder();
      const app = new Koa();
      app.use(bodyParser());
      app.use(async (ctx) => {
        ctx.respond = false;
        if (keep) Object.assign(ctx.req, { rawBody: ctx.request.rawBody });
        await handle.node(ctx.req, ctx.res);
      });
      const server = app.listen(0, '127.0.0.1');
      await new Promise((listening) => server.once('listening', listening));
      closers.push(() => new Promise((closed) => server.close(closed)));
      const { status, json } = await post(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
      if (keep) {
        expect(status).toBe(200);
        expect(deleted).toEqual(['au_9']);
      } else {
        expect([status, json.error]).toEqual([500, 'parsed-body']);
        expect(String(json.message)).toContain(
          'Koa with @koa/bodyparser: ctx.req.rawBody = ctx.request.rawBody before webhooks.node(ctx.req, ctx.res).',
        );
      }
    }
  });

  it("Fastify: the Node middleware after its JSON parser is refused with Fastify's fix, and the fix works", async () => {
    const { deleted, handle } = recorder();
    const fastify = Fastify();
    // Fastify's own JSON parser: the bytes are gone.
    fastify.post('/parsed', async (req, reply) => {
      reply.hijack();
      await handle.node(Object.assign(req.raw, { body: req.body }), reply.raw);
    });
    // The fix the refusal gives: a buffer parser scoped to the route, its Buffer handed on as rawBody.
    await fastify.register(async (scope) => {
      scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
      scope.post('/svc/webhooks', async (req, reply) => {
        reply.hijack();
        await handle.node(Object.assign(req.raw, { rawBody: req.body as Buffer }), reply.raw);
      });
    });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => fastify.close());
    const address = fastify.server.address() as { port: number };
    const { status, json } = await post(`http://127.0.0.1:${address.port}/parsed`);
    expect([status, json.error]).toEqual([500, 'parsed-body']);
    expect(String(json.message)).toContain(
      "Fastify: a content type parser with parseAs: 'buffer' scoped to the webhook route, then req.raw.rawBody = req.body before webhooks.node(req.raw, reply.raw)",
    );
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

  it('Hono: `app.post(path, handle)` is given the context, and reads c.req.raw', async () => {
    const { deleted, handle } = recorder();
    const app = new Hono();
    app.post('/svc/webhooks', handle);
    const server = await serveFetch((request) => Promise.resolve(app.fetch(request)));
    closers.push(server.close);
    expect((await post(`${server.url}/svc/webhooks`)).status).toBe(200);
    expect(deleted).toEqual(['au_9']);
  });

  it('Express: the body-already-parsed mistake is told to onError too, not only to Express', async () => {
    const errors: unknown[] = [];
    const handle = createWebhookHandler({ secrets: [secret], on: {}, onError: (error) => errors.push(error) });
    const app = express();
    app.use(express.json());
    app.post('/svc/webhooks', handle.node);
    app.use((_error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
      res.status(500).json({}),
    );
    const server = await serveNode(app);
    closers.push(server.close);
    expect((await post(`${server.url}/svc/webhooks`)).status).toBe(500);
    expect(String(errors[0])).toContain('already read by a body parser');
    // A SvcSignatureError of its reason, as every refusal of a signature is.
    expect(errors[0]).toMatchObject({ name: 'SvcSignatureError', reason: 'parsed-body' });
  });

  it("Express: the middleware answers a delivery's failures itself, each told to onError; only a set-up mistake reaches Express's error handling", async () => {
    const errors: unknown[] = [];
    const reached: string[] = [];
    const handle = createWebhookHandler({
      secrets: [secret],
      on: {
        'user.deprovisioned': () => {
          throw new Error('database down');
        },
      },
      deliveryKey: (e) => {
        if (e.tenant_id === 'bad') throw new Error('no key for this tenant');
        return e.occurred_at;
      },
      onError: (error) => errors.push(error),
    });
    const app = express();
    app.post('/svc/webhooks', handle.node);
    app.use(express.json());
    app.post('/parsed', handle.node);
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      reached.push(error.message);
      res.status(599).json({});
    });
    const server = await serveNode(app);
    closers.push(server.close);
    const failed = await post(`${server.url}/svc/webhooks`);
    expect(failed).toEqual({ status: 500, json: expect.objectContaining({ error: 'handler-failed' }) });
    const noKey = await post(`${server.url}/svc/webhooks`, JSON.stringify({ ...event, tenant_id: 'bad' }));
    expect(noKey.status).toBe(500);
    expect(String(noKey.json.message)).toContain('Nothing ran');
    expect(reached).toEqual([]);
    // A body parsed before the middleware is the app's set-up, not a delivery: the app's error handling hears of it.
    expect((await post(`${server.url}/parsed`)).status).toBe(599);
    expect(reached).toEqual([expect.stringContaining('already read by a body parser')]);
    expect(errors.map(String)).toEqual([
      expect.stringContaining('database down'),
      expect.stringContaining('no key for this tenant'),
      expect.stringContaining('already read by a body parser'),
    ]);
  });
});

describe('the body a webhook handler reads', () => {
  /** A raw request on a socket: `head` lines, then `body`, the socket kept open (a body that never ends). */
  async function raw(url: string, head: Record<string, string>, body: string) {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    closers.push(async () => socket.destroy());
    const lines = Object.entries({ host: `${hostname}:${port}`, 'content-type': 'application/json', ...head });
    socket.write(`POST /hooks HTTP/1.1\r\n${lines.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`);
    const started = Date.now();
    let answer = '';
    await new Promise<void>((done) => {
      socket.on('data', (chunk) => {
        answer += chunk;
        if (answer.includes('\r\n\r\n')) done();
      });
      socket.on('close', () => done());
    });
    return { status: Number(answer.split(' ')[1]), ms: Date.now() - started, answer };
  }

  async function serve(options: { maxBodyBytes?: number; bodyTimeoutMs?: number } = {}) {
    const errors: unknown[] = [];
    const handle = createWebhookHandler({ secrets: [secret], on: {}, onError: (e) => errors.push(e), ...options });
    const server = await serveNode((req, res) => void handle.node(req, res));
    closers.push(server.close);
    return { url: server.url, errors };
  }

  it('refuses an unsigned request on its headers, without waiting for a body that never ends', async () => {
    const { url } = await serve();
    const answer = await raw(url, { 'content-length': String(64 * 1024 * 1024) }, '{"event":');
    expect(answer.status).toBe(401);
    expect(answer.ms).toBeLessThan(2000);
  });

  it('answers 408 to a signed body that stops, within its time, and 413 to one over the limit', async () => {
    const { url, errors } = await serve({ maxBodyBytes: 1000, bodyTimeoutMs: 300 });
    const signed = await signRequest({ body: JSON.stringify(event), secret, miniAppId: 'm' });
    const stalled = await raw(url, { ...signed, 'transfer-encoding': 'chunked' }, '5\r\n{"eve\r\n');
    expect(stalled.status).toBe(408);
    expect(stalled.answer).toContain('the body did not arrive within 300 ms of the request.');
    // Said to be too large before it is read, by its length; and once too much of it came, without one.
    expect((await raw(url, { ...signed, 'content-length': '5000' }, '{')).status).toBe(413);
    const chunk = 'x'.repeat(600);
    const streamed = await raw(
      url,
      { ...signed, 'transfer-encoding': 'chunked' },
      `258\r\n${chunk}\r\n258\r\n${chunk}\r\n`,
    );
    expect(streamed.status).toBe(413);
    expect(errors.length).toBeGreaterThanOrEqual(3);
  });
});
