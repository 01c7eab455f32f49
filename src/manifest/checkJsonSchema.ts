import type { Schema } from '@cfworker/json-schema';
import { isRecord, show } from './helpers';
import { type IndexedJsonSchema, indexJsonSchema } from './indexJsonSchema';
import type { ManifestIssueSeverity } from './ManifestIssue';

/**
 * A problem found in a JSON Schema document by {@link checkJsonSchema}.
 * @public
 */
export interface JsonSchemaProblem {
  /** Keys and indexes from the schema root to the offending keyword. */
  path: (string | number)[];
  /** What is wrong and what to write instead, worded to follow the path (`... must be ...`). */
  message: string;
  severity: ManifestIssueSeverity;
  /** `json_schema`, `input_schema_root`, `input_schema_open_object` or `json_schema_unknown_keyword`. */
  code: string;
}

/**
 * Options of {@link checkJsonSchema}.
 * @public
 */
export interface CheckJsonSchemaOptions {
  /**
   * Apply the `input_schema` rules: the root must be `type: "object"` with `additionalProperties: false` (errors), and
   * nested object schemas should be closed too (warnings).
   */
  closedObjects?: boolean;
}

/** A list written as one line of space-separated words. */
const words = (list: string): string[] => list.split(' ');

// JSON Schema 2020-12's keywords, by the kind of value each takes.
const TYPES = words('null boolean object array number integer string');
const SCHEMA = words(
  'items additionalProperties not propertyNames contains if then else unevaluatedProperties unevaluatedItems contentSchema',
);
const SCHEMA_MAP = words('properties $defs definitions patternProperties dependentSchemas');
const SCHEMA_LIST = words('allOf anyOf oneOf prefixItems');
const COUNT = words('minLength maxLength minItems maxItems minProperties maxProperties minContains maxContains');
const NUMBER = words('minimum maximum exclusiveMinimum exclusiveMaximum multipleOf');
const TEXT = words(
  '$id $anchor $dynamicAnchor $dynamicRef $comment title description format contentMediaType contentEncoding',
);
const FLAG = words('uniqueItems readOnly writeOnly deprecated');
const FREE = words('default const examples $vocabulary pattern $ref type required enum $schema dependentRequired');
const KNOWN = new Set([...SCHEMA, ...SCHEMA_MAP, ...SCHEMA_LIST, ...COUNT, ...NUMBER, ...TEXT, ...FLAG, ...FREE]);
const FORMATS = new Set(
  words(
    'date-time date time duration email idn-email hostname idn-hostname ipv4 ipv6 uri uri-reference iri iri-reference uuid uri-template json-pointer relative-json-pointer regex',
  ),
);
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;
const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const BOUNDS: [string, string][] = [
  ['minLength', 'maxLength'],
  ['minItems', 'maxItems'],
  ['minProperties', 'maxProperties'],
  ['minimum', 'maximum'],
];

/**
 * Checks that a value is a JSON Schema 2020-12 document whose keywords have the right types, as far as the keywords
 * an action schema uses: `type`, `properties`, `required`, `items`, `enum`, `const`, bounds, `pattern` (must compile as
 * a JavaScript `RegExp` with the `u` flag), `format`, combinators, and `$ref`.
 *
 * @remarks
 * A `$ref` must resolve inside the document, as the validator resolves it: a JSON pointer, an `$anchor`, or the
 * `$id` of a schema in the document (relative to the enclosing `$id`, or a URN), since nothing is fetched when an
 * action runs. Unknown keywords are warnings, since 2020-12 allows them as annotations but they are usually typos
 * (`require`).
 * @example
 * ```ts
 * checkJsonSchema({ type: 'object', required: 'city' }); // [{ path: ['required'], message: 'must be an array ...' }]
 * ```
 * @public
 */
