/**
 * What a claim on a delivery found.
 * @public
 */
export type ClaimResult = 'claimed' | 'in-progress' | 'done';

/**
 * Where webhook handlers record which deliveries they processed, so a retry runs the handler at most once.
 *
 * @remarks
 * `claim` must be atomic across every instance that shares the store: two concurrent deliveries of one event must
 * not both get `'claimed'`.
 * @public
 */
export interface IdempotencyStore {
  /** Claims `key` for `leaseMs`: `'claimed'` for the caller to run, else what holds it. `token` identifies the claim. */
  claim(key: string, token: string, leaseMs: number): Promise<ClaimResult>;
  /** Marks `key` done for `ttlMs` (longer than the platform's 24-hour retry period). */
  complete(key: string, token: string, ttlMs: number): Promise<void>;
  /** Releases the caller's claim (its handler failed), so the platform's retry runs the handler again. */
  release(key: string, token: string): Promise<void>;
}

/**
 * An in-memory store: one process only (development, a single instance). Several instances need a shared store,
 * such as {@link createRedisIdempotencyStore}.
 * @public
 */
export function createMemoryIdempotencyStore(now: () => number = Date.now): IdempotencyStore {
  const entries = new Map<string, { token: string; done: boolean; expires: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expires <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    async claim(key, token, leaseMs) {
      const entry = live(key);
      if (entry) return entry.done ? 'done' : 'in-progress';
      entries.set(key, { token, done: false, expires: now() + leaseMs });
      return 'claimed';
    },
    async complete(key, token, ttlMs) {
      entries.set(key, { token, done: true, expires: now() + ttlMs });
    },
    async release(key, token) {
      if (live(key)?.token === token && !entries.get(key)?.done) entries.delete(key);
    },
  };
}
