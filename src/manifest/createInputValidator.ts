import { checkJsonSchema, isRecord, show } from './checkJsonSchema';
import { formatJsonPath } from './ManifestIssue';
import { resolveJsonPointer } from './resolveJsonPointer';

/**
 * One reason an action input does not match the action's `input_schema`.
 * @public
 */
export interface InputIssue {
  /** JSON path inside the input, such as `$.items[2].quantity`; `$` is the whole input. */
  path: string;
  /** A sentence that starts with the path and says what value is expected. */
  message: string;
}

/**
 * Checks a value against one action's `input_schema` and returns every mismatch (an empty array when it matches).
 * @public
 */
export type InputValidator = (value: unknown) => InputIssue[];

type Path = (string | number)[];
type Schema = Record<string, unknown> | boolean;

const FORMAT_CHECKS: Record<string, (value: string) => boolean> = {
  email: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
  uri: (v) => /^[a-z][a-z0-9+.-]*:/i.test(v) && URL.canParse(v),
  'date-time': (v) => /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)),
  time: (v) => /^\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(v),
  uuid: (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v),
};

/**
 * Compiles an action's `input_schema` into a function that checks an input before the handler runs.
 *
 * @remarks
 * Supports the JSON Schema 2020-12 keywords that {@link checkJsonSchema} accepts: types, `properties`, `required`,
 * `additionalProperties`, `patternProperties`, `items`, `prefixItems`, `enum`, `const`, numeric and length bounds
 * (lengths count Unicode code points), `pattern`, `uniqueItems`, `allOf`/`anyOf`/`oneOf`/`not`, `if`/`then`/`else`,
 * and `$ref` within the document. `format` is checked for email, uri, date-time, date, time and uuid; other formats
 * and annotation keywords are not checked.
 * @throws TypeError when the schema itself is not a valid JSON Schema.
 * @example
 * ```ts
 * const validate = createInputValidator({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false });
 * validate({ n: 1.5 }); // [{ path: '$.n', message: '$.n must be an integer; got 1.5' }]
 * ```
 * @public
 */
export function createInputValidator(schema: Record<string, unknown> | boolean): InputValidator {
  const errors = checkJsonSchema(schema).filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    const list = errors.map((p) => `${formatJsonPath(p.path)} ${p.message}`).join('; ');
    throw new TypeError(`input_schema is not a valid JSON Schema: ${list}`);
  }
  return (value) => {
    const issues: InputIssue[] = [];
    check(schema, value, [], schema, issues, 0);
    return issues;
  };
}

