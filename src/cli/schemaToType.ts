import type { Schema as Indexed } from '@cfworker/json-schema';
import { type IndexedJsonSchema, indexJsonSchema } from '../manifest/indexJsonSchema';

type Schema = Record<string, unknown> | boolean;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Writes the TypeScript type of the values a JSON Schema accepts, as far as a type can say it: `type`, `properties`
 * with `required`, `additionalProperties` (an index signature of its type, joined with the named properties' types,
 * which TypeScript holds to it), `items`/`prefixItems`, `enum`, `const`, `anyOf`/`oneOf` (unions), `allOf`
 * (intersections), nullable types, and `$ref` inside the schema (JSON pointers, `$anchor`, the `$id` of a schema in it;
 * followed up to a depth, then `unknown`). Bounds,
 * patterns and formats stay runtime checks. Anything else is `unknown`.
 * @example
 * ```ts
 * schemaToType({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false });
 * // '{ q: string }'
 * ```
 */
export function schemaToType(schema: Schema, indent = ''): string {
  let index: IndexedJsonSchema | undefined;
  try {
    index = indexJsonSchema(schema);
  } catch {
    // A schema whose $id or $ref is not a URI: its references stay `unknown`.
  }
  return typeOf(index?.root ?? schema, index, 0, indent);
}

function typeOf(schema: Schema, index: IndexedJsonSchema | undefined, depth: number, indent: string): string {
  if (schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (!isRecord(schema) || depth > 16) return 'unknown';
  const next = (s: unknown, more = '') => typeOf(s as Schema, index, depth + 1, indent + more);
  if (typeof schema.$ref === 'string') {
    const target = index?.target(schema as Indexed);
    return target === undefined ? 'unknown' : next(target);
  }
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ') || 'never';
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf))
    return union(((schema.anyOf ?? schema.oneOf) as unknown[]).map((s) => next(s)));
  if (Array.isArray(schema.allOf)) return schema.allOf.map((s) => `(${next(s)})`).join(' & ') || 'unknown';

  const types = Array.isArray(schema.type) ? schema.type : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length === 0) return isRecord(schema.properties) ? objectType(schema, next, indent) : 'unknown';
  return union(
    types.map((type) => {
      switch (type) {
        case 'string':
          return 'string';
        case 'number':
        case 'integer':
          return 'number';
        case 'boolean':
          return 'boolean';
        case 'null':
          return 'null';
        case 'array':
          return arrayType(schema, next);
        case 'object':
          return objectType(schema, next, indent);
        default:
          return 'unknown';
      }
    }),
  );
}

function arrayType(schema: Record<string, unknown>, next: (s: unknown, more?: string) => string): string {
  if (Array.isArray(schema.prefixItems)) {
    const head = schema.prefixItems.map((s) => next(s));
    const rest =
      schema.items === false ? [] : [`...${wrap(schema.items === undefined ? 'unknown' : next(schema.items))}[]`];
    return `[${[...head, ...rest].join(', ')}]`;
  }
  return `${wrap(schema.items === undefined ? 'unknown' : next(schema.items))}[]`;
}

function objectType(
  schema: Record<string, unknown>,
  next: (s: unknown, more?: string) => string,
  indent: string,
): string {
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const lines: string[] = [];
  // Each named property's type must fit the index signature's: it is the union of them all and the others'.
  const named: string[] = [];
  for (const [name, sub] of Object.entries(properties)) {
    const doc =
      isRecord(sub) && typeof sub.description === 'string'
        ? `${indent}  /** ${sub.description.replace(/\*\//g, '* /')} */\n`
        : '';
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    const type = next(sub, '  ');
    named.push(type, ...(required.has(name) ? [] : ['undefined']));
    lines.push(`${doc}${indent}  ${key}${required.has(name) ? '' : '?'}: ${type};`);
  }
  const extra = schema.additionalProperties;
  if (extra !== false && extra !== undefined) {
    const others = extra === true ? 'unknown' : next(extra, '  ');
    lines.push(`${indent}  [key: string]: ${others === 'unknown' ? others : union([others, ...named])};`);
  }
  if (lines.length === 0) return extra === false ? 'Record<string, never>' : 'Record<string, unknown>';
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function literal(value: unknown): string {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value) ? JSON.stringify(value) : 'unknown';
}

function union(members: string[]): string {
  const unique = [...new Set(members)];
  return unique.length === 0 ? 'never' : unique.join(' | ');
}

function wrap(type: string): string {
  return /^[\w.[\]<>"]+$/.test(type) ? type : `(${type})`;
}
