import { FORBIDDEN, type StoredPatch } from '../withPatches';

/** One change to a JSON tree: the path of a property and its new value as JSON (absent: deleted). @internal */
export type Patch = [path: string[], json?: string];

/**
 * Wraps a JSON tree so that every write through it is recorded as a {@link Patch}, whatever code makes it
 * (`state.rooms[0].timeline.push(entry)` records the entry and the new length). The journal then appends only what
 * changed, so a change costs the same whatever the size of the state.
 *
 * @remarks
 * Values are stored as JSON copies: the tree holds plain data only, never a proxy or an object another part of the
 * code could still change without going through the tree (such a change would be missed).
 * @internal
 */
export function trackChanges<T extends object>(root: T, record: (patch: Patch) => void): T {
  const proxies = new WeakMap<object, object>();
  const wrap = <O extends object>(target: O, path: string[]): O => {
    const known = proxies.get(target);
    if (known) return known as O;
    const proxy = new Proxy(target, {
      get(t, key, receiver) {
        const value = Reflect.get(t, key, receiver);
        if (typeof key === 'symbol' || value === null || typeof value !== 'object') return value;
        return wrap(value as object, [...path, key]);
      },
      set(t, key, value) {
        if (typeof key === 'symbol') return Reflect.set(t, key, value);
        const json = value === undefined ? undefined : JSON.stringify(value);
        (t as Record<string, unknown>)[key] = json === undefined ? undefined : JSON.parse(json);
        record(json === undefined ? [[...path, key]] : [[...path, key], json]);
        return true;
      },
      deleteProperty(t, key) {
        if (typeof key === 'symbol') return Reflect.deleteProperty(t, key);
        delete (t as Record<string, unknown>)[key];
        record([[...path, key]]);
        return true;
      },
    });
    proxies.set(target, proxy);
    return proxy;
  };
  return wrap(root, []);
}

/** One journal line's `p`: the patches, each value written as the JSON recorded (no second encoding). @internal */
export const patchesJson = (patches: Patch[]) =>
  `[${patches.map(([path, json]) => `[${JSON.stringify(path)}${json === undefined ? '' : `,${json}`}]`).join(',')}]`;

/** Applies stored patches to a plain JSON tree (replaying a journal). @internal */
export function applyPatches(root: Record<string, unknown>, patches: StoredPatch[]): void {
  for (const patch of patches) {
    const [path] = patch;
    let node: Record<string, unknown> = root;
    for (const key of path.slice(0, -1)) {
      const next = node[key];
      if (next === null || typeof next !== 'object')
        throw new Error(`the journal names ${path.join('.')}, which is absent`);
      node = next as Record<string, unknown>;
    }
    const last = path.at(-1)!;
    if (path.some((key) => FORBIDDEN.has(key)))
      throw new Error(`the journal names ${path.join('.')}, which is not data`);
    try {
      if (patch.length < 2) delete node[last];
      else node[last] = patch[1];
    } catch {
      // An array's length set to what is no length (RangeError): said in the journal's words, not JavaScript's.
      throw new Error(`the journal sets ${path.join('.')} to a value it cannot hold`);
    }
  }
}
