import * as z from 'zod';

interface Node {
  _zod: { def: Record<string, unknown> & { type: string } };
}

/** What {@link schemaAtPath} found: the schema, and the discriminator that chose it inside a union, if any. */
export interface SchemaAt {
  schema: Node;
  /** For an object picked from a discriminated union, such as `{ key: 'type', value: 'none' }`. */
  variant?: { key: string; value: unknown };
  description?: string;
}

/**
 * Walks a zod schema along an issue path, following the input to choose the variant of a discriminated union, so
 * messages can list the fields allowed at that place and describe a missing field.
 */
export function schemaAtPath(root: z.ZodType, path: readonly PropertyKey[], input: unknown): SchemaAt | undefined {
  let node = root as unknown as Node;
  let value = input;
  let variant: SchemaAt['variant'];
  let description = describeSchema(node);
  for (let i = 0; i <= path.length; i++) {
    node = unwrap(node);
    const def = node._zod.def;
    if (def.type === 'union' && typeof def.discriminator === 'string') {
      const key = def.discriminator;
      const chosen = (value as Record<string, unknown> | undefined)?.[key];
      const option = (def.options as Node[]).find((o) => literalValues(unwrap(o), key).includes(chosen));
      if (!option) return undefined;
      node = unwrap(option);
      variant = { key, value: chosen };
    }
    if (i === path.length) break;
    const key = path[i] as PropertyKey;
    const d = node._zod.def;
    let next: Node | undefined;
    if (d.type === 'object') next = (d.shape as Record<string, Node>)[String(key)];
    else if (d.type === 'array') next = d.element as Node;
    else if (d.type === 'record') next = d.valueType as Node;
    if (!next) return undefined;
    value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
    description = describeSchema(next) ?? describeSchema(unwrap(next));
    node = next;
    variant = undefined;
  }
  return { schema: node, ...(variant ? { variant } : {}), ...(description !== undefined ? { description } : {}) };
}

/** The keys an object schema allows, in declaration order. */
export function objectKeys(node: Node): string[] {
  const def = unwrap(node)._zod.def;
  return def.type === 'object' ? Object.keys(def.shape as object) : [];
}

function unwrap(node: Node): Node {
  let current = node;
  for (;;) {
    const def = current._zod.def;
    if (['optional', 'default', 'prefault', 'nullable', 'readonly', 'nonoptional'].includes(def.type))
      current = def.innerType as Node;
    else if (def.type === 'pipe') current = def.in as Node;
    else return current;
  }
}

function literalValues(node: Node, key: string): unknown[] {
  const def = node._zod.def;
  const field = def.type === 'object' ? (def.shape as Record<string, Node>)[key] : undefined;
  const values = field ? unwrap(field)._zod.def.values : undefined;
  return Array.isArray(values) ? values : [];
}

function describeSchema(node: Node): string | undefined {
  return z.globalRegistry.get(node as unknown as z.ZodType)?.description;
}
