import {
  type ManifestInput,
  type ManifestIssue,
  validateManifest,
  type ValidateManifestOptions,
} from '../../src/manifest';

/** A valid manifest that uses every field; tests copy it and change one thing. */
export function validManifest(): ManifestInput & Record<string, unknown> {
  return {
    manifest_version: 1,
    id: '0123456789abcdef',
    name: 'Pizza Orders',
    short_name: 'Pizza',
    version: '1.2.3',
    description: 'Order pizza for your team from the chat.',
    icons: [
      { src: 'icons/192.png', sizes: '192x192', type: 'image/png' },
      { src: 'icons/512.webp', sizes: '512x512', type: 'image/webp' },
    ],
    vendor: { id: 'acme', name: 'Acme Inc.', contact: 'dev@acme.example', support_url: 'https://acme.example/support' },
    distribution: { channel: 'store' },
    age_rating: '4+',
    locales: ['en', 'de-CH'],
    default_locale: 'en',
    entry: 'index.html',
    routes: [
      { path: '/', title: 'Home' },
      { path: '/orders', title: 'Orders' },
    ],
    permissions: [{ scope: 'svc.room.context', purpose: 'Show which room the order is for.', optional: true }],
    network: { connect: ['api.acme.example'], socket: ['ws.acme.example'] },
    csp: "default-src 'self'; script-src 'self'; object-src 'none'",
    auth: { type: 'svc-exchange', audience: 'pizza-backend', scopes: ['orders'] },
    actions: [
      {
        name: 'create_order',
        title: 'Create an order',
        description:
          'Creates a pizza order for the current room; quantities are whole pizzas. Cannot be undone once paid.',
        route: '/orders',
        input_schema: {
          type: 'object',
          properties: {
            pizza: { type: 'string', enum: ['margherita', 'diavola'] },
            quantity: { type: 'integer', minimum: 1 },
          },
          required: ['pizza', 'quantity'],
          additionalProperties: false,
        },
        output_schema: { type: 'object', properties: { order_id: { type: 'string' } } },
        annotations: { read_only: false, destructive: false, idempotent: false, open_world: true },
        confirm: 'always',
      },
    ],
  };
}

// Tests mutate plain JSON freely, as a developer's editor would.
export type Json = any;

/** Validates the valid fixture after `mutate` and returns every issue (errors and warnings). */
export function issuesAfter(mutate: (m: Json) => void, options?: ValidateManifestOptions): ManifestIssue[] {
  const manifest: Json = validManifest();
  mutate(manifest);
  const result = validateManifest(manifest, options);
  return result.ok ? result.warnings : result.issues;
}

/** Only the errors, as `path code` strings, for compact assertions. */
export function errorsAfter(mutate: (m: Json) => void, options?: ValidateManifestOptions): string[] {
  return issuesAfter(mutate, options)
    .filter((issue) => issue.severity === 'error')
    .map((issue) => `${issue.path} ${issue.code}`);
}
