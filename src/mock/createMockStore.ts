import { utf8Length } from './bytes';
import type { JsonValue } from '../protocol/shape';
import { SvcError } from '../protocol/SvcError';

/** The `svc.storage` quota the interface gives: 256 KB. @public */
export const STORAGE_QUOTA = 256 * 1024;

/**
 * The `svc.storage` of one (person, mini app) pair. Pass one store to several {@link createMockHost} calls to play
 * a relaunch (or a second device, since the store syncs); by default each mock host starts with an empty one.
 * @public
 */
export interface MockStore {
  /** The value under `key` (a fresh copy), or `undefined`. */
  get(key: string): JsonValue | undefined;
  /** Stores a JSON value; throws `ERR_QUOTA_EXCEEDED` when the store would pass {@link STORAGE_QUOTA}. */
  set(key: string, value: JsonValue): void;
  /** Removes one key. */
  remove(key: string): void;
  /** Removes every key. */
  clear(): void;
  /** Bytes used: the UTF-8 length of every key plus the JSON text of its value. */
  readonly bytes: number;
  /** A copy of everything stored, for assertions. */
  toJSON(): Record<string, JsonValue>;
}

// Counted without TextEncoder, which Jest's jsdom environment lacks.
const size = (key: string, text: string) => utf8Length(key) + utf8Length(text);

/**
 * Creates a store for `svc.storage`, optionally with data already in it.
 *
 * @remarks
 * Values are kept as JSON text, as a synced store would keep them: what the app gets back is a copy, and a value
 * the app mutates after `set` does not change what was stored. The quota counts the UTF-8 bytes of each key and of
 * its value's JSON text (the interface gives the limit, not how it is counted).
 * @example
 * ```ts
 * const storage = createMockStore({ draft: 'hello' });
 * const first = createMockHost({ manifest, storage });
 * const relaunched = createMockHost({ manifest, storage }); // sees what `first` stored
 * ```
 * @public
 */
export function createMockStore(initial: Record<string, JsonValue> = {}): MockStore {
  const data = new Map<string, string>();
  let bytes = 0;
  const store: MockStore = {
    get: (key) => {
      const text = data.get(key);
      return text === undefined ? undefined : JSON.parse(text);
    },
    set(key, value) {
      const text = JSON.stringify(value);
      const old = data.get(key);
      const next = bytes - (old === undefined ? 0 : size(key, old)) + size(key, text);
      if (next > STORAGE_QUOTA)
        throw new SvcError(
          'ERR_QUOTA_EXCEEDED',
          `storing '${key}' would use ${next} bytes of the ${STORAGE_QUOTA}-byte (256 KB) quota; remove keys, or keep larger data in IndexedDB.`,
          false,
          'storage.set',
        );
      data.set(key, text);
      bytes = next;
    },
    remove(key) {
      const old = data.get(key);
      if (old === undefined) return;
      data.delete(key);
      bytes -= size(key, old);
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
