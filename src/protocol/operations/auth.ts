import { lit, num, answer, text } from '../shape';
import type { AuthState, Token } from '../types';
import { ask, call, defineOperations, none, prompt } from './define';

/**
 * `svc.auth`: tokens for the mini app's own backend, in the manifest's auth mode.
 * @public
 */
export interface SvcAuth {
  /**
   * A short-lived token for the mini app's backend. Call before each use: the SDK never caches it, and neither
   * should you. Rejects with `ERR_WRONG_AUTH_MODE` under auth mode `none`, `ERR_SIGNED_OUT` in `external-oauth`
   * before `signIn()`.
   */
  getToken(): Promise<Token>;
  /** `external-oauth` only: opens the system's sign-in sheet. Rejects `ERR_PERMISSION_DENIED` when the person cancels. */
  signIn(): Promise<void>;
  /** Signs the person out of the mini app's backend. */
  signOut(): Promise<void>;
  /** Whether a token can be had now. */
  state(): Promise<AuthState>;
}

/** The operations of `svc.auth`. The rules of the manifest's auth mode decide `signIn`, `signOut` and `state`. */
export const auth = defineOperations<SvcAuth>()({
  getToken: call({ result: answer({ access_token: text, expires_in: num }) }),
  signIn: prompt({
    result: none,
    effect: false,
    asks: ask<'signIn', void, boolean>('signIn', 'rule', [
      'ERR_PERMISSION_DENIED',
      'the person cancelled the sign-in.',
    ]),
  }),
  signOut: call({ result: none, effect: false }),
  state: call({ result: lit('signed-in', 'signed-out'), effect: false }),
});
