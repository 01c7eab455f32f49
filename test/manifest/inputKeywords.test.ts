// Every JSON Schema 2020-12 keyword the manifest accepts in input_schema is enforced: one row per assertion keyword,
// with a value that passes and one that fails (and where the failure points). Annotation keywords never reject.
import { describe, expect, test } from 'vitest';
import { createInputValidator } from '../../src/manifest';

type Row = [
  keyword: string,
  schema: Record<string, unknown>,
  passes: unknown,
  fails: unknown,
  path: string,
  message?: RegExp,
];
const rows: Row[] = [
  ['type', { type: 'integer' }, 3, 3.5, '$', /must be an integer; got 3.5/],
  ['type (list)', { type: ['string', 'null'] }, null, 1, '$', /must be a string or null/],
  ['enum', { enum: ['a', 'b'] }, 'a', 'c', '$', /must be one of "a", "b"; got "c"/],
  ['const', { const: 'x' }, 'x', 'y', '$', /must be "x"/],
  ['minimum', { minimum: 1 }, 1, 0, '$', /at least 1/],
  ['maximum', { maximum: 1 }, 1, 2, '$', /at most 1/],
  ['exclusiveMinimum', { exclusiveMinimum: 1 }, 2, 1, '$', /greater than 1/],
  ['exclusiveMaximum', { exclusiveMaximum: 1 }, 0, 1, '$', /less than 1/],
  ['multipleOf', { multipleOf: 0.5 }, 1.5, 1.2, '$', /multiple of 0.5/],
  ['minLength (code points)', { minLength: 2 }, '😀😀', '😀', '$', /at least 2 characters long; it has 1/],
  ['minLength 1', { minLength: 1 }, 'a', '', '$', /at least 1 character long; it has 0/],
  ['maxLength 1', { maxLength: 1 }, 'a', 'ab', '$', /at most 1 character long; it has 2/],
  ['maxLength', { maxLength: 2 }, 'ab', 'abc', '$', /at most 2 characters/],
  ['pattern', { pattern: '^[a-z]+$' }, 'abc', 'ABC', '$', /match the pattern/],
  ['format', { format: 'email' }, 'a@b.example', 'nope', '$', /email format/],
  ['items', { items: { type: 'string' } }, ['a'], ['a', 1], '$[1]', /must be a string/],
  [
    'prefixItems',
    { prefixItems: [{ type: 'string' }, { type: 'number' }] },
    ['a', 1],
    ['a', 'b'],
    '$[1]',
    /must be a number/,
  ],
  ['minItems', { minItems: 1 }, [1], [], '$', /at least 1 items/],
  ['maxItems', { maxItems: 1 }, [1], [1, 2], '$', /at most 1 items/],
  ['uniqueItems', { uniqueItems: true }, [1, 2], [1, 1], '$', /same item twice/],
  ['contains', { contains: { const: 'x' } }, ['x', 'y'], ['y'], '$', /at least 1 item matching/],
  ['minContains', { contains: { const: 'x' }, minContains: 2 }, ['x', 'x'], ['x', 'y'], '$', /at least 2 items/],
  ['maxContains', { contains: { const: 'x' }, maxContains: 1 }, ['x', 'y'], ['x', 'x'], '$', /at most 1/],
  ['unevaluatedItems', { prefixItems: [{ type: 'string' }], unevaluatedItems: false }, ['a'], ['a', 'b'], '$'],
  ['properties', { properties: { a: { type: 'string' } } }, { a: 'x' }, { a: 1 }, '$.a', /must be a string/],
  ['required', { required: ['a'] }, { a: 1 }, {}, '$.a', /is required; add it/],
  [
    'additionalProperties',
    { properties: { a: {} }, additionalProperties: false },
    { a: 1 },
    { a: 1, b: 2 },
    '$.b',
    /not an accepted property; remove it \(accepted: a\)/,
  ],
  [
    'patternProperties',
    { patternProperties: { '^n_': { type: 'number' } } },
    { n_a: 1 },
    { n_a: 'x' },
    '$.n_a',
    /must be a number/,
  ],
  [
    'propertyNames',
    { propertyNames: { pattern: '^[a-z]+$' } },
    { ab: 1 },
    { aB: 1 },
    '$.aB',
    /not an accepted property name/,
  ],
  ['minProperties', { minProperties: 1 }, { a: 1 }, {}, '$', /at least 1 properties/],
  ['maxProperties', { maxProperties: 1 }, { a: 1 }, { a: 1, b: 2 }, '$', /at most 1 properties/],
  [
    'dependentRequired',
    { dependentRequired: { card: ['cvc'] } },
    { card: 1, cvc: 2 },
    { card: 1 },
    '$.cvc',
    /required when "card" is given/,
  ],
  [
    'dependentSchemas',
    { dependentSchemas: { card: { required: ['cvc'] } } },
    { card: 1, cvc: 2 },
    { card: 1 },
    '$.cvc',
    /is required/,
  ],
  [
    'unevaluatedProperties',
    { allOf: [{ properties: { a: {} } }], unevaluatedProperties: false },
    { a: 1 },
    { a: 1, b: 2 },
    '$.b',
    /not an accepted property/,
  ],
  ['allOf', { allOf: [{ minimum: 1 }, { maximum: 3 }] }, 2, 4, '$', /at most 3/],
  ['anyOf', { anyOf: [{ type: 'string' }, { type: 'number' }] }, 1, true, '$', /at least one of the 2 anyOf/],
  ['oneOf', { oneOf: [{ minimum: 1 }, { minimum: 2 }] }, 1, 3, '$', /exactly one of the 2 oneOf/],
  ['not', { not: { const: 0 } }, 1, 0, '$', /under "not"/],
  ['if/then', { if: { minimum: 10 }, then: { multipleOf: 10 } }, 20, 15, '$', /multiple of 10/],
  ['if/else', { if: { minimum: 10 }, else: { const: 0 } }, 0, 5, '$', /must be 0/],
  [
    '$ref and $defs',
    { $defs: { pos: { minimum: 1 } }, properties: { n: { $ref: '#/$defs/pos' } } },
    { n: 1 },
    { n: 0 },
    '$.n',
    /at least 1/,
  ],
];

describe('createInputValidator enforces every keyword', () => {
  test.each(rows)('%s', (_keyword, schema, passes, fails, path, message) => {
    const validate = createInputValidator(schema);
    expect(validate(passes)).toEqual([]);
    const issues = validate(fails);
    expect(issues.map((i) => i.path)).toContain(path);
    if (message) expect(issues.find((i) => i.path === path)?.message).toMatch(message);
    for (const issue of issues) expect(issue.message.startsWith(issue.path)).toBe(true);
  });

  test('annotation keywords never reject a value', () => {
    const validate = createInputValidator({
      $id: 'urn:example:x',
      $comment: 'c',
      title: 't',
      description: 'd',
      default: 1,
      examples: [1],
      readOnly: true,
      writeOnly: false,
      deprecated: false,
      contentMediaType: 'text/plain',
      contentEncoding: 'base64',
      type: 'string',
    });
    expect(validate('anything')).toEqual([]);
  });

  test('an anyOf failure is reported once, not with every branch it tried', () => {
    const issues = createInputValidator({ properties: { e: { anyOf: [{ type: 'string' }, { type: 'number' }] } } })({
      e: true,
    });
    expect(issues).toEqual([{ path: '$.e', message: '$.e must match at least one of the 2 anyOf schemas' }]);
  });
});