function check(schema: Schema, value: unknown, path: Path, root: Schema, issues: InputIssue[], depth: number): void {
  const fail = (at: Path, text: string): void => {
    const where = formatJsonPath(at);
    issues.push({ path: where, message: `${where} ${text}` });
  };
  if (schema === true) return;
  if (schema === false) return fail(path, 'is not allowed here; remove it');
  // A self-referencing $ref (a tree type) on a deep value could recurse without end.
  if (depth > 64) return fail(path, 'is nested too deeply to check (more than 64 levels)');
  const sub = (s: unknown, v: unknown, at: Path, into = issues): void => check(s as Schema, v, at, root, into, depth + 1);
  const matches = (s: unknown): boolean => {
    const trial: InputIssue[] = [];
    sub(s, value, path, trial);
    return trial.length === 0;
  };

  if (typeof schema.$ref === 'string') sub(resolveJsonPointer(root, schema.$ref), value, path);
  if (schema.type !== undefined) {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as string[];
    if (!types.some((type) => hasType(value, type))) return fail(path, `must be ${types.map(article).join(' or ')}; got ${show(value)}`);
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((item) => equal(item, value))) {
    fail(path, `must be one of ${schema.enum.map(show).join(', ')}; got ${show(value)}`);
  }
  if ('const' in schema && !equal(schema.const, value)) fail(path, `must be ${show(schema.const)}; got ${show(value)}`);

  if (typeof value === 'number') {
    const n = schema;
    if (typeof n.minimum === 'number' && value < n.minimum) fail(path, `must be at least ${n.minimum}; got ${value}`);
    if (typeof n.maximum === 'number' && value > n.maximum) fail(path, `must be at most ${n.maximum}; got ${value}`);
    if (typeof n.exclusiveMinimum === 'number' && value <= n.exclusiveMinimum) fail(path, `must be greater than ${n.exclusiveMinimum}; got ${value}`);
    if (typeof n.exclusiveMaximum === 'number' && value >= n.exclusiveMaximum) fail(path, `must be less than ${n.exclusiveMaximum}; got ${value}`);
    if (typeof n.multipleOf === 'number' && !Number.isInteger(Number((value / n.multipleOf).toPrecision(12)))) fail(path, `must be a multiple of ${n.multipleOf}; got ${value}`);
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength) fail(path, `must be at least ${schema.minLength} characters long; it has ${length}`);
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) fail(path, `must be at most ${schema.maxLength} characters long; it has ${length}`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) fail(path, `must match the pattern ${schema.pattern}; got ${show(value)}`);
    const format = typeof schema.format === 'string' ? FORMAT_CHECKS[schema.format] : undefined;
    if (format && !format(value)) fail(path, `must be in ${schema.format} format; got ${show(value)}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) fail(path, `must have at least ${schema.minItems} items; it has ${value.length}`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) fail(path, `must have at most ${schema.maxItems} items; it has ${value.length}`);
    if (schema.uniqueItems === true && value.some((item, i) => value.findIndex((other) => equal(other, item)) !== i)) fail(path, 'must not contain the same item twice');
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    value.forEach((item, i) => {
      if (i < prefix.length) sub(prefix[i], item, [...path, i]);
      else if (schema.items !== undefined) sub(schema.items, item, [...path, i]);
    });
  }
  if (isRecord(value)) checkObject(schema, value, path, fail, sub);

  if (Array.isArray(schema.allOf)) for (const s of schema.allOf) sub(s, value, path);
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some(matches)) fail(path, `must match at least one of the ${schema.anyOf.length} anyOf schemas`);
  if (Array.isArray(schema.oneOf)) {
    const count = schema.oneOf.filter(matches).length;
    if (count !== 1) fail(path, `must match exactly one of the ${schema.oneOf.length} oneOf schemas; it matches ${count}`);
  }
  if (schema.not !== undefined && matches(schema.not)) fail(path, 'matches a schema under "not"; change the value');
  if (schema.if !== undefined) {
    const branch = matches(schema.if) ? schema.then : schema.else;
    if (branch !== undefined) sub(branch, value, path);
  }
}

function checkObject(
  schema: Record<string, unknown>,
  value: Record<string, unknown>,
  path: Path,
  fail: (at: Path, text: string) => void,
  sub: (s: unknown, v: unknown, at: Path) => void,
): void {
  const props = isRecord(schema.properties) ? schema.properties : {};
  const patterns = isRecord(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
  if (Array.isArray(schema.required)) {
    for (const name of schema.required as string[]) if (!Object.hasOwn(value, name)) fail([...path, name], 'is required; add it');
  }
  const keys = Object.keys(value);
  if (typeof schema.minProperties === 'number' && keys.length < schema.minProperties) fail(path, `must have at least ${schema.minProperties} properties`);
  if (typeof schema.maxProperties === 'number' && keys.length > schema.maxProperties) fail(path, `must have at most ${schema.maxProperties} properties`);
  for (const key of keys) {
    const at = [...path, key];
    let known = Object.hasOwn(props, key);
    if (known) sub(props[key], value[key], at);
    for (const [pattern, s] of patterns) {
      if (new RegExp(pattern, 'u').test(key)) {
        known = true;
        sub(s, value[key], at);
      }
    }
    if (known || schema.additionalProperties === undefined) continue;
    if (schema.additionalProperties === false) {
      const allowed = Object.keys(props);
      fail(at, `is not an accepted property; remove it${allowed.length > 0 ? ` (accepted: ${allowed.join(', ')})` : ''}`);
    } else sub(schema.additionalProperties, value[key], at);
  }
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null': return value === null;
    case 'array': return Array.isArray(value);
    case 'object': return isRecord(value);
    case 'integer': return Number.isInteger(value);
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    default: return typeof value === type;
  }
}

function article(type: string): string {
  return type === 'null' ? 'null' : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** Deep equality of JSON values, as `enum`, `const` and `uniqueItems` require (key order does not matter). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
  }
  return false;
}
