// createRedisRateLimiter against a real redis-server of its own (restarted and killed here), through both clients:
// one queue per process where only the head asks Redis, EVALSHA with EVAL after NOSCRIPT, a 429's Retry-After shared
// by every replica, the local bucket while Redis is away, and several processes sharing one bucket (dist/server.js).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisRateLimiter, createServerClient, type RedisClientLike } from '../../src/server';
import { serveNode } from './loopback';
import { haveRedis, startRedis } from './redisServer';

const root = resolve(import.meta.dirname, '../..');
const built = existsSync(resolve(root, 'dist/server.js'));

type Server = Awaited<ReturnType<typeof startRedis>>;
let server: Server;
let admin: Redis;

beforeAll(async () => {
  if (!haveRedis) return;
  server = await startRedis();
  admin = new Redis(server.port, '127.0.0.1', { maxRetriesPerRequest: 1 });
  admin.on('error', () => {});
});
afterAll(async () => {
  admin?.disconnect();
  await server?.stop();
});

/** EVAL and EVALSHA calls Redis counted since the last reset, from its own INFO commandstats. */
async function scriptStats() {
  const info = await admin.info('commandstats');
  const calls = (name: string) => Number(info.match(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm'))?.[1] ?? 0);
  return { eval: calls('eval'), evalsha: calls('evalsha') };
}

/** A client of each kind on `port`, reconnecting by itself as deployed clients do. */
async function connect(kind: string, port: number): Promise<{ client: RedisClientLike; close(): void }> {
  if (kind === 'ioredis') {
    const io = new Redis(port, '127.0.0.1', { retryStrategy: () => 50 });
    io.on('error', () => {});
    return { client: io, close: () => io.disconnect() };
  }
  const official = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: () => 50 } });
  official.on('error', () => {});
  await official.connect();
  return { client: official, close: () => void official.destroy() };
}

const keyOf = (name: string) => `${name}:${Math.random().toString(36).slice(2)}`;

describe.skipIf(!haveRedis).each(['ioredis', 'redis'])('createRedisRateLimiter through the %s client', (kind) => {
  it('queues waiters in order and lets only the head ask Redis: at most 2 script runs per request', async () => {
    const { client, close } = await connect(kind, server.port);
    try {
      const limiter = createRedisRateLimiter({ client, key: keyOf(kind), rate: { perMinute: 6000, burst: 5 } });
      await admin.config('RESETSTAT');
      const order: number[] = [];
      await Promise.all(Array.from({ length: 30 }, (_, i) => limiter.take().then(() => order.push(i))));
      expect(order).toEqual(Array.from({ length: 30 }, (_, i) => i));
      const runs = await scriptStats();
      expect(runs.eval + runs.evalsha).toBeLessThanOrEqual(60);
      // The first run loads the script (NOSCRIPT, then EVAL); every later one is an EVALSHA.
      expect(runs.eval).toBeLessThanOrEqual(1);
    } finally {
      close();
    }
  });

  it('hands the slot of a waiter that gave up to the next one, without another script run', async () => {
    const { client, close } = await connect(kind, server.port);
    try {
      const limiter = createRedisRateLimiter({ client, key: keyOf(kind), rate: { perMinute: 600, burst: 1 } });
      await limiter.take();
      await admin.config('RESETSTAT');
      const controller = new AbortController();
      const second = limiter.take(controller.signal);
      const third = limiter.take();
      controller.abort(new Error('gave up'));
      await expect(second).rejects.toThrow('gave up');
      await third;
      const runs = await scriptStats();
      expect(runs.eval + runs.evalsha).toBe(1);
    } finally {
      close();
    }
  });

  it("shares a 429's Retry-After with every replica: the script keeps the bucket empty until it has passed", async () => {
    const { client, close } = await connect(kind, server.port);
    const key = keyOf(kind);
    const platform = await serveNode((_req, res) =>
      res
        .writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '60' })
        .end('{"type":"https://svc.example/problems/rate-limited","title":"Rate limited","status":429}'),
    );
    try {
      const rate = { perMinute: 600, burst: 10 };
      const one = createRedisRateLimiter({ client, key, rate });
      const two = createRedisRateLimiter({ client, key, rate });
      await two.take(); // the bucket has tokens to give
      const api = createServerClient({
        baseUrl: `${platform.url}/v1`,
        miniAppId: '0123456789abcdef',
        secret: 'sk_server_api_0123456789',
        rateLimiter: one,
        retry: { max: 0 },
      });
      await expect(api.getInstallation('au')).rejects.toMatchObject({ status: 429, retryAfter: 60 });
      // The other replica, which never saw the 429, gets no slot now...
      await expect(two.take(AbortSignal.timeout(100))).rejects.toMatchObject({ name: 'TimeoutError' });
      // ...because the bucket in Redis is empty until the Retry-After has passed.
      const [at, [seconds]] = await Promise.all([admin.hget(key, 'at'), admin.time()]);
      expect(Number(at) - Number(seconds) * 1000).toBeGreaterThan(55_000);
      // A limiter on another key is not held back.
      await createRedisRateLimiter({ client, key: keyOf(kind), rate }).take(AbortSignal.timeout(1_000));
    } finally {
      await platform.close();
      close();
    }
  });

  it('runs the script by EVAL again after a restart of Redis lost it (NOSCRIPT), then by EVALSHA', async () => {
    const own = await startRedis();
    let current: Server | undefined = own;
    const { client, close } = await connect(kind, own.port);
    const messages: string[] = [];
    try {
      const limiter = createRedisRateLimiter({ client, key: 'restart', log: (m) => messages.push(m) });
      await limiter.take();
      await own.stop();
      current = await startRedis(own.port);
      const probe = new Redis(own.port, '127.0.0.1');
      try {
        // The client reconnects by itself; the new server has an empty script cache.
        await expect.poll(() => ping(client), { timeout: 10_000 }).toBe('PONG');
        await limiter.take();
        await limiter.take();
        const info = await probe.info('commandstats');
        const calls = (name: string) => Number(info.match(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm'))?.[1]);
        // One EVAL after the NOSCRIPT, then EVALSHA finds the script again.
        expect(calls('eval')).toBe(1);
        expect(calls('evalsha')).toBe(2);
        expect(messages).toEqual([]);
      } finally {
        probe.disconnect();
      }
    } finally {
      close();
      await current?.stop();
    }
  });

  it('paces at rate / replicas with a local bucket while Redis is away, says so once, and once when it is back', async () => {
    const own = await startRedis();
    let current: Server | undefined = own;
    const { client, close } = await connect(kind, own.port);
    const messages: string[] = [];
    try {
      const limiter = createRedisRateLimiter({
        client,
        key: 'fallback',
        rate: { perMinute: 6000, burst: 4 },
        replicas: 2,
        timeoutMs: 500,
        log: (m) => messages.push(m),
      });
      await limiter.take();
      await own.stop();
      current = undefined;
      // Nothing hangs: 20 takes resolve from the local bucket (3000/min, burst 2), and the log says it once.
      await Promise.all(Array.from({ length: 20 }, () => limiter.take()));
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(
        /^createRedisRateLimiter: Redis does not answer \(.+\); pacing this instance at 3000\/min, burst 2 \(the 6000\/min shared by 2 replicas\) until it answers again\.$/,
      );
      current = await startRedis(own.port);
      // Takes keep going meanwhile; one of them finds Redis back.
      const afterTake = async () => {
        await limiter.take();
        return messages.length;
      };
      await expect.poll(afterTake, { timeout: 15_000, interval: 50 }).toBe(2);
      expect(messages[1]).toBe('createRedisRateLimiter: Redis answers again; back to the shared bucket.');
      // Back on the shared bucket: the next take runs the script in Redis.
      const probe = new Redis(own.port, '127.0.0.1');
      try {
        await limiter.take();
        expect(await probe.hexists('fallback', 'tokens')).toBe(1);
      } finally {
        probe.disconnect();
      }
    } finally {
      close();
      await current?.stop();
    }
  });

  it('rejects (does not fall back) when Redis refuses the script: the key holds something else', async () => {
    const { client, close } = await connect(kind, server.port);
    try {
      const key = keyOf(kind);
      await admin.set(key, 'not a hash');
      const limiter = createRedisRateLimiter({ client, key, log: () => expect.fail('no fallback expected') });
      await expect(limiter.take()).rejects.toThrow(
        new RegExp(`^createRedisRateLimiter: Redis refused the rate-limit script on key "${key}": WRONGTYPE`),
      );
    } finally {
      close();
    }
  });
});

