import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { MANIFEST_SCHEMA_FILE, renderManifestJsonSchema } from '../../scripts/manifestSchema';
import { createInputValidator, createManifestJsonSchema } from '../../src/manifest';
import { type Json, validManifest } from './fixtures';

const committed = readFileSync(fileURLToPath(new URL(`../../${MANIFEST_SCHEMA_FILE}`, import.meta.url)), 'utf8');

describe('the JSON Schema for editors', () => {
  test('the committed schema/manifest.schema.json is what the generator produces now (regenerate it if this fails)', () => {
    expect(committed).toBe(renderManifestJsonSchema());
  });
  test('is a 2020-12 schema that closes every object and carries the bounds', () => {
    const schema = createManifestJsonSchema() as Json;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.name).toMatchObject({ minLength: 1, maxLength: 60 });
    expect(schema.properties.manifest_version).toMatchObject({ type: 'integer', const: 1 });
    expect(schema.properties.icons.minItems).toBe(2);
    expect(schema.properties.$schema).toBeUndefined(); // a manifest allows no property beyond its list
    expect(schema.properties.permissions.items.required).toEqual(['scope', 'purpose']);
  });
  test('accepts the valid manifest and rejects the obvious mistakes an editor should flag', () => {
    const validate = createInputValidator(createManifestJsonSchema());
    expect(validate(validManifest())).toEqual([]);
    const m: Json = validManifest();
    m.vendor.website = 'x';
    m.name = 'x'.repeat(61);
    m.auth = { type: 'none', audience: 'x' };
    expect(validate(m).map((i) => i.path)).toEqual(['$.name', '$.vendor.website', '$.auth']);
  });
});
