// The state's patches as the page and the journal hold them, applied with structural sharing: shared by the
// platform (which records and streams them) and the messenger page (which applies them to the state it shows).

/** Keys a patch may never name: they are not data, and writing them would reach an object's prototype. @internal */
export const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** A patch as a journal line holds it: the path, and the value itself (absent: deleted). @internal */
export type StoredPatch = [path: string[], value?: unknown];

/**
 * A copy of `root` with stored patches applied, sharing every part they did not touch: the root and each object on
 * a patched path are copied once, so a page that keeps its state immutable sees what changed (an event stream of
 * patches instead of the whole state). A patch naming an absent path, or a key that is not data, is skipped.
 * @internal
 */
export function withPatches<T extends object>(root: T, patches: StoredPatch[]): T {
  const copies = new Set<object>();
  const copy = <O extends object>(o: O): O => {
    const c = (Array.isArray(o) ? o.slice() : { ...o }) as O;
    copies.add(c);
    return c;
  };
  const top = copy(root) as Record<string, unknown>;
  for (const patch of patches) {
    const [path] = patch;
    if (!path.length || path.some((key) => FORBIDDEN.has(key))) continue;
    let node: Record<string, unknown> | undefined = top;
    for (const key of path.slice(0, -1)) {
      let next: unknown = node[key];
      if (next === null || typeof next !== 'object') {
        node = undefined;
        break;
      }
      if (!copies.has(next)) node[key] = next = copy(next);
      node = next as Record<string, unknown>;
    }
    if (!node) continue;
    const last = path.at(-1)!;
    if (patch.length < 2) delete node[last];
    else node[last] = patch[1];
  }
  return top as T;
}
