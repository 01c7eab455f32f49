import type { Manifest } from '../../manifest';
import type { DevState } from '../devContract';
import { jsonQuote } from '../../manifest/jsonQuote';
import { manifestFacts } from '../../manifest/manifestFacts';
import { offeredTo } from '../offeredTo';
import type { IdentityProviderOptions } from './createIdentityProvider';

/** What an exchange is decided on. @internal */
export interface ExchangeRules {
  state: DevState;
  /** The manifest's audience: the only one a token is exchanged for. */
  audience: string;
  /** The manifest of the version running now (the package served, else the app folder's). */
  running(): Manifest | undefined;
  /** The app's manifest (its `auth.scopes`), or undefined for a backend's test that names only an id. */
  manifest(): Manifest | undefined;
}

/**
 * The platform's rules for a token exchange: the audience must be the app's; the person must still be in the
 * tenant, the version not revoked, the app offered to the person's tenant and installed for them. The token carries
 * the scopes asked for that the app declares (consented at install), or, without a manifest, that the person granted.
 * @internal
 */
export function authorizeExchange(rules: ExchangeRules): IdentityProviderOptions['authorize'] {
  const { state, audience } = rules;
  return ({ userId, audience: asked, scopes }) => {
    const user = state.users.find((u) => u.id === userId);
    if (!asked || asked !== audience) return wrongAudience(asked, audience, rules.running());
    if (!user || user.deprovisioned)
      return {
        refuse: 'The person left the tenant (an administrator removed them): the app can no longer act for them.',
      };
    if (state.version_revoked)
      return { refuse: `Version ${state.version} of the mini app was revoked: update the app to a published version.` };
    const running = rules.running();
    const notOffered = running && offeredTo(running, user.tenant_id);
    if (notOffered) return { refuse: notOffered };
    const installed = state.installations.some((i) => i.user_id === userId && i.installed);
    if (!installed) return { refuse: 'The mini app is not installed for this person: install it first.' };
    const auth = rules.manifest()?.auth;
    const allowed = auth
      ? auth.type === 'none'
        ? []
        : (auth.scopes ?? [])
      : (state.grants.find((g) => g.user_id === userId)?.scopes ?? []);
    return { appUserId: user.app_user_id, scopes: scopes.filter((s) => allowed.includes(s)) };
  };
}

/**
 * The refusal of an exchange for `asked` (empty: the request names no audience) where the app's is `audience`, the one
 * svc dev started with; `running` is the manifest served now, whose audience an edit may have changed since.
 */
function wrongAudience(asked: string, audience: string, running: Manifest | undefined) {
  const error = asked ? ('invalid_target' as const) : ('invalid_request' as const);
  const wrong = asked ? `audience ${jsonQuote(asked)} is not this mini app's` : 'audience is missing';
  // The manifest edited since the start names the audience asked for: the fix is a restart, not the manifest
  // (week45 F2: the app was told to send the old one, from "auth.audience in the manifest", which said the new one).
  const edited = running ? manifestFacts(running).audience || undefined : undefined;
  if (asked && edited === asked && audience)
    return {
      refuse: `${wrong} yet: svc dev exchanges tokens for ${jsonQuote(audience)}, the auth.audience it started with, until it restarts; restart svc dev to use ${jsonQuote(asked)}.`,
      error,
    };
  // An app started without an audience (auth.type none) has none to send: edited in since, it takes a restart.
  return {
    refuse: audience
      ? `${wrong}: send ${jsonQuote(audience)} (auth.audience in the manifest).`
      : `${wrong}: svc dev started on a manifest without auth.audience, so it exchanges tokens for none; restart svc dev ${edited ? `to use ${jsonQuote(edited)}` : 'after adding it'}.`,
    error,
  };
}