/** PING through either client. */
function ping(client: RedisClientLike): Promise<unknown> {
  const c = client as { call?(c: string): Promise<unknown>; sendCommand?(a: string[]): Promise<unknown> };
  return (c.call ? c.call('PING') : c.sendCommand!(['PING'])).catch(() => 'down');
}

describe('createRedisRateLimiter options', () => {
  // Checked when the limiter is made, before any command: the client is never called.
  const client: RedisClientLike = { sendCommand: () => Promise.reject(new Error('not called')) };

  it.each([
    [{ replicas: 0 }, 'replicas must be a positive number (got 0)'],
    [{ rate: { perMinute: -1, burst: 1 } }, 'rate.perMinute must be a positive number (got -1)'],
    [{ rate: { perMinute: 60, burst: Number.NaN } }, 'rate.burst must be a positive number (got NaN)'],
    [{ timeoutMs: 0 }, 'timeoutMs must be a positive number (got 0)'],
  ])('refuses %j, naming the field', (options, message) => {
    expect(() => createRedisRateLimiter({ client, ...options })).toThrow(`createRedisRateLimiter(): ${message}`);
  });
});

describe.skipIf(!haveRedis || !built)('several processes sharing one bucket (dist/server.js)', () => {
  it('never sends more than the bucket allows, at at most 2 script runs per request', async () => {
    const key = keyOf('processes');
    const rate = { perMinute: 1200, burst: 10 };
    const each = 20;
    const code = `
      import { Redis } from 'ioredis';
      import { createRedisRateLimiter } from ${JSON.stringify(resolve(root, 'dist/server.js'))};
      const client = new Redis(${server.port}, '127.0.0.1');
      const limiter = createRedisRateLimiter({ client, key: ${JSON.stringify(key)}, rate: ${JSON.stringify(rate)} });
      const granted = [];
      await Promise.all(Array.from({ length: 5 }, async () => {
        for (let i = 0; i < ${each / 5}; i++) { await limiter.take(); granted.push(Date.now()); }
      }));
      console.log(JSON.stringify(granted));
      client.disconnect();`;
    await admin.config('RESETSTAT');
    const runs = await Promise.all(
      Array.from({ length: 3 }, () => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: root });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        return new Promise<number[]>((done, fail) =>
          child.once('exit', (status) => (status === 0 ? done(JSON.parse(out)) : fail(new Error(err)))),
        );
      }),
    );
    const grants = runs.flat().sort((a, b) => a - b);
    expect(grants).toHaveLength(3 * each);
    // However the processes interleave, by each grant no more went than the burst plus the refill since the first.
    const perMs = rate.perMinute / 60_000;
    grants.forEach((at, i) => expect(i + 1).toBeLessThanOrEqual(rate.burst + (at - grants[0]!) * perMs + 1));
    const stats = await scriptStats();
    expect(stats.eval + stats.evalsha).toBeLessThanOrEqual(2 * grants.length);
  });
});
