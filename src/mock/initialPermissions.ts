import type { Manifest } from '../manifest';
import { manifestFacts, undeclaredAdvice } from '../manifest/manifestFacts';
import { PERMISSION_SCOPES, type PermissionScope } from '../protocol/scopes';
import type { PermissionState } from '../protocol/types';
import type { MockHostOptions } from './types';

/**
 * The decisions a test starts with, checked: a test that grants an undeclared scope would pass against the mock
 * and fail in a real host, so it throws instead, saying what to declare.
 */
export function initialPermissions(
  manifest: Manifest,
  preset: MockHostOptions['permissions'] = {},
): Map<PermissionScope, PermissionState> {
  const { declared } = manifestFacts(manifest);
  const states = new Map<PermissionScope, PermissionState>();
  for (const [scope, state] of Object.entries(preset) as [PermissionScope, PermissionState][]) {
    if (!declared.has(scope)) {
      throw new TypeError(
        PERMISSION_SCOPES.includes(scope)
          ? `createMockHost(): permissions['${scope}'] is not declared (${undeclaredAdvice(scope)})`
          : `createMockHost(): permissions.${scope} is not a scope; use one of ${PERMISSION_SCOPES.join(', ')}`,
      );
    }
    if (state !== 'granted' && state !== 'denied' && state !== 'prompt')
      throw new TypeError(`createMockHost(): permissions['${scope}'] must be 'granted', 'denied' or 'prompt'`);
    states.set(scope, state);
  }
  return states;
}
