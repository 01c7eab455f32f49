import { PERMISSION_SCOPES, type PermissionScope } from '../scopes';
import { lit, obj } from '../shape';
import type { PermissionState } from '../types';
import { ask, call, defineOperations, prompt } from './define';

/**
 * `svc.permissions`: request at the moment of use, with the action visible.
 * @public
 */
export interface SvcPermissions {
  /** The current state of a scope, without prompting. */
  query(scope: PermissionScope): Promise<PermissionState>;
  /** Asks the person; rejects `ERR_SCOPE_NOT_DECLARED` without prompting for a scope the manifest lacks. */
  request(scope: PermissionScope): Promise<'granted' | 'denied'>;
}

const scope = obj({ scope: lit(...PERMISSION_SCOPES) });

/** The operations of `svc.permissions`, which the rules answer from the grant store. */
export const permissions = defineOperations<SvcPermissions>()({
  // Never prompts; an undeclared scope reads `denied`, since it can never be granted.
  query: call({ args: ['scope'], params: scope, result: lit('granted', 'denied', 'prompt'), effect: false }),
  // A decision sticks: a denied scope is not asked again.
  request: prompt({
    args: ['scope'],
    params: scope,
    result: lit('granted', 'denied'),
    effect: false,
    asks: ask<'permission', { scope: PermissionScope; manifestScope: string; purpose: string }, 'granted' | 'denied'>(
      'permission',
      'rule',
    ),
  }),
});
