import { type PermissionScope, SCOPE_TO_MANIFEST } from '../protocol/scopes';

/**
 * The facts the rules read from a manifest, derived in one place for every reader: the host's rules, the mock, the
 * CLI's `svc check` (over raw JSON, which may be invalid) and the dev platform.
 * @public
 */
export interface ManifestFacts {
  /** The manifest scopes in `permissions` (`svc.room.context`), as written. */
  readonly manifestScopes: ReadonlySet<string>;
  /** The short scopes those declare (`room.context`); `identity.email` and `camera` never are. */
  readonly declared: ReadonlySet<PermissionScope>;
  /** The auth mode: `auth.type`, or the `auth.mode` some manifests write (validation asks to rename it). */
  readonly authMode: string | undefined;
  /**
   * The audience of the app's tokens: `auth.audience` under `svc-exchange`, the `client_id` under `external-oauth`,
   * `''` under `none`.
   */
  readonly audience: string;
  /** The scopes the app's tokens carry (`auth.scopes`). */
  readonly tokenScopes: readonly string[];
  /** The declared action names, each with its index in `actions` (the first, when a name repeats). */
  readonly actions: ReadonlyMap<string, number>;
}

type Loose = {
  permissions?: unknown;
  actions?: unknown;
  auth?: { type?: unknown; mode?: unknown; audience?: unknown; client_id?: unknown; scopes?: unknown };
} | null;

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const texts = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string');

/**
 * Derives the {@link ManifestFacts} of a manifest, valid or not (what cannot be read is left out).
 * @public
 */
export function manifestFacts(manifest: unknown): ManifestFacts {
  const m = (typeof manifest === 'object' ? manifest : null) as Loose;
  const manifestScopes = new Set(texts(list(m?.permissions).map((p) => (p as { scope?: unknown } | null)?.scope)));
  const declared = new Set(
    (Object.keys(SCOPE_TO_MANIFEST) as PermissionScope[]).filter((s) => manifestScopes.has(SCOPE_TO_MANIFEST[s] ?? '')),
  );
  const auth = m?.auth;
  const authMode = typeof (auth?.type ?? auth?.mode) === 'string' ? String(auth?.type ?? auth?.mode) : undefined;
  const audience =
    authMode === 'svc-exchange' ? auth?.audience : authMode === 'external-oauth' ? auth?.client_id : undefined;
  const actions = new Map<string, number>();
  list(m?.actions).forEach((action, i) => {
    const name = (action as { name?: unknown } | null)?.name;
    if (typeof name === 'string' && !actions.has(name)) actions.set(name, i);
  });
  return {
    manifestScopes,
    declared,
    authMode,
    audience: typeof audience === 'string' ? audience : '',
    tokenScopes: authMode === 'none' ? [] : texts(auth?.scopes),
    actions,
  };
}

/**
 * What to do about a short scope the manifest does not declare: the manifest entry to add, or that none can
 * declare it. The one advice of `ERR_SCOPE_NOT_DECLARED`, the mock's presets and `svc check`.
 * @public
 */
export function undeclaredAdvice(scope: PermissionScope): string {
  const m = SCOPE_TO_MANIFEST[scope];
  return m
    ? `add { "scope": "${m}" } to the manifest's permissions`
    : 'it has no manifest scope and cannot be declared';
}

/**
 * What an auth mode rules out: `auth.getToken` under `none` (there is no token), `auth.signIn` under any mode but
 * `external-oauth` (there is no sign-in). The one rule the host enforces (`ERR_WRONG_AUTH_MODE`) and `svc check`
 * reports; `undefined` when the operation is allowed, or the mode is unknown.
 * @public
 */
export function authModeRefusal(mode: string | undefined, method: 'auth.getToken' | 'auth.signIn'): string | undefined {
  if (mode === undefined) return undefined;
  if (method === 'auth.getToken') return mode === 'none' ? 'there is no token' : undefined;
  return mode === 'external-oauth' ? undefined : 'there is no sign-in';
}
