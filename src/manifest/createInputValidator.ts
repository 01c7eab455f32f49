import { type OutputUnit, type Schema, validate } from '@cfworker/json-schema';
import { checkJsonSchema } from './checkJsonSchema';
import { isRecord, show } from './helpers';
import { type IndexedJsonSchema, indexJsonSchema } from './indexJsonSchema';
import { formatJsonPath } from './ManifestIssue';

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

type Json = Record<string, unknown>;
// Keywords whose failure only says "something below failed": their children carry the reason.
const WRAPPERS = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  '$ref',
  '$dynamicRef',
  'allOf',
  'dependentSchemas',
  'if',
  'then',
  'else',
]);
// Keywords that judge their subschemas as a whole: the subschemas' own failures are noise (one anyOf branch's type
// error is not what the person must fix).
const VERDICTS = new Set(['anyOf', 'oneOf', 'not', 'contains', 'propertyNames']);

/** How many of an input's problems are named. */
const MAX_ISSUES = 20;

/**
 * The `input_schema` objects of manifests that {@link validateManifest} accepted: their JSON Schema check already ran
 * (with the stricter manifest rules), so compiling them skips it.
 */
export const checkedInputSchemas = new WeakSet<object>();

/**
 * Compiles an action's `input_schema` into a function that checks an input before the handler runs.
 *
 * @remarks
 * Validation is `@cfworker/json-schema` (JSON Schema 2020-12, every keyword, no `eval`, so it runs in browsers,
 * workers, Node and jsdom), over a private copy of the schema. `$ref` resolves inside the schema only (JSON pointers,
 * `$anchor`, and the `$id` of any schema in it), never over the network. This function adds the manifest's own rules
 * on the schema (checked first) and turns each
 * failure into a sentence that starts with the JSON path and says what to write, the first 20 of them (then one
 * saying there are more). Lengths count Unicode code points.
 * `format` is checked for the formats the validator knows (date-time, date, time, email, uri, uuid, ipv4, ipv6,
 * hostname, and others).
 * @throws TypeError when the schema itself is not a valid JSON Schema.
 * @example
 * ```ts
 * const validate = createInputValidator({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false });
 * validate({ n: 1.5 }); // [{ path: '$.n', message: '$.n must be an integer; got 1.5' }]
 * ```
 * @public
 */
export function createInputValidator(schema: Record<string, unknown> | boolean): InputValidator {
  const checked = typeof schema === 'object' && checkedInputSchemas.has(schema);
  const errors = checked ? [] : checkJsonSchema(schema).filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    const list = errors.map((p) => `${formatJsonPath(p.path)} ${p.message}`).join('; ');
    throw new TypeError(`input_schema is not a valid JSON Schema: ${list}`);
  }
  const index = indexJsonSchema(schema);
  return (value) => {
    const result = validate(value, index.root, '2020-12', index.lookup, false);
    if (result.valid) return [];
    return explain(result.errors, index, value);
  };
}

function explain(units: OutputUnit[], index: IndexedJsonSchema, value: unknown): InputIssue[] {
  const judged = units.filter((u) => VERDICTS.has(u.keyword)).map((u) => `${u.keywordLocation}/`);
  const issues: InputIssue[] = [];
  const seen = new Set<string>();
  let skipFalse = false;
  for (const unit of units) {
    const { keyword } = unit;
    // The boolean-schema failure that follows an additionalProperties/unevaluated* failure repeats it.
    if (keyword === 'false' && skipFalse) {
      skipFalse = false;
      continue;
    }
    // Set before any filtering: the boolean failure belongs to its parent even when the parent is filtered out.
    skipFalse =
      keyword === 'additionalProperties' || keyword === 'unevaluatedProperties' || keyword === 'unevaluatedItems';
    if (WRAPPERS.has(keyword)) continue;
    if (judged.some((prefix) => unit.keywordLocation.startsWith(prefix))) continue;
    const keys = pointerKeys(unit.instanceLocation);
    const node = keywordNode(index, unit.keywordLocation);
    const message = sentence(keyword, node, at(value, keys), unit, keys);
    if (!message) continue;
    const where = formatJsonPath(message.keys ?? keys);
    const text = `${where} ${message.text}`;
    if (seen.has(text)) continue;
    seen.add(text);
    // An input with a thousand wrong properties is told of the first ones: told each, a 3 MB call was answered with
    // 18 MB of sentences.
    if (issues.length === MAX_ISSUES) {
      issues.push({ path: '$', message: `$ has more problems than these ${MAX_ISSUES}; fix them, then call again` });
      break;
    }
    issues.push({ path: where, message: text });
  }
  return issues;
}

/** `1 character`, `2 characters`. */
const characters = (count: unknown) => `${count} character${count === 1 ? '' : 's'}`;

