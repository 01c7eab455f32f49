import type { Manifest } from '../../manifest';
import { authModeRefusal } from '../../manifest/manifestFacts';
import { methods } from '../../protocol/methods';
import { SvcError } from '../../protocol/SvcError';
import type { Identity } from '../../protocol/types';
import type { HostHandlers } from '../HostHandlers';
import type { Ask } from './createAsk';
import type { PermissionRules } from './permissionRules';
import { unoffered } from './unoffered';

const signInRefusal = methods['auth.signIn'].asks.refusal!;

/** Whether the person is signed in, for `external-oauth` (the other modes decide it themselves). */
export interface SignInState {
  signedIn: boolean;
}

/**
 * The rules of who the person is: identity fields by granted scope, the auth mode's rules, and permissions.
 *
 * @remarks
 * Auth follows the manifest's mode, which cannot change at runtime. `svc-exchange` is always signed in (the
 * exchange rides on the platform session), so `signOut` resolves and changes nothing; `none` is always signed out
 * and has no token. `platform` gives the full identity and mints tokens; the rules decide what leaves.
 */
export function accountRules({
  manifest,
  effects: platform,
  permissions,
  session,
  ask,
}: {
  manifest: Manifest;
  effects: HostHandlers;
  permissions: PermissionRules;
  session: SignInState;
  ask: Ask;
}): HostHandlers {
  const auth = manifest.auth;
  const wrong = (method: string, what: string) =>
    new SvcError(
      'ERR_WRONG_AUTH_MODE',
      `${what} under auth mode '${auth.type}'; the manifest's auth mode decides.`,
      false,
      method,
    );
  const identity = platform['identity.get'];
  const getToken = platform['auth.getToken'];

  const handlers: HostHandlers = {
    'auth.signIn': async (params, context) => {
      if (session.signedIn) return;
      if ((await ask('signIn', 'auth.signIn', undefined, context.signal)) !== true)
        throw new SvcError(...signInRefusal, false, 'auth.signIn');
      session.signedIn = true;
      await platform['auth.signIn']?.(params, context);
    },
    'auth.signOut': async (params, context) => {
      if (auth.type === 'external-oauth') session.signedIn = false;
      await platform['auth.signOut']?.(params, context);
    },
    'auth.state': () =>
      auth.type === 'svc-exchange' || (auth.type === 'external-oauth' && session.signedIn) ? 'signed-in' : 'signed-out',
    // Query never prompts; an undeclared scope reads `denied`, since it can never be granted.
    'permissions.query': ({ scope }) => permissions.state(scope),
    'permissions.request': ({ scope }) => permissions.request(scope),
  };
  if (identity)
    handlers['identity.get'] = async (params, context) => {
      const { app_user_id, tenant_id, locale, display_name, avatar_url, email } = await identity(params, context);
      const shown: Identity = { app_user_id, tenant_id, locale };
      // Fields by granted scope; `email` needs `identity.email`, which no manifest can declare.
      if ((await permissions.state('identity.basic')) === 'granted') {
        if (display_name !== undefined) shown.display_name = display_name;
        if (avatar_url !== undefined) shown.avatar_url = avatar_url;
      }
      if (email !== undefined && (await permissions.state('identity.email')) === 'granted') shown.email = email;
      return shown;
    };
  if (getToken)
    handlers['auth.getToken'] = (params, context) => {
      if (auth.type === 'external-oauth' && !session.signedIn)
        throw new SvcError(
          'ERR_SIGNED_OUT',
          'nobody is signed in; check svc.auth.state() and call svc.auth.signIn() first.',
          false,
          'auth.getToken',
        );
      return getToken(params, context);
    };
  // A call the auth mode does not have is not offered (svc.supports() says so), and refused naming the mode, whether
  // or not the host has an effect for it: the manifest decides, and the refusal says what to change.
  for (const method of ['auth.signIn', 'auth.getToken'] as const) {
    const refusal = authModeRefusal(auth.type, method);
    if (refusal)
      handlers[method] = unoffered(() => {
        throw wrong(method, refusal);
      });
  }
  return handlers;
}
