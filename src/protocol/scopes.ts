/**
 * The short scope names the bridge uses (`svc.permissions.query('room.context')`) and the manifest scopes they
 * stand for.
 *
 * @remarks
 * The platform's specification lists the short names and the manifest enum but not the mapping between them; this
 * table is our decision (docs/decisions.md). `identity.email` and `camera` have no manifest scope:
 * `identity.email` cannot be declared, so it is never granted and `email` is never handed out; `camera` is a
 * standard web API with the engine's own prompt, which the bridge does not wrap.
 */
export const SCOPE_TO_MANIFEST: { readonly [S in PermissionScope]: ManifestScope | null } = {
  'identity.basic': 'svc.identity.basic',
  'identity.email': null,
  'room.context': 'svc.room.context',
  'room.send': 'svc.message.send',
  'files.read': 'svc.files.read',
  'files.write': 'svc.files.write',
  notifications: 'svc.notifications',
  camera: null,
};

/**
 * A short permission scope as used by `svc.permissions.query()` and `svc.permissions.request()`.
 * @public
 */
export type PermissionScope =
  | 'identity.basic'
  | 'identity.email'
  | 'room.context'
  | 'room.send'
  | 'files.read'
  | 'files.write'
  | 'notifications'
  | 'camera';

/** Every manifest `scope` value a manifest may declare, in the specification's order. */
export const MANIFEST_SCOPES = [
  'svc.identity.basic',
  'svc.room.context',
  'svc.message.send',
  'svc.files.read',
  'svc.files.write',
  'svc.storage',
  'svc.directory.search',
  'svc.notifications',
] as const;

/** A manifest `permissions[].scope` value. */
export type ManifestScope = (typeof MANIFEST_SCOPES)[number];

/** Every short scope, in the order of {@link SCOPE_TO_MANIFEST} (which the compiler holds to `PermissionScope`). */
export const PERMISSION_SCOPES = Object.keys(SCOPE_TO_MANIFEST) as readonly PermissionScope[];

/**
 * The manifest scope a short scope needs declared, or `null` when no manifest scope can declare it.
 */
export function manifestScopeOf(scope: PermissionScope): ManifestScope | null {
  return SCOPE_TO_MANIFEST[scope];
}
