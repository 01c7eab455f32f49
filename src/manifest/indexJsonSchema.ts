import {
  dereference,
  ignoredKeyword,
  initialBaseURI,
  type Schema,
  schemaArrayKeyword,
  schemaMapKeyword,
} from '@cfworker/json-schema';

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
  // The library also files the anchors of a schema with its own `$id` under the enclosing base, where they replace
  // the enclosing resource's anchors of the same name; and it files `$dynamicAnchor` nowhere, though it is a plain
  // anchor for `$ref` too (JSON Schema 2020-12, section 8.2.2). Anchors are filed again, each under its own base.
  for (const [uri, node] of Object.entries(lookup)) {
    const fragment = uri.slice(uri.indexOf('#') + 1);
    if (
      uri.includes('#') &&
      typeof node === 'object' &&
      (node.$anchor === fragment || node.$dynamicAnchor === fragment)
    )
      delete lookup[uri];
  }
  const dynamic: [string, Schema][] = [];
  fileAnchors(root, initialBaseURI.href, (uri, node, isDynamic) => {
    if (isDynamic) dynamic.push([uri, node]);
    else lookup[uri] = node;
  });
  for (const [uri, node] of dynamic) lookup[uri] ??= node;
  return {
    root,
    lookup,
    target: (node) => (node.__absolute_ref__ === undefined ? undefined : lookup[node.__absolute_ref__]),
    absoluteRef: (node) => node.__absolute_ref__,
  };
}

/** Walks a schema as the library's indexing does, calling `file` with each anchor's absolute URI. */
function fileAnchors(node: unknown, base: string, file: (uri: string, node: Schema, isDynamic: boolean) => void): void {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
  const schema = node as Schema;
  let here = base;
  if (typeof schema.$id === 'string') {
    const url = new URL(schema.$id, base);
    if (url.hash.length <= 1) {
      url.hash = '';
      here = url.href;
    }
  }
  if (typeof schema.$anchor === 'string') file(new URL(`#${schema.$anchor}`, here).href, schema, false);
  if (typeof schema.$dynamicAnchor === 'string') file(new URL(`#${schema.$dynamicAnchor}`, here).href, schema, true);
  for (const [key, value] of Object.entries(schema)) {
    if (ignoredKeyword[key]) continue;
    if (Array.isArray(value)) {
      if (schemaArrayKeyword[key]) for (const item of value) fileAnchors(item, here, file);
    } else if (schemaMapKeyword[key] && typeof value === 'object' && value !== null) {
      for (const item of Object.values(value)) fileAnchors(item, here, file);
    } else fileAnchors(value, here, file);
  }
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
