import type { HostHandlers } from '../host/createHost';
import { SvcError } from '../protocol/SvcError';
import type { Identity } from '../protocol/types';
import type { MockState } from './MockState';
import { mintMockToken, tokenId } from './mockToken';

/**
 * The mock's answers for who the person is: `identity.*`, `auth.*` and `permissions.*`.
 *
 * @remarks
 * Auth follows the manifest's mode, which cannot change at runtime. `svc-exchange` is always signed in (the
 * exchange rides on the platform session), so `signOut` resolves and changes nothing; `none` is always signed out.
 */
export function accountHandlers(s: MockState) {
  const auth = s.manifest.auth;
  const wrong = (method: string, what: string) =>
    new SvcError(
      'ERR_WRONG_AUTH_MODE',
      `${what} under auth mode '${auth.type}'; the manifest's auth mode decides.`,
      false,
      method,
    );

  return {
    'identity.get': () => {
      const { app_user_id, tenant_id, locale, display_name, avatar_url } = s.identity;
      const identity: Identity = { app_user_id, tenant_id, locale };
      // Fields by granted scope; `email` needs `identity.email`, which no manifest can declare, so never appears.
      if (s.permissions.get('identity.basic') == 'granted') {
        if (display_name !== undefined) identity.display_name = display_name;
        if (avatar_url !== undefined) identity.avatar_url = avatar_url;
      }
      return identity;
    },

    'auth.getToken': () => {
      if (auth.type == 'none') throw wrong('auth.getToken', 'there is no token');
      if (auth.type == 'external-oauth' && !s.signedIn)
        throw new SvcError(
          'ERR_SIGNED_OUT',
          'nobody is signed in; check svc.auth.state() and call svc.auth.signIn() first.',
          false,
          'auth.getToken',
        );
      const lifetime = s.options.tokenLifetime ?? 300;
      const iat = Math.floor(Date.now() / 1000);
      const agent = s.acting?.invoked_by == 'agent' ? s.acting.agent_id : undefined;
      // Minted afresh on every call (new jti): the interface says never to cache a token, so the mock never does.
      const access_token = mintMockToken({
        sub: s.identity.app_user_id,
        aud: auth.type == 'svc-exchange' ? auth.audience : auth.client_id,
        iss: auth.type == 'svc-exchange' ? (s.options.issuer ?? 'https://auth.svc.mock/realms/mock') : auth.issuer,
        iat,
        exp: iat + lifetime,
        jti: tokenId(),
        scope: (auth.scopes ?? []).join(' '),
        tenant_id: s.identity.tenant_id,
        ...(agent ? { act: { sub: agent } } : {}),
      });
      return { access_token, expires_in: lifetime };
    },

    'auth.signIn': async () => {
      if (auth.type != 'external-oauth') throw wrong('auth.signIn', 'there is no sign-in');
      if (s.signedIn) return;
      if (!(await s.ask('signIn', 'auth.signIn')))
        throw new SvcError('ERR_PERMISSION_DENIED', 'the person cancelled the sign-in.', false, 'auth.signIn');
      s.signedIn = true;
    },

    'auth.signOut': () => {
      if (auth.type == 'external-oauth') s.signedIn = false;
    },

    'auth.state': () =>
      auth.type == 'svc-exchange' || (auth.type == 'external-oauth' && s.signedIn) ? 'signed-in' : 'signed-out',

    // A scope that can never be granted (undeclared) reads as denied; query never prompts.
    'permissions.query': ({ scope }) => s.permissions.get(scope) ?? 'denied',

    'permissions.request': async ({ scope }) => {
      if (!s.declared.has(scope)) {
        const why =
          scope == 'identity.email' || scope == 'camera'
            ? 'it has no manifest scope and cannot be declared'
            : "add it to the manifest's permissions";
        throw new SvcError(
          'ERR_SCOPE_NOT_DECLARED',
          `'${scope}' is not declared in the manifest (${why}).`,
          false,
          'permissions.request',
        );
      }
      const state = s.permissions.get(scope);
      // Like browsers: a decision sticks; a denied scope is not asked again (no re-prompt loops).
      if (state == 'granted' || state == 'denied') return state;
      const answer = await s.ask('permission', 'permissions.request', scope);
      if (answer !== 'granted' && answer !== 'denied')
        throw new SvcError(
          'ERR_MOCK_BAD_ANSWER',
          `answers.permission('${scope}') returned ${JSON.stringify(answer)}; return 'granted' or 'denied'.`,
          false,
          'permissions.request',
        );
      s.permissions.set(scope, answer);
      return answer;
    },
  } satisfies HostHandlers;
}
