import { toHex } from '../protocol/bytes';
import { createRateLimiter, type RateLimiter, SERVER_API_RATE, sleep } from './createRateLimiter';
import { type RedisClientLike, redisCommand } from './redisCommand';

/** Options of {@link createRedisRateLimiter}. @public */
export interface RedisRateLimiterOptions {
  /** A connected client of the `redis` package (v4+) or of `ioredis`. */
  client: RedisClientLike;
  /** The bucket's key; every instance that shares the limit uses the same one. Default `svc:rate:server-api`. */
  key?: string;
  /** The shared limit. Default {@link SERVER_API_RATE}, 600 per minute, burst 60. */
  rate?: { perMinute: number; burst: number };
  /**
   * How many instances share the bucket. While Redis does not answer, each instance paces itself with a local
   * bucket at `rate / replicas`, so together they stay within the limit. Default 1.
   */
  replicas?: number;
  /** Ms Redis may take to answer before it counts as unreachable. Default 1 000. */
  timeoutMs?: number;
  /** Where the limiter says, once each, that Redis became unreachable and that it answers again. Default `console.warn`. */
  log?: (message: string) => void;
}

// Reserves one token: taken now, into debt when the bucket is empty, and the caller is told how long until that
// token exists, so it goes then without asking again. `at` is when `tokens` was counted; a 429 moves it into the
// future (BLOCK), and no token exists before it. Redis's own clock (TIME), so every instance sees one bucket.
const RESERVE = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1]) local burst = tonumber(ARGV[2])
local s = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(s[1]) or burst local at = tonumber(s[2]) or now
if at < now then tokens = math.min(burst, tokens + (now - at) * rate) at = now end
tokens = tokens - 1
local wait = at - now
if tokens < 0 then wait = wait + math.ceil(-tokens / rate) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', at)
redis.call('PEXPIRE', KEYS[1], at - now + math.ceil((burst - tokens) / rate) + 1000)
return wait`;

// A 429's Retry-After, for every instance: the bucket is empty until `now + ARGV[3]` and refills from then.
const BLOCK = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1]) local burst = tonumber(ARGV[2]) local stop = now + tonumber(ARGV[3])
local s = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(s[1]) or burst local at = tonumber(s[2]) or now
if at < now then tokens = math.min(burst, tokens + (now - at) * rate) at = now end
if stop > at then at = stop end
tokens = math.min(tokens, 0)
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', at)
redis.call('PEXPIRE', KEYS[1], at - now + math.ceil((burst - tokens) / rate) + 1000)
return 0`;

// Replies that mean Redis is there but cannot serve now: paced locally like a lost connection.
const UNAVAILABLE = /^(LOADING|BUSY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|READONLY)\b/;
// A reply error of either client (ioredis ReplyError, node-redis ErrorReply and its subclasses).
const REPLY = new Set(['ReplyError', 'ErrorReply', 'SimpleError', 'BlobError']);
const messageOf = (error: unknown) => String((error as Error)?.message ?? error);
// A reply the caller must fix (a key of another type, a script Redis refuses), as against Redis being away.
const refused = (error: unknown) =>
  REPLY.has((error as object)?.constructor?.name ?? '') && !UNAVAILABLE.test(messageOf(error));
// After this long without Redis, one PING asks again (in the background: waiters keep the local pace meanwhile).
const PROBE_MS = 1_000;

async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return toHex(digest);
}

