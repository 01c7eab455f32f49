import { declaredScopes } from '../host/rules/permissionRules';
import type { Manifest } from '../manifest';
import { SCOPE_TO_MANIFEST, type PermissionScope } from '../protocol/scopes';
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
  const declared = declaredScopes(manifest);
  const states = new Map<PermissionScope, PermissionState>();
  for (const [scope, state] of Object.entries(preset) as [PermissionScope, PermissionState][]) {
    if (!declared.has(scope)) {
      const m = (SCOPE_TO_MANIFEST as Record<string, string | null>)[scope];
      throw new TypeError(
        m === undefined
          ? `createMockHost(): permissions.${scope} is not a scope; use one of ${Object.keys(SCOPE_TO_MANIFEST).join(', ')}`
          : m === null
            ? `createMockHost(): permissions['${scope}'] has no manifest scope, so no mini app can be granted it`
            : `createMockHost(): permissions['${scope}'] is not declared; add { "scope": "${m}" } to the manifest's permissions`,
      );
    }
    if (state !== 'granted' && state !== 'denied' && state !== 'prompt')
      throw new TypeError(`createMockHost(): permissions['${scope}'] must be 'granted', 'denied' or 'prompt'`);
    states.set(scope, state);
  }
  return states;
}
