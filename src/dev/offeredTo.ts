import type { Manifest } from '../manifest';

/**
 * Whether the app is offered to a person of `tenantId`: undefined when it is, else the sentence saying why not (a
 * `tenant-private` package is offered only to the tenants its manifest lists).
 */
export function offeredTo(manifest: Manifest, tenantId: string): string | undefined {
  const distribution = manifest.distribution;
  if (distribution?.channel !== 'tenant-private' || distribution.tenants.includes(tenantId)) return undefined;
  return `${manifest.name} is private to the tenants ${distribution.tenants.join(', ')}; this person's tenant ${tenantId} is not one of them (distribution in the manifest).`;
}
