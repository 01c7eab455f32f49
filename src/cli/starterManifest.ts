import type { ManifestInput } from '../manifest';

/** Where editors find the JSON Schema of the manifest once svc-sdk is installed in the project. */
export const SCHEMA_REFERENCE = './node_modules/svc-sdk/schema/manifest.schema.json';

/**
 * The manifest `svc init` writes: valid as written, with `auth` `none`, no permissions and no actions.
 * @param options - `id` is the one derived from the app's developer key (`svc keygen`).
 * @public
 */
export function createStarterManifest(options: { id: string; name?: string }): ManifestInput {
  return {
    manifest_version: 1,
    id: options.id,
    name: options.name ?? 'My Mini App',
    version: '0.1.0',
    description: 'Describe in one or two sentences what this mini app does for its users.',
    icons: [
      { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
    ],
    vendor: { id: 'your-vendor-id', name: 'Your Company', contact: 'dev@example.com' },
    age_rating: '4+',
    entry: 'index.html',
    routes: [{ path: '/', title: 'Home' }],
    permissions: [],
    network: { connect: [] },
    csp: "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'",
    auth: { type: 'none' },
  };
}
