import type { ManifestIssue } from './ManifestIssue';

/** Values `svc init` writes for the developer to replace, by JSON path, with what to write instead. */
const PLACEHOLDERS: { path: string; value: string; advice: string }[] = [
  {
    path: '$.id',
    value: '0000000000000000',
    advice: 'write the id of your developer key (`svc keygen` prints it; `svc init` writes it)',
  },
  {
    path: '$.description',
    value: 'Describe in one or two sentences what this mini app does for its users.',
    advice: 'say in one or two sentences what the app does for its users (the store shows it)',
  },
  { path: '$.vendor.id', value: 'your-vendor-id', advice: 'write your vendor id from the developer console' },
  { path: '$.vendor.contact', value: 'dev@example.com', advice: 'write an address people can reach you at' },
];

const at = (manifest: unknown, path: string): unknown =>
  path
    .slice(2)
    .split('.')
    .reduce<unknown>(
      (value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
      manifest,
    );

/**
 * Warns about the starter's placeholders still in a manifest (`svc init` writes them valid in form, so the
 * validator alone passes them): the id, the description, the vendor id and contact. Warnings: a manifest with them
 * runs under `svc dev`, but the store would not take it.
 * @example
 * ```ts
 * checkPlaceholders({ id: '0000000000000000' })[0]?.message; // '$.id is the starter's placeholder ...'
 * ```
 * @public
 */
export function checkPlaceholders(manifest: unknown): ManifestIssue[] {
  return PLACEHOLDERS.filter((p) => at(manifest, p.path) === p.value).map((p) => ({
    path: p.path,
    message: `${p.path} is the starter's placeholder "${p.value}"; ${p.advice}`,
    severity: 'warning',
    code: 'placeholder',
  }));
}
