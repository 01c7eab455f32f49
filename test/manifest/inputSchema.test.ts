import { describe, expect, test } from 'vitest';
import { checkJsonSchema, createInputValidator } from '../../src/manifest';
import { errorsAfter } from './fixtures';

const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  additionalProperties: false,
  ...extra,
});
const errorsOf = (schema: unknown): string[] =>
  checkJsonSchema(schema, { closedObjects: true })
    .filter((p) => p.severity === 'error')
    .map((p) => p.path.join('/'));

describe('input_schema must be a valid JSON Schema 2020-12 object schema', () => {
  test('the root must be type object with additionalProperties false', () => {
    expect(errorsAfter((m) => (m.actions[0].input_schema = closed({})))).toEqual([]);
    expect(errorsAfter((m) => delete m.actions[0].input_schema.additionalProperties)).toEqual([
      '$.actions[0].input_schema.additionalProperties input_schema_root',
    ]);
    expect(errorsAfter((m) => (m.actions[0].input_schema.additionalProperties = true))).toEqual([
      '$.actions[0].input_schema.additionalProperties input_schema_root',
    ]);
    expect(errorsAfter((m) => (m.actions[0].input_schema.type = 'array'))).toEqual([
      '$.actions[0].input_schema.type input_schema_root',
    ]);
  });
  const bad: [string, unknown, string][] = [
    ['type names a real type', closed({ a: { type: 'text' } }), 'properties/a/type'],
    ['required is an array of strings', closed({ a: {} }, { required: 'a' }), 'required'],
    ['required items are strings', closed({ a: {} }, { required: [1] }), 'required'],
    ['properties is an object', { type: 'object', properties: [], additionalProperties: false }, 'properties'],
    [
      'items is one schema (2020-12)',
      closed({ a: { type: 'array', items: [{ type: 'string' }] } }),
      'properties/a/items',
    ],
    ['enum is a non-empty array', closed({ a: { enum: [] } }), 'properties/a/enum'],
    ['minLength is a whole number', closed({ a: { type: 'string', minLength: -1 } }), 'properties/a/minLength'],
    ['maximum is a number', closed({ a: { maximum: '5' } }), 'properties/a/maximum'],
    [
      'exclusiveMinimum is a number (not draft-04 boolean)',
      closed({ a: { minimum: 0, exclusiveMinimum: true } }),
      'properties/a/exclusiveMinimum',
    ],
    ['pattern compiles', closed({ a: { type: 'string', pattern: '[a-' } }), 'properties/a/pattern'],
    ['format is a string', closed({ a: { format: 1 } }), 'properties/a/format'],
    ['description is a string', closed({ a: { description: ['x'] } }), 'properties/a/description'],
    ['oneOf is a non-empty array', closed({ a: { oneOf: [] } }), 'properties/a/oneOf'],
    ['a subschema is an object or boolean', closed({ a: 'string' }), 'properties/a'],
    ['$ref resolves inside the document', closed({ a: { $ref: '#/$defs/missing' } }), 'properties/a/$ref'],
    ['$ref is not external', closed({ a: { $ref: 'https://example.com/s.json' } }), 'properties/a/$ref'],
    ['$schema is 2020-12', closed({}, { $schema: 'http://json-schema.org/draft-07/schema#' }), '$schema'],
    ['minimum is not above maximum', closed({ a: { minimum: 5, maximum: 1 } }), 'properties/a/minimum'],
    ['required names a declared property when closed', closed({ a: {} }, { required: ['b'] }), 'required/0'],
    ['uniqueItems is a boolean', closed({ a: { uniqueItems: 'yes' } }), 'properties/a/uniqueItems'],
  ];
  test.each(bad)('%s', (_name, schema, path) => {
    expect(errorsOf(schema)).toContain(path);
  });
  test('a schema using every supported keyword is valid', () => {
    const schema = closed(
      {
        city: {
          type: 'string',
          minLength: 1,
          maxLength: 80,
          pattern: '^\\p{L}',
          description: 'City name',
          default: 'Bern',
        },
        when: { type: 'string', format: 'date-time' },
        count: { type: 'integer', minimum: 1, maximum: 10, exclusiveMaximum: 11, multipleOf: 1 },
        kind: { enum: ['a', 'b'] },
        fixed: { const: 1 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 0, maxItems: 5, uniqueItems: true },
        pair: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }] },
        address: { $ref: '#/$defs/address' },
        either: { oneOf: [{ type: 'string' }, { type: 'number' }], anyOf: [true], allOf: [{}] },
        nullable: { type: ['string', 'null'] },
      },
      { required: ['city'], $defs: { address: closed({ street: { type: 'string' } }) } },
    );
    expect(checkJsonSchema(schema, { closedObjects: true })).toEqual([]);
  });
  test('nested open objects are warnings, not errors', () => {
    const problems = checkJsonSchema(closed({ a: { type: 'object' } }), { closedObjects: true });
    expect(problems).toEqual([
      expect.objectContaining({ path: ['properties', 'a'], severity: 'warning', code: 'input_schema_open_object' }),
    ]);
  });
});

