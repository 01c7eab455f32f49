/**
 * Paces outgoing requests. `take()` resolves when one request may go.
 * @public
 */
export interface RateLimiter {
  /** Waits for a slot; rejects with the signal's reason when aborted while waiting. */
  take(signal?: AbortSignal): Promise<void>;
  /**
   * Told of a 429's `Retry-After`: no slot is handed out until `ms` have passed (in every instance, for a shared
   * limiter). `createServerClient` calls it on each 429 that names a `Retry-After`.
   */
  block?(ms: number): Promise<void>;
}

/** The server API's limit: 600 requests per minute per vendor, burst 60. @public */
export const SERVER_API_RATE = { perMinute: 600, burst: 60 } as const;

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. @internal */
export const sleep = (ms: number, signal?: AbortSignal) =>
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
 * `createRedisRateLimiter`.
 * @public
 */
export function createRateLimiter(
  rate: { perMinute: number; burst: number } = SERVER_API_RATE,
  now: () => number = Date.now,
): RateLimiter {
  const bucket = createTokenBucket(rate, now);
  let blockedUntil = 0;
  return {
    async take(signal) {
      for (let wait = bucket(); wait > 0; wait = bucket()) await sleep(wait, signal);
      // A token taken during a block waits it out: the block is rarer than the bucket, so it is checked last.
      while (blockedUntil > now()) await sleep(blockedUntil - now(), signal);
    },
    async block(ms) {
      blockedUntil = Math.max(blockedUntil, now() + ms);
    },
  };
}
