import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRedisIdempotencyStore,
  createRedisRateLimiter,
  createWebhookHandler,
  type RedisClientLike,
  signRequest,
} from '../../src/server';
import { haveRedis, startRedis } from './redisServer';
import { serveFetch } from './loopback';

let redis: Awaited<ReturnType<typeof startRedis>>;
const clients: { name: string; client: RedisClientLike; close(): Promise<unknown> }[] = [];

beforeAll(async () => {
  if (!haveRedis) return;
  redis = await startRedis();
  const official = await createClient({ url: redis.url }).connect();
  const io = new Redis(redis.port, '127.0.0.1', { lazyConnect: true });
  await io.connect();
  clients.push({ name: 'redis', client: official, close: () => official.quit() });
  clients.push({ name: 'ioredis', client: io, close: () => io.quit() });
});
afterAll(async () => {
  for (const { close } of clients) await close();
  await redis?.stop();
});

describe.skipIf(!haveRedis).each(['redis', 'ioredis'])('Redis idempotency store through the %s client', (name) => {
  const client = () => clients.find((c) => c.name === name)!.client;

  it('claims atomically: of 20 concurrent claims exactly one wins', async () => {
    const store = createRedisIdempotencyStore({ client: client(), prefix: `${name}:race:` });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.claim('k', `t${i}`, 5_000)));
    expect(results.filter((r) => r === 'claimed')).toHaveLength(1);
    expect(results.filter((r) => r === 'in-progress')).toHaveLength(19);
  });

  it("lets a crashed claim lapse after its lease, by Redis's clock, and keeps done marks", async () => {
    const store = createRedisIdempotencyStore({ client: client(), prefix: `${name}:lease:` });
    expect(await store.claim('k', 'a', 100)).toBe('claimed');
    await expect.poll(() => store.claim('k', 'b', 5_000), { interval: 50, timeout: 3_000 }).toBe('claimed');
    await store.release('k', 'a'); // the lapsed claimant cannot release b's claim
    expect(await store.claim('k', 'c', 5_000)).toBe('in-progress');
    await store.complete('k', 'b', 60_000);
    expect(await store.claim('k', 'd', 5_000)).toBe('done');
  });

  it('releases the claim of a failed handler so the retry runs', async () => {
    const store = createRedisIdempotencyStore({ client: client(), prefix: `${name}:release:` });
    expect(await store.claim('k', 'a', 60_000)).toBe('claimed');
    await store.release('k', 'a');
    expect(await store.claim('k', 'b', 60_000)).toBe('claimed');
  });

  it('two backend instances sharing Redis run a concurrent duplicate delivery once', async () => {
    let runs = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const make = () =>
      createWebhookHandler({
        secrets: ['s3cret-value'],
        store: createRedisIdempotencyStore({ client: client(), prefix: `${name}:instances:` }),
        on: {
          'user.deprovisioned': async () => {
            runs++;
            await gate;
          },
        },
      });
    const [a, b] = [await serveFetch(make()), await serveFetch(make())];
    try {
      const body = JSON.stringify({
        event: 'user.deprovisioned',
        occurred_at: new Date().toISOString(),
        mini_app_id: 'm',
        app_user_id: name,
        tenant_id: 't',
      });
      const send = async (url: string) =>
        (
          await fetch(url, {
            method: 'POST',
            headers: await signRequest({ body, secret: 's3cret-value', miniAppId: 'm' }),
            body,
          })
        ).status;
      const first = send(a.url);
      await expect.poll(() => runs).toBe(1);
      expect(await send(b.url)).toBe(409);
      open();
      expect(await first).toBe(200);
      expect(await send(b.url)).toBe(200);
      expect(runs).toBe(1);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('shares one rate-limit bucket: the burst is spent across limiters, then a take waits', async () => {
    const key = `${name}:bucket`;
    const one = createRedisRateLimiter({ client: client(), key, rate: { perMinute: 6, burst: 3 } });
    const two = createRedisRateLimiter({ client: client(), key, rate: { perMinute: 6, burst: 3 } });
    await one.take();
    await two.take();
    await one.take();
    // The bucket is empty: the next take must wait for a refill (one per 10 s), so aborting the wait rejects it.
    const controller = new AbortController();
    const waiting = two.take(controller.signal);
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
  });
});
