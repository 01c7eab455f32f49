import type { PermissionScope } from '../../protocol/scopes';
import type { PermissionState } from '../../protocol/types';

/**
 * Where a host keeps the person's decisions on each scope. The dev platform keeps them on its server, a real host
 * in its account store; {@link createMemoryGrants} is the in-memory default.
 * @public
 */
export interface GrantStore {
  /** The decision on a declared scope; `undefined` when none was taken (the scope is then at `prompt`). */
  get(scope: PermissionScope): PermissionState | undefined | Promise<PermissionState | undefined>;
  /** Records a decision. */
  set(scope: PermissionScope, state: PermissionState): void | Promise<void>;
}

/**
 * An in-memory {@link GrantStore}, optionally with decisions already taken.
 * @public
 */
export function createMemoryGrants(initial: Partial<Record<PermissionScope, PermissionState>> = {}): GrantStore {
  const states = new Map(Object.entries(initial) as [PermissionScope, PermissionState][]);
  return {
    get: (scope) => states.get(scope),
    set: (scope, state) => void states.set(scope, state),
  };
}
