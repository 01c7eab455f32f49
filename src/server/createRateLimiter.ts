import { type RedisClientLike, redisCommand } from './redisCommand';

/**
 * Paces outgoing requests. `take()` resolves when one request may go.
 * @public
 */
export interface RateLimiter {
  /** Waits for a slot; rejects with the signal's reason when aborted while waiting. */
  take(signal?: AbortSignal): Promise<void>;
}

/** The server API's limit: 600 requests per minute per vendor, burst 60. @public */
export const SERVER_API_RATE = { perMinute: 600, burst: 60 } as const;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });

/**
 * A token bucket: each call takes one token when there is one and returns 0, else returns the ms until one is
 * back (taking nothing). The one bucket of the paced client and of the platform's refusing limiter.
 * @internal
 */
export function createTokenBucket(
  rate: { perMinute: number; burst: number } = SERVER_API_RATE,
  now: () => number = Date.now,
): () => number {
  const perMs = rate.perMinute / 60_000;
  let tokens: number = rate.burst;
  let updated = now();
  return () => {
    const t = now();
    tokens = Math.min(rate.burst, tokens + (t - updated) * perMs);
    updated = t;
    if (tokens < 1) return Math.ceil((1 - tokens) / perMs);
    tokens -= 1;
    return 0;
  };
}

/**
 * An in-process token bucket (one instance). Several instances share the vendor's limit: use
 * {@link createRedisRateLimiter}.
 * @public
 */
export function createRateLimiter(
  rate: { perMinute: number; burst: number } = SERVER_API_RATE,
  now: () => number = Date.now,
): RateLimiter {
  const bucket = createTokenBucket(rate, now);
  return {
    async take(signal) {
      for (let wait = bucket(); wait > 0; wait = bucket()) await sleep(wait, signal);
    },
  };
}

// One bucket in Redis, refilled by Redis's own clock (TIME), so every instance sees the same state.
const BUCKET = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1]) local burst = tonumber(ARGV[2])
local s = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(s[1]) or burst local at = tonumber(s[2]) or now
tokens = math.min(burst, tokens + (now - at) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) / rate) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], 120000)
return wait`;

/**
 * A token bucket shared through Redis by every instance of a backend (the `redis` client or `ioredis`).
 * @public
 */
export function createRedisRateLimiter(options: {
  client: RedisClientLike;
  key?: string;
  rate?: { perMinute: number; burst: number };
}): RateLimiter {
  const rate = options.rate ?? SERVER_API_RATE;
  const key = options.key ?? 'svc:rate:server-api';
  return {
    async take(signal) {
      for (;;) {
        const wait = Number(
          await redisCommand(options.client, [
            'EVAL',
            BUCKET,
            '1',
            key,
            String(rate.perMinute / 60_000),
            String(rate.burst),
          ]),
        );
        if (wait <= 0) return;
        await sleep(wait, signal);
      }
    },
  };
}
