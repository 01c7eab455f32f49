// createWebhookHandler with its Redis store down, on a real redis-server killed and started again: the delivery is
// answered 503 with Retry-After and a message naming the store (within the platform's 5 s budget, which the sender
// below enforces as the platform does), nothing runs meanwhile, and the retry after Redis is back runs once.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedisIdempotencyStore, createWebhookHandler, type RedisClientLike, signRequest } from '../../src/server';
import { serveFetch } from './loopback';
import { haveRedis, startRedis } from './redisServer';

const SECRET = 'webhook-secret';
// Each test's clean-up, in order: its client first (so nothing waits on a stopped Redis), then the servers.
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
});

const deliver = async (url: string, body: string) => {
  const headers = await signRequest({ body, secret: SECRET, miniAppId: 'polls' });
  // The platform's answer budget: an answer later than 5 s is a failed attempt.
  const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(5_000) });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as any,
  };
};

describe.skipIf(!haveRedis).each(['ioredis', 'redis'])('the webhook handler with Redis down (%s client)', (name) => {
  it('answers 503 with Retry-After naming the store, runs nothing, and runs the retry once Redis is back', async () => {
    let redis = await startRedis();
    const port = redis.port;
    let client: RedisClientLike & { quit(): Promise<unknown> };
    if (name === 'ioredis') {
      const io = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => 50 });
      io.on('error', () => {});
      await io.connect();
      client = io;
    } else {
      const official = createClient({ url: redis.url, socket: { reconnectStrategy: () => 50 } });
      official.on('error', () => {});
      client = await official.connect();
    }
    closers.push(() => client.quit());
    closers.push(() => redis.stop());
    const runs: string[] = [];
    const handle = createWebhookHandler({
      secrets: [SECRET],
      store: createRedisIdempotencyStore({ client, prefix: `${name}:down:` }),
      on: { 'installation.created': (event) => void runs.push(event.app_user_id) },
    });
    const server = await serveFetch(handle);
    closers.push(() => server.close());
    const event = (id: string) =>
      JSON.stringify({
        event: 'installation.created',
        occurred_at: '2026-11-24T00:00:00Z',
        mini_app_id: 'polls',
        tenant_id: 't',
        app_user_id: id,
        version: '1.0.0',
      });

    expect((await deliver(server.url, event('before'))).status).toBe(200);
    await redis.stop();
    const down = await deliver(server.url, event('during'));
    expect(down.status).toBe(503);
    expect(down.retryAfter).toMatch(/^\d+$/);
    expect(down.body.message).toMatch(/the idempotency store is unreachable .*nothing ran: the platform retries/);
    expect(runs).toEqual(['before']);

    redis = await startRedis(port);
    await expect
      .poll(async () => (await deliver(server.url, event('during'))).status, { interval: 100, timeout: 10_000 })
      .toBe(200);
    expect((await deliver(server.url, event('during'))).body).toMatchObject({ duplicate: true });
    expect(runs).toEqual(['before', 'during']);
  }, 30_000);
});