/** The fix-it sentence for one failed keyword; `keys` overrides where it points. */
function sentence(
  keyword: string,
  node: Json,
  value: unknown,
  unit: OutputUnit,
  keys: (string | number)[],
): { text: string; keys?: (string | number)[] } | undefined {
  const word = node[keyword === 'dependentRequired' ? 'dependentRequired' : keyword];
  const quoted = /"([^"]*)"/.exec(unit.error)?.[1];
  switch (keyword) {
    case 'type': {
      const types = (Array.isArray(word) ? word : [word]).map(String);
      return { text: `must be ${types.map(article).join(' or ')}; got ${show(value)}` };
    }
    case 'enum':
      return { text: `must be one of ${(word as unknown[]).map(show).join(', ')}; got ${show(value)}` };
    case 'const':
      return { text: `must be ${show(word)}; got ${show(value)}` };
    case 'minimum':
      return { text: `must be at least ${word}; got ${value}` };
    case 'maximum':
      return { text: `must be at most ${word}; got ${value}` };
    case 'exclusiveMinimum':
      return { text: `must be greater than ${word}; got ${value}` };
    case 'exclusiveMaximum':
      return { text: `must be less than ${word}; got ${value}` };
    case 'multipleOf':
      return { text: `must be a multiple of ${word}; got ${value}` };
    case 'minLength':
      return { text: `must be at least ${characters(word)} long; it has ${[...String(value)].length}` };
    case 'maxLength':
      return { text: `must be at most ${characters(word)} long; it has ${[...String(value)].length}` };
    case 'pattern':
      return { text: `must match the pattern ${word}; got ${show(value)}` };
    case 'format':
      return { text: `must be in ${word} format; got ${show(value)}` };
    case 'minItems':
      return { text: `must have at least ${word} items; it has ${(value as unknown[]).length}` };
    case 'maxItems':
      return { text: `must have at most ${word} items; it has ${(value as unknown[]).length}` };
    case 'uniqueItems':
      return { text: 'must not contain the same item twice' };
    case 'minProperties':
      return { text: `must have at least ${word} properties` };
    case 'maxProperties':
      return { text: `must have at most ${word} properties` };
    case 'required': {
      const missing = ((word as string[]) ?? []).filter((name) => !(isRecord(value) && Object.hasOwn(value, name)));
      const name = quoted ?? missing[0];
      return name === undefined ? undefined : { text: 'is required; add it', keys: [...keys, name] };
    }
    case 'dependentRequired': {
      const [has, needs] = [...unit.error.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
      return { text: `is required when ${show(has)} is given; add it`, keys: [...keys, needs ?? '?'] };
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      // A schema for the other properties accepts them when they fit it: where one does not, its own keyword says
      // why ("must be an integer"), and "not an accepted property" would contradict it.
      if (word !== false) return undefined;
      const accepted = isRecord(node.properties) ? Object.keys(node.properties) : [];
      return {
        text: `is not an accepted property; remove it${accepted.length > 0 ? ` (accepted: ${accepted.join(', ')})` : ''}`,
        keys: [...keys, quoted ?? '?'],
      };
    }
    case 'unevaluatedItems':
      return { text: 'has more items than the schema accepts; remove the extra ones' };
    case 'propertyNames':
      return {
        text: 'is not an accepted property name (it does not match propertyNames); rename or remove it',
        keys: [...keys, quoted ?? '?'],
      };
    case 'contains': {
      const min = typeof node.minContains === 'number' ? node.minContains : 1;
      const max = typeof node.maxContains === 'number' ? `, and at most ${node.maxContains}` : '';
      return { text: `must contain at least ${min} item${min === 1 ? '' : 's'} matching its contains schema${max}` };
    }
    case 'anyOf':
      return { text: `must match at least one of the ${(word as unknown[]).length} anyOf schemas` };
    case 'oneOf':
      return { text: `must match exactly one of the ${(word as unknown[]).length} oneOf schemas` };
    case 'not':
      return { text: 'matches a schema under "not"; change the value' };
    case 'false':
      return { text: 'is not allowed here; remove it' };
    default:
      return { text: `does not satisfy "${keyword}" (${unit.error.replace(/\.$/, '')})` };
  }
}

/** `#/a/0/b~1c` → `['a', 0, 'b/c']` (numbers for array indexes). */
function pointerKeys(pointer: string): (string | number)[] {
  return pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '')
    .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^(0|[1-9]\d*)$/.test(part) ? Number(part) : part));
}

/** The value at a path of the input. */
function at(value: unknown, keys: (string | number)[]): unknown {
  let current = value;
  for (const key of keys)
    current =
      isRecord(current) || Array.isArray(current) ? (current as Record<string | number, unknown>)[key] : undefined;
  return current;
}

/** The schema object holding the failed keyword: follows the keyword location, and through `$ref`s. */
function keywordNode(index: IndexedJsonSchema, location: string): Json {
  const parts = pointerKeys(location).map(String);
  parts.pop(); // the keyword itself
  let node: unknown = index.root;
  for (const raw of parts) {
    const part = raw === 'dependantRequired' ? 'dependentRequired' : raw;
    if (isRecord(node) && part === '$ref' && typeof node.$ref === 'string') node = index.target(node as Schema);
    else node = isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[part] : undefined;
  }
  return isRecord(node) ? node : {};
}

function article(type: string): string {
  return type === 'null' ? 'null' : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