describe('createInputValidator', () => {
  test('names the first 20 problems of an input, then says there are more (a thousand would be megabytes of text)', () => {
    const issues = createInputValidator(closed({ text: { type: 'string' } }))(
      Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i])),
    );
    expect(issues).toHaveLength(21);
    expect(issues[0]!.message).toBe('$.k0 is not an accepted property; remove it (accepted: text)');
    expect(issues[20]).toEqual({ path: '$', message: '$ has more problems than these 20; fix them, then call again' });
  });
  const validate = createInputValidator(
    closed(
      {
        pizza: { type: 'string', enum: ['margherita', 'diavola'] },
        quantity: { type: 'integer', minimum: 1, maximum: 20 },
        note: { type: 'string', maxLength: 3 },
        when: { type: 'string', format: 'date' },
        address: { $ref: '#/$defs/address' },
        extras: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' }, uniqueItems: true },
        payment: {
          oneOf: [
            closed({ card: { type: 'string' } }, { required: ['card'] }),
            closed({ cash: { const: true } }, { required: ['cash'] }),
          ],
        },
      },
      {
        required: ['pizza', 'quantity'],
        $defs: { address: closed({ street: { type: 'string' } }, { required: ['street'] }) },
      },
    ),
  );
  test('accepts a matching value', () => {
    expect(
      validate({
        pizza: 'diavola',
        quantity: 2,
        note: '🍕🍕🍕',
        when: '2025-01-31',
        address: { street: 'Main' },
        extras: ['olives'],
        payment: { cash: true },
      }),
    ).toEqual([]);
  });
  test('reports each mismatch with its path', () => {
    const issues = validate({
      pizza: 'hawaii',
      quantity: 1.5,
      note: 'long',
      when: 'tomorrow',
      address: {},
      extras: ['A', 'A'],
      payment: {},
      tip: 1,
    });
    expect(issues.map((i) => i.path)).toEqual([
      '$.pizza',
      '$.quantity',
      '$.note',
      '$.when',
      '$.address.street',
      '$.extras[0]',
      '$.extras[1]',
      '$.extras',
      '$.payment',
      '$.tip',
    ]);
    expect(issues.find((i) => i.path === '$.quantity')?.message).toBe('$.quantity must be an integer; got 1.5');
    expect(issues.find((i) => i.path === '$.tip')?.message).toMatch(
      /^\$\.tip is not an accepted property; remove it \(accepted: pizza, quantity/,
    );
  });
  test('a property that does not fit a schema of additionalProperties is told why, not that it is not accepted', () => {
    const check = createInputValidator({
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: { type: 'integer' },
    });
    expect(check({ a: 'x', b: 2 })).toEqual([]);
    expect(check({ a: 'x', b: 'notint' }).map((i) => i.message)).toEqual(['$.b must be an integer; got "notint"']);
  });
  test('reports missing required properties and a wrong root type', () => {
    expect(validate({}).map((i) => i.message)).toEqual([
      '$.pizza is required; add it',
      '$.quantity is required; add it',
    ]);
    expect(validate([])).toEqual([{ path: '$', message: '$ must be an object; got []' }]);
  });
  test('handles recursive $ref without looping forever', () => {
    const tree = createInputValidator({
      $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } }, additionalProperties: false } },
      $ref: '#/$defs/node',
    });
    expect(tree({ child: { child: {} } })).toEqual([]);
    expect(tree({ child: { child: { x: 1 } } }).map((i) => i.path)).toEqual(['$.child.child.x']);
  });
  test('supports anyOf, not, if/then/else and boolean schemas', () => {
    const v = createInputValidator({
      anyOf: [{ type: 'string' }, { type: 'number' }],
      not: { const: 0 },
      if: { type: 'number' },
      then: { minimum: 1 },
    });
    expect(v('x')).toEqual([]);
    expect(v(true).map((i) => i.message)).toEqual(['$ must match at least one of the 2 anyOf schemas']);
    expect(v(0).length).toBe(2);
    expect(createInputValidator(false)(1)).toEqual([{ path: '$', message: '$ is not allowed here; remove it' }]);
  });
  test('throws on a schema that is not valid', () => {
    expect(() => createInputValidator({ type: 'text' })).toThrow(
      /input_schema is not a valid JSON Schema: \$\.type must be one of/,
    );
  });
});

