import * as z from 'zod';
import { ManifestSchema } from './ManifestSchema';

/**
 * The `$id` of the published JSON Schema: a name, not an address (the schema ships in the package).
 * @public
 */
export const MANIFEST_SCHEMA_ID = 'urn:svc-sdk:manifest-schema:1';

/**
 * Builds the JSON Schema (2020-12) of `manifest.json` from {@link ManifestSchema}, for editors through `$schema`.
 *
 * @remarks
 * This is the source of `schema/manifest.schema.json`; a test fails when the committed file differs. It describes
 * the input form (defaults are optional) and the single-field shape; the CSP rules, the JSON Schema rules of
 * `input_schema` and the cross-field rules are only checked by `validateManifest` and `svc validate`.
 * @example
 * ```ts
 * const text = JSON.stringify(createManifestJsonSchema(), null, 2);
 * ```
 * @public
 */
export function createManifestJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ManifestSchema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  const { $schema, ...rest } = schema;
  return { $schema, $id: MANIFEST_SCHEMA_ID, ...rest };
}
