import { dereference, type Schema } from '@cfworker/json-schema';

/**
 * A private copy of a JSON Schema document with every schema it defines indexed by absolute URI, the way
 * `@cfworker/json-schema` resolves `$ref`: `$id` (absolute, relative or URN) sets the base of its subtree, `$anchor`
 * and `$dynamicAnchor` name a schema, and every subschema is also reachable by JSON pointer from its resource.
 */
export interface IndexedJsonSchema {
  /** The copy: the validator and the checks walk this, never the caller's object. */
  root: Schema | boolean;
  /** Absolute URI to schema, for the validator. */
  lookup: Record<string, Schema | boolean>;
  /** The schema a node's `$ref` names, or `undefined` when the document does not define it. */
  target(node: Schema): Schema | boolean | undefined;
  /** The absolute URI a node's `$ref` names (its base resolved), or `undefined` when the node has no `$ref`. */
  absoluteRef(node: Schema): string | undefined;
}

/**
 * Copies a schema and indexes the schemas it defines, so `$ref` resolves only inside the document: nothing is
 * fetched, and a reference to a document the schema does not contain has no target.
 *
 * @remarks
 * The copy keeps the caller's object untouched (the validator annotates the schemas it indexes) and makes a second
 * indexing of a changed schema start fresh.
 * @throws TypeError when an `$id` or `$ref` is not a URI reference; Error when two schemas declare the same URI.
 */
export function indexJsonSchema(schema: unknown): IndexedJsonSchema {
  const root = copyJson(schema) as Schema | boolean;
  const lookup = dereference(root) as Record<string, Schema | boolean>;
  // A $dynamicAnchor is also a plain anchor for $ref (JSON Schema 2020-12, section 8.2.2); the validator indexes
  // only $anchor.
  for (const node of Object.values(lookup)) {
    if (typeof node !== 'object' || typeof node.$dynamicAnchor !== 'string' || !node.__absolute_uri__) continue;
    const base = node.__absolute_uri__.split('#')[0];
    const uri = new URL(`#${node.$dynamicAnchor}`, base).href;
    if (lookup[uri] === undefined) lookup[uri] = node;
  }
  return {
    root,
    lookup,
    target: (node) => (node.__absolute_ref__ === undefined ? undefined : lookup[node.__absolute_ref__]),
    absoluteRef: (node) => node.__absolute_ref__,
  };
}

/** A deep copy of JSON data; values JSON has no place for are kept as they are. */
function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  // defineProperty, so a "__proto__" key (JSON.parse makes it an own property) stays a key.
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(copy, key, { value: copyJson(item), enumerable: true, writable: true, configurable: true });
  return copy;
}
