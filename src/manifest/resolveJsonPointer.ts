/**
 * Resolves a same-document reference (`#`, `#/$defs/address`) against a schema root, or returns `undefined`.
 *
 * @remarks
 * Only JSON pointers are supported: `$anchor` fragments and external documents are not, because a packaged schema
 * must be self-contained. Pointer escapes `~1` (`/`) and `~0` (`~`) and percent-encoding are decoded.
 */
export function resolveJsonPointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
