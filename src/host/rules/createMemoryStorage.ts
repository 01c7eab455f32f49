import { utf8Length } from '../../protocol/bytes';
import type { JsonValue } from '../../protocol/shape';
import { SvcError } from '../../protocol/SvcError';

/** The `svc.storage` quota the platform gives: 256 KB. @public */
export const STORAGE_QUOTA = 256 * 1024;

/**
 * The `svc.storage` of one (person, mini app) pair, as a host keeps it. {@link createMemoryStorage} is the
 * in-memory default; a host may keep it anywhere that reads synchronously (a synced store's local copy,
 * `localStorage`). A change may return a promise: the app's call resolves once it settles (once the host's server
 * has the value), and rejects with its error.
 * @public
 */
export interface StorageStore {
  /** The value under `key` (a fresh copy), or `undefined`. */
  get(key: string): JsonValue | undefined;
  /** Stores a JSON value. The host checks the quota first ({@link storedBytes}). */
  set(key: string, value: JsonValue): void | Promise<void>;
  /** Removes one key. */
  remove(key: string): void | Promise<void>;
  /** Removes every key. */
  clear(): void | Promise<void>;
  /** Bytes used: the UTF-8 length of every key plus the JSON text of its value. */
  readonly bytes: number;
  /** A copy of everything stored, for assertions and inspectors. */
  toJSON(): Record<string, JsonValue>;
}

/**
 * The bytes one entry uses: the UTF-8 length of its key plus its value's JSON text. Counted without TextEncoder,
 * which Jest's jsdom environment lacks. The platform gives the limit, not how it is counted: this is our choice.
 * @public
 */
export const storedBytes = (key: string, value: JsonValue | undefined): number =>
  value === undefined ? 0 : utf8Length(key) + utf8Length(JSON.stringify(value));

/**
 * Throws `ERR_QUOTA_EXCEEDED` when storing `value` under `key` would take `store` past {@link STORAGE_QUOTA}.
 * The one place the quota rule lives: the host's rules and the in-memory store both call it.
 * @public
 */
export function checkQuota(store: StorageStore, key: string, value: JsonValue): void {
  let next = Number.POSITIVE_INFINITY;
  try {
    next = store.bytes - storedBytes(key, store.get(key)) + storedBytes(key, value);
  } catch {
    // Its JSON is longer than a string can be (a sparse array of 2^28 items): over any quota.
  }
  if (next > STORAGE_QUOTA)
    throw new SvcError(
      'ERR_QUOTA_EXCEEDED',
      `storing '${key}' would use ${Number.isFinite(next) ? `${next} bytes` : 'more bytes than a string holds'}, over the ${STORAGE_QUOTA}-byte (256 KB) quota; remove keys, or keep larger data on your backend.`,
      false,
      'storage.set',
    );
}

/**
 * Creates an in-memory store for `svc.storage`, optionally with data already in it.
 *
 * @remarks
 * Values are kept as JSON text, as a synced store would keep them: what the app gets back is a copy, and a value
 * the app mutates after `set` does not change what was stored. `set` checks the quota too, so a store filled
 * directly by a test cannot start past it.
 * @example
 * ```ts
 * import { createMockHost, createMockStore } from 'svc-sdk/mock'; // the mock's name for createMemoryStorage
 * const storage = createMockStore({ draft: 'hello' });
 * const first = createMockHost({ manifest, storage });
 * const relaunched = createMockHost({ manifest, storage }); // sees what `first` stored
 * ```
 * @public
 */
export function createMemoryStorage(initial: Record<string, JsonValue> = {}): StorageStore {
  const data = new Map<string, string>();
  let bytes = 0;
  const store: StorageStore = {
    get: (key) => {
      const text = data.get(key);
      return text === undefined ? undefined : JSON.parse(text);
    },
    set(key, value) {
      checkQuota(store, key, value);
      bytes += storedBytes(key, value) - storedBytes(key, store.get(key));
      data.set(key, JSON.stringify(value));
    },
    remove(key) {
      bytes -= storedBytes(key, store.get(key));
      data.delete(key);
    },
    clear() {
      data.clear();
      bytes = 0;
    },
    get bytes() {
      return bytes;
    },
    toJSON: () => Object.fromEntries([...data].map(([k, v]) => [k, JSON.parse(v)])),
  };
  for (const [key, value] of Object.entries(initial)) store.set(key, value);
  return store;
}