export function checkJsonSchema(schema: unknown, options: CheckJsonSchemaOptions = {}): JsonSchemaProblem[] {
  const problems: JsonSchemaProblem[] = [];
  const error = (path: (string | number)[], message: string, code = 'json_schema'): void => {
    problems.push({ path, message, severity: 'error', code });
  };
  const warn = (path: (string | number)[], message: string, code = 'json_schema'): void => {
    problems.push({ path, message, severity: 'warning', code });
  };
  const closed = options.closedObjects === true;
  // The checks walk the indexed copy, so each $ref is judged with the base URI the validator gives it.
  let index: IndexedJsonSchema | undefined;
  let indexFailure: unknown;
  try {
    index = indexJsonSchema(schema);
  } catch (cause) {
    indexFailure = cause;
  }
  const document: unknown = index?.root ?? schema;

  if (closed) {
    if (!isRecord(schema)) {
      error(
        [],
        'must be an object schema with "type": "object" and "additionalProperties": false',
        'input_schema_root',
      );
      return problems;
    }
    if (schema.type !== 'object') {
      error(
        ['type'],
        `must be "object" at the root of input_schema (an action takes named arguments); write "type": "object"`,
        'input_schema_root',
      );
    }
    if (schema.additionalProperties !== false) {
      error(
        ['additionalProperties'],
        'must be false at the root of input_schema, so an agent cannot pass arguments the handler does not expect; write "additionalProperties": false',
        'input_schema_root',
      );
    }
  }
  if (isRecord(schema) && '$schema' in schema && schema.$schema !== DIALECT) {
    error(['$schema'], `must be "${DIALECT}" or left out: action schemas are JSON Schema 2020-12`);
  }

  const visit = (node: unknown, path: (string | number)[], nested: boolean): void => {
    if (typeof node === 'boolean') return;
    if (!isRecord(node)) {
      error(path, 'must be a JSON Schema: an object, or true/false');
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      const at = [...path, key];
      if (SCHEMA.includes(key)) {
        if (key === 'items' && Array.isArray(value)) {
          error(at, 'must be a single schema in JSON Schema 2020-12; for a tuple, move the list to "prefixItems"');
        } else visit(value, at, true);
      } else if (SCHEMA_MAP.includes(key)) {
        if (!isRecord(value)) error(at, 'must be an object that maps names to schemas');
        else {
          if (key === 'definitions') warn(at, 'is the pre-2019 name; rename "definitions" to "$defs"');
          for (const [name, sub] of Object.entries(value)) {
            if (key === 'patternProperties') checkPattern(name, at.concat(name), error);
            visit(sub, [...at, name], true);
          }
        }
      } else if (SCHEMA_LIST.includes(key)) {
        if (!Array.isArray(value) || value.length === 0) error(at, 'must be a non-empty array of schemas');
        else
          value.forEach((sub, i) => {
            visit(sub, [...at, i], true);
          });
      } else if (COUNT.includes(key)) {
        if (!Number.isInteger(value) || (value as number) < 0)
          error(at, `must be a whole number of 0 or more; got ${show(value)}`);
      } else if (NUMBER.includes(key)) {
        if (typeof value === 'boolean' && key.startsWith('exclusive')) {
          error(
            at,
            `must be a number in JSON Schema 2020-12 (the boolean form is draft-04); write "${key}": <limit> and drop "${key === 'exclusiveMinimum' ? 'minimum' : 'maximum'}"`,
          );
        } else if (typeof value !== 'number' || !Number.isFinite(value))
          error(at, `must be a number; got ${show(value)}`);
        else if (key === 'multipleOf' && value <= 0) error(at, `must be greater than 0; got ${value}`);
      } else if (TEXT.includes(key)) {
        if (typeof value !== 'string') error(at, `must be a string; got ${show(value)}`);
        else if ((key === '$id' || key === '$dynamicRef') && !isUriReference(value))
          error(at, `is not a URI reference (${show(value)}); write a URI such as "https://example.com/address"`);
        else if (key === '$dynamicRef')
          warn(
            at,
            'is not enforced when the action runs (the validator does not implement dynamic references); write "$ref" with the same target',
          );
        else if ((key === '$anchor' || key === '$dynamicAnchor') && !ANCHOR.test(value))
          error(at, `must start with a letter or "_" followed by letters, digits, "-", "_" or "."; got ${show(value)}`);
        else if (key === 'format' && !FORMATS.has(value))
          warn(
            at,
            `"${value}" is not a JSON Schema 2020-12 format and will not be checked; use one of ${[...FORMATS].join(', ')}`,
          );
      } else if (FLAG.includes(key)) {
        if (typeof value !== 'boolean') error(at, `must be true or false; got ${show(value)}`);
      } else if (key === 'type') checkType(value, at, error);
      else if (key === 'required') checkNames(value, at, error);
      else if (key === 'enum' || key === 'examples') {
        if (!Array.isArray(value)) error(at, `must be an array of allowed values; got ${show(value)}`);
        else if (key === 'enum' && value.length === 0)
          error(at, 'must list at least one value; an empty enum accepts nothing');
      } else if (key === 'pattern') checkPattern(value, at, error);
      else if (key === '$ref') checkRef(value, node, at, index, error);
      else if (key === 'dependentRequired') {
        if (!isRecord(value)) error(at, 'must be an object that maps a property name to an array of property names');
        else for (const [name, list] of Object.entries(value)) checkNames(list, [...at, name], error);
      } else if (!KNOWN.has(key)) {
        warn(
          at,
          `is not a JSON Schema 2020-12 keyword and is ignored by validators; check the spelling or remove it`,
          'json_schema_unknown_keyword',
        );
      }
    }
    for (const [low, high] of BOUNDS) {
      const a = node[low];
      const b = node[high];
      if (typeof a === 'number' && typeof b === 'number' && a > b)
        error([...path, low], `(${a}) is greater than ${high} (${b}), so no value can match; swap them`);
    }
    const props = isRecord(node.properties) ? node.properties : {};
    if (node.additionalProperties === false && Array.isArray(node.required) && !isRecord(node.patternProperties)) {
      node.required.forEach((name, i) => {
        if (typeof name === 'string' && !(name in props)) {
          error(
            [...path, 'required', i],
            `names "${name}", which is not in "properties" while additionalProperties is false, so no value can match; add "${name}" to properties or remove it from required`,
          );
        }
      });
    }
    const isObject =
      node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object')) || 'properties' in node;
    if (closed && nested && isObject && node.additionalProperties !== false && node.unevaluatedProperties !== false) {
      warn(
        path,
        'is an object schema that accepts any extra property; add "additionalProperties": false so agents cannot pass fields the handler ignores',
        'input_schema_open_object',
      );
    }
  };
  const before = problems.length;
  visit(document, [], false);
  // A bad $id or $ref stops the indexing; it is reported at its place above, anything else here.
  if (indexFailure !== undefined && !problems.slice(before).some((p) => p.severity === 'error'))
    error([], describeIndexFailure(indexFailure));
  return problems;
}

