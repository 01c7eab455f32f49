import { json, obj, opt, text } from '../shape';
import type { JsonCompatible, JsonValue } from '../types';
import { call, defineOperations, none } from './define';

/**
 * `svc.storage`: a small (256 KB) key-value store of JSON values that survives reinstall and syncs across the
 * person's devices. Larger data belongs on your backend (a web host's frame may get no IndexedDB).
 * @public
 */
export interface SvcStorage {
  /**
   * The value stored under `key`, or `undefined` when there is none. `T` names what you stored (`get<Note[]>('notes')`)
   * and is not checked: a value an older version of the app stored may have another shape.
   */
  get<T = JsonValue>(key: string): Promise<T | undefined>;
  /**
   * Stores a JSON value, such as an object of an `interface` whose fields are JSON (a function, a `Date` or a `Map` in
   * it is a compile error); rejects `ERR_QUOTA_EXCEEDED` past the quota, and `ERR_INVALID_ARGUMENT` naming where a
   * value is not JSON (`NaN`, a field set to `undefined`).
   */
  set<T>(key: string, value: T & JsonCompatible<T>): Promise<void>;
  /** Stores a JSON value (the form the wire carries). */
  set(key: string, value: JsonValue): Promise<void>;
  /** Removes one key. */
  remove(key: string): Promise<void>;
  /** Removes every key. */
  clear(): Promise<void>;
}

const key = obj({ key: text });

/**
 * The operations of `svc.storage`, which the rules answer from the host's store. No scope: the bridge gives
 * `svc.storage` none, although the manifest lists `svc.storage`.
 */
export const storage = defineOperations<SvcStorage>()({
  get: call({ args: ['key'], params: key, result: opt(json), effect: false }),
  set: call({ args: ['key', 'value'], params: obj({ key: text, value: json }), result: none, effect: false }),
  remove: call({ args: ['key'], params: key, result: none, effect: false }),
  clear: call({ result: none, effect: false }),
});
