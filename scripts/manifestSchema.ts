/**
 * Writes schema/manifest.schema.json from the zod schema of the manifest, so editors validate and complete
 * manifest.json through its `$schema` key. Run it after changing src/manifest; test/manifest/manifestJsonSchema.test.ts
 * fails while the committed file is stale.
 *
 * Node 20 cannot run TypeScript directly, so the package script bundles this file first:
 *   esbuild scripts/manifestSchema.ts --bundle --platform=node --format=esm --packages=external --outfile=.tmp/manifestSchema.mjs && node .tmp/manifestSchema.mjs
 */
import { writeFileSync } from 'node:fs';
import { createManifestJsonSchema } from '../src/manifest/createManifestJsonSchema';

/** The exact text of schema/manifest.schema.json: two-space JSON and a final newline. */
export function renderManifestJsonSchema(): string {
  return `${JSON.stringify(createManifestJsonSchema(), null, 2)}\n`;
}

/** Where the schema file lives, relative to the repository root. */
export const MANIFEST_SCHEMA_FILE = 'schema/manifest.schema.json';

// Only write when run as a script, not when a test imports renderManifestJsonSchema().
if (process.argv[1]?.endsWith('manifestSchema.mjs') || process.argv[1]?.endsWith('manifestSchema.ts')) {
  writeFileSync(MANIFEST_SCHEMA_FILE, renderManifestJsonSchema());
  console.log(`wrote ${MANIFEST_SCHEMA_FILE}`);
}
