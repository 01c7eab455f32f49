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
 * such as {@link createRedisIdempotencyStore}. Expired keys are dropped as new ones come, so a long-running backend
 * holds only the keys of the last `ttlMs`; `size` says how many it holds.
 * @public
 */
export function createMemoryIdempotencyStore(
  now: () => number = Date.now,
): IdempotencyStore & { readonly size: number } {
  // In the order of their expiry within each kind (a completion is moved to the end): the oldest are first.
  const entries = new Map<string, { token: string; done: boolean; expires: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expires <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  // Drops expired keys from the front until a live one: each claim adds one key, and this frees those expired.
  const sweep = () => {
    const at = now();
    for (const [key, entry] of entries) {
      if (entry.expires > at) return;
      entries.delete(key);
    }
  };
  return {
    get size() {
      return entries.size;
    },
    async claim(key, token, leaseMs) {
      sweep();
      const entry = live(key);
      if (entry) return entry.done ? 'done' : 'in-progress';
      entries.set(key, { token, done: false, expires: now() + leaseMs });
      return 'claimed';
    },
    async complete(key, token, ttlMs) {
      entries.delete(key);
      entries.set(key, { token, done: true, expires: now() + ttlMs });
    },
    async release(key, token) {
      if (live(key)?.token === token && !entries.get(key)?.done) entries.delete(key);
    },
  };
}