describe('$ref resolves inside the schema as the validator resolves it', () => {
  // Each shape a 2020-12 schema may use to point at a definition it contains.
  const shapes: [string, Record<string, unknown>][] = [
    [
      '$id-relative reference',
      closed(
        { street: { $ref: 'street.json' } },
        { $id: 'https://acme.example/schemas/order.json', $defs: { s: { $id: 'street.json', type: 'string' } } },
      ),
    ],
    ['$anchor', closed({ street: { $ref: '#street' } }, { $defs: { s: { $anchor: 'street', type: 'string' } } })],
    [
      'URN base',
      closed(
        { street: { $ref: 'urn:uuid:5b1d3c9e-6f1a-4d8e-9f43-1f2a3b4c5d6e' } },
        { $defs: { s: { $id: 'urn:uuid:5b1d3c9e-6f1a-4d8e-9f43-1f2a3b4c5d6e', type: 'string' } } },
      ),
    ],
    [
      '$defs under a nested $id',
      closed(
        { street: { $ref: 'https://acme.example/address.json#/$defs/street' } },
        {
          $defs: {
            address: { $id: 'https://acme.example/address.json', $defs: { street: { type: 'string' } } },
          },
        },
      ),
    ],
  ];
  test.each(shapes)('%s: the manifest accepts it and the action input is checked through it', (_name, schema) => {
    expect(errorsAfter((m) => (m.actions[0].input_schema = schema))).toEqual([]);
    const validate = createInputValidator(schema);
    expect(validate({ street: 'Main' })).toEqual([]);
    expect(validate({ street: 7 })).toEqual([{ path: '$.street', message: '$.street must be a string; got 7' }]);
  });
  test('a reference the schema does not contain is refused with what to write instead', () => {
    const remote = closed({ a: { $ref: 'https://example.com/s.json' } });
    expect(checkJsonSchema(remote, { closedObjects: true })).toEqual([
      expect.objectContaining({
        path: ['properties', 'a', '$ref'],
        severity: 'error',
        message:
          'points outside this schema ("https://example.com/s.json"), which cannot be resolved inside a package; copy the definition into "$defs" and write "#/$defs/<name>"',
      }),
    ]);
    const anchor = closed({ a: { $ref: '#streets' } }, { $defs: { s: { $anchor: 'street' } } });
    expect(checkJsonSchema(anchor, { closedObjects: true })).toEqual([
      expect.objectContaining({
        path: ['properties', 'a', '$ref'],
        message: 'points to "#streets", which does not exist in this schema; add it under "$defs" or fix the pointer',
      }),
    ]);
    // Relative to the nested $id, so the same name at the root does not count.
    const nested = closed(
      { a: { $id: 'https://acme.example/a.json', $ref: '#/$defs/x' } },
      { $defs: { x: { type: 'string' } } },
    );
    expect(errorsOf(nested)).toEqual(['properties/a/$ref']);
    expect(() => createInputValidator(nested)).toThrow(/properties\.a\.\$ref points to "#\/\$defs\/x"/);
  });
  test('an $id or $anchor that cannot name a schema is refused at its place', () => {
    expect(errorsOf(closed({ a: { $id: 'https://[bad' } }))).toEqual(['properties/a/$id']);
    expect(errorsOf(closed({ a: { $anchor: '1st' } }))).toEqual(['properties/a/$anchor']);
    const twice = closed({ a: { $id: 'urn:example:x' }, b: { $id: 'urn:example:x' } });
    expect(checkJsonSchema(twice, { closedObjects: true })).toEqual([
      expect.objectContaining({
        path: [],
        message: 'declares the schema URI "urn:example:x" twice; give each "$id" and "$anchor" a distinct value',
      }),
    ]);
  });
  test('$dynamicRef, which the validator ignores, is a warning that says to write $ref', () => {
    const schema = closed({ a: { $dynamicRef: '#node' } }, { $defs: { n: { $dynamicAnchor: 'node' } } });
    expect(checkJsonSchema(schema, { closedObjects: true })).toEqual([
      expect.objectContaining({
        path: ['properties', 'a', '$dynamicRef'],
        severity: 'warning',
        message: expect.stringMatching(/is not enforced when the action runs .*write "\$ref" with the same target$/),
      }),
    ]);
  });
  test('contentSchema is a schema, and the caller keeps an untouched schema', () => {
    const schema = closed({
      doc: { type: 'string', contentMediaType: 'application/json', contentSchema: { type: 'object' } },
    });
    expect(errorsOf(schema)).toEqual([]);
    const before = JSON.stringify(schema);
    createInputValidator(schema)({ doc: '{}' });
    expect(Object.getOwnPropertyNames(schema.properties)).toEqual(['doc']);
    expect(JSON.stringify(schema)).toBe(before);
    expect(Object.getOwnPropertyNames(schema)).toEqual(['type', 'properties', 'additionalProperties']);
  });
});
