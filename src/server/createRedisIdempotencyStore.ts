import type { ClaimResult, IdempotencyStore } from './IdempotencyStore';
import { type RedisClientLike, redisCommand } from './redisCommand';

// Release and complete only the caller's own claim: after a lease expired, another instance may hold the key.
const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
const COMPLETE =
  "if redis.call('GET', KEYS[1]) == ARGV[1] or redis.call('EXISTS', KEYS[1]) == 0 then return redis.call('SET', KEYS[1], 'done', 'PX', ARGV[2]) end return 0";

/**
 * Options of {@link createRedisIdempotencyStore}.
 * @public
 */
export interface RedisIdempotencyStoreOptions {
  /** A connected client of the `redis` package or of `ioredis`. */
  client: RedisClientLike;
  /** Key prefix. Default `'svc:webhook:'`. */
  prefix?: string;
}

/**
 * A store shared by every instance of a backend, on Redis: the claim is one `SET key token NX PX lease` (atomic),
 * and expiry follows Redis's clock, not each instance's.
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { createRedisIdempotencyStore } from 'svc-sdk/server';
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const store = createRedisIdempotencyStore({ client });
 * ```
 * @public
 */
export function createRedisIdempotencyStore(options: RedisIdempotencyStoreOptions): IdempotencyStore {
  const { client } = options;
  const prefix = options.prefix ?? 'svc:webhook:';
  return {
    async claim(key, token, leaseMs): Promise<ClaimResult> {
      const set = await redisCommand(client, ['SET', prefix + key, token, 'NX', 'PX', String(leaseMs)]);
      if (set === 'OK') return 'claimed';
      const held = await redisCommand(client, ['GET', prefix + key]);
      // The holder's lease may have ended between the two commands: then claim again once.
      if (held === null)
        return (await redisCommand(client, ['SET', prefix + key, token, 'NX', 'PX', String(leaseMs)])) === 'OK'
          ? 'claimed'
          : 'in-progress';
      return held === 'done' ? 'done' : 'in-progress';
    },
    async complete(key, token, ttlMs) {
      await redisCommand(client, ['EVAL', COMPLETE, '1', prefix + key, token, String(ttlMs)]);
    },
    async release(key, token) {
      await redisCommand(client, ['EVAL', RELEASE, '1', prefix + key, token]);
    },
  };
}