/** Rejects with `Error('no answer')` after `ms`, unless `promise` settles first. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function positive(value: number, field: string): number {
  if (!(Number.isFinite(value) && value > 0))
    throw new TypeError(`createRedisRateLimiter(): ${field} must be a positive number (got ${String(value)}).`);
  return value;
}

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
}

/**
 * A token bucket shared through Redis by every instance of a backend (the `redis` client or `ioredis`).
 *
 * @remarks
 * Waiters of one instance queue in order, and only the first asks Redis: one script run reserves the next token
 * and says when it exists, so a request costs one script run however many wait (`EVALSHA`, and `EVAL` once after
 * Redis lost its script cache, a restart). `block(ms)` (a 429's `Retry-After`) empties the bucket until then for
 * every instance. While Redis does not answer (`timeoutMs`), the instance paces itself at `rate / replicas` and
 * says so once in `log`; it says again once Redis answers.
 * @public
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  const { client, log = console.warn } = options;
  if (!client) throw new TypeError('createRedisRateLimiter(): client is required (a `redis` or `ioredis` client).');
  const rate = options.rate ?? SERVER_API_RATE;
  const perMinute = positive(rate.perMinute, 'rate.perMinute');
  const burst = positive(rate.burst, 'rate.burst');
  const replicas = positive(options.replicas ?? 1, 'replicas');
  const timeoutMs = positive(options.timeoutMs ?? 1_000, 'timeoutMs');
  const key = options.key ?? 'svc:rate:server-api';
  const args = [String(perMinute / 60_000), String(burst)];
  const localRate = { perMinute: perMinute / replicas, burst: Math.max(1, Math.floor(burst / replicas)) };
  const local = createRateLimiter(localRate);
  const shas = new Map<string, Promise<string>>();

  const queue: Waiter[] = [];
  let pumping = false;
  let unreachable = false;
  let probing = false;
  let probeAt = 0;
  // A block this instance was told of: a token reserved before it still waits it out.
  let blockedUntil = 0;

  async function script(source: string, extra: string[]): Promise<number> {
    const sha = shas.get(source) ?? sha1(source);
    shas.set(source, sha);
    const tail = ['1', key, ...args, ...extra];
    try {
      return Number(await within(redisCommand(client, ['EVALSHA', await sha, ...tail]), timeoutMs));
    } catch (error) {
      if (!messageOf(error).startsWith('NOSCRIPT')) throw error;
      // Redis restarted (or flushed its scripts): EVAL runs the script and caches it again for the next EVALSHA.
      return Number(await within(redisCommand(client, ['EVAL', source, ...tail]), timeoutMs));
    }
  }

  function lost(error: unknown) {
    probeAt = Date.now() + PROBE_MS;
    if (unreachable) return;
    unreachable = true;
    log(
      `createRedisRateLimiter: Redis does not answer (${messageOf(error)}); pacing this instance at ` +
        `${localRate.perMinute}/min, burst ${localRate.burst} (the ${perMinute}/min shared by ${replicas} ` +
        `replica${replicas === 1 ? '; set replicas to the number of instances' : 's'}) until it answers again.`,
    );
  }

  function probe() {
    if (probing || Date.now() < probeAt) return;
    probing = true;
    within(redisCommand(client, ['PING']), timeoutMs).then(
      () => {
        probing = false;
        unreachable = false;
        log('createRedisRateLimiter: Redis answers again; back to the shared bucket.');
      },
      (error) => {
        probing = false;
        lost(error);
      },
    );
  }

  // One slot: reserved in Redis, or from the local bucket while Redis does not answer. Rejects only for a reply
  // that is the caller's to fix (a key of another type, a script Redis refuses).
  async function slot(): Promise<void> {
    if (unreachable) {
      probe();
      return local.take();
    }
    let wait: number;
    try {
      wait = await script(RESERVE, []);
    } catch (error) {
      if (refused(error))
        throw new Error(
          `createRedisRateLimiter: Redis refused the rate-limit script on key "${key}": ${messageOf(error)}`,
        );
      lost(error);
      return local.take();
    }
    if (wait > 0) await sleep(wait);
  }

  // Only the queue's head asks Redis; the slot goes to whoever heads the queue once it exists, so a waiter that
  // gave up passes its reserved token on instead of wasting it.
  async function pump() {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length) {
        let failure: unknown;
        await slot().catch((error) => (failure = error));
        while (blockedUntil > Date.now()) await sleep(blockedUntil - Date.now());
        const head = queue.shift();
        if (failure === undefined) head?.resolve();
        else head?.reject(failure);
      }
    } finally {
      pumping = false;
    }
  }

  return {
    take(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<void>((resolve, reject) => {
        const abort = () => {
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          reject(signal!.reason);
        };
        const waiter: Waiter = {
          resolve() {
            signal?.removeEventListener('abort', abort);
            resolve();
          },
          reject(reason) {
            signal?.removeEventListener('abort', abort);
            reject(reason);
          },
        };
        signal?.addEventListener('abort', abort, { once: true });
        queue.push(waiter);
        void pump();
      });
    },
    async block(ms) {
      const wait = positive(ms, 'block(ms)');
      blockedUntil = Math.max(blockedUntil, Date.now() + wait);
      await local.block?.(wait);
      if (unreachable) return;
      // Best effort: an instance that cannot tell Redis still waits the block out itself.
      await script(BLOCK, [String(Math.ceil(wait))]).catch((error) => refused(error) || lost(error));
    },
  };
}