type Report = (path: (string | number)[], message: string) => void;

function checkType(value: unknown, at: (string | number)[], error: Report): void {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) error(at, `must name at least one type: ${TYPES.join(', ')}`);
  for (const type of list) {
    if (typeof type !== 'string' || !TYPES.includes(type)) {
      error(at, `must be one of ${TYPES.join(', ')} (or an array of them); got ${show(type)}`);
      return;
    }
  }
  if (new Set(list).size !== list.length) error(at, 'lists a type twice; list each type once');
}

function checkNames(value: unknown, at: (string | number)[], error: Report): void {
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string')) {
    error(
      at,
      `must be an array of property names (strings) on the object schema, such as ["city"]; got ${show(value)}`,
    );
  } else if (new Set(value).size !== value.length) error(at, 'lists a property twice; list each name once');
}

function checkPattern(value: unknown, at: (string | number)[], error: Report): void {
  if (typeof value !== 'string') {
    error(at, `must be a regular expression written as a string; got ${show(value)}`);
    return;
  }
  try {
    new RegExp(value, 'u');
  } catch (cause) {
    error(
      at,
      `is not a valid regular expression (${(cause as Error).message}); fix the expression, escaping backslashes as \\\\ in JSON`,
    );
  }
}

function checkRef(
  value: unknown,
  node: Record<string, unknown>,
  at: (string | number)[],
  index: IndexedJsonSchema | undefined,
  error: Report,
): void {
  if (typeof value !== 'string') {
    error(at, `must be a string such as "#/$defs/address"; got ${show(value)}`);
    return;
  }
  if (!isUriReference(value)) {
    error(at, `is not a URI reference (${show(value)}); write a pointer such as "#/$defs/address"`);
    return;
  }
  if (index === undefined || index.target(node as Schema) !== undefined) return;
  const uri = index.absoluteRef(node as Schema) ?? value;
  const resource = uri.split('#')[0];
  const known = Object.keys(index.lookup).some((key) => key.split('#')[0] === resource);
  if (known)
    error(at, `points to "${value}", which does not exist in this schema; add it under "$defs" or fix the pointer`);
  else
    error(
      at,
      `points outside this schema ("${value}"), which cannot be resolved inside a package; copy the definition into "$defs" and write "#/$defs/<name>"`,
    );
}

function isUriReference(value: string): boolean {
  try {
    new URL(value, 'https://schema.invalid/');
    return true;
  } catch {
    return false;
  }
}

function describeIndexFailure(cause: unknown): string {
  const duplicate = /Duplicate schema URI "([^"]*)"/.exec(String((cause as Error)?.message ?? cause))?.[1];
  return duplicate !== undefined
    ? `declares the schema URI "${duplicate}" twice; give each "$id" and "$anchor" a distinct value`
    : `cannot be indexed (${String((cause as Error)?.message ?? cause)}); check each "$id" and "$ref"`;
}
