import type { Manifest } from '../../manifest';
import { manifestFacts, undeclaredAdvice } from '../../manifest/manifestFacts';
import { SCOPE_TO_MANIFEST, type PermissionScope } from '../../protocol/scopes';
import { SvcError } from '../../protocol/SvcError';
import type { PermissionState } from '../../protocol/types';
import type { Ask } from './createAsk';
import type { GrantStore } from './GrantStore';

/** The permission rules of one app: its declared scopes, the person's decisions, and the prompt. */
export interface PermissionRules {
  /** The short scopes the manifest declares. */
  declared: ReadonlySet<PermissionScope>;
  /** The state of a scope: undeclared ones read `denied`, declared ones without a decision `prompt`. */
  state(scope: PermissionScope): Promise<PermissionState>;
  /** `permissions.request`: prompts once for a declared scope at `prompt`; a decision sticks. */
  request(scope: PermissionScope): Promise<'granted' | 'denied'>;
  /** The rejection of an operation whose scope is not granted, with advice that cannot loop. */
  notGranted(scope: PermissionScope, method: string, state: PermissionState): SvcError;
}

/** Builds the permission rules over a grant store and the person's answers. */
export function permissionRules({
  manifest,
  grants,
  ask,
}: {
  manifest: Manifest;
  grants: GrantStore;
  ask: Ask;
}): PermissionRules {
  const { declared } = manifestFacts(manifest);
  // Two requests of one scope while the sheet is up share it: the person is asked once.
  const asking = new Map<PermissionScope, Promise<'granted' | 'denied'>>();
  const state = async (scope: PermissionScope) =>
    declared.has(scope) ? ((await grants.get(scope)) ?? 'prompt') : 'denied';

  const prompt = async (scope: PermissionScope): Promise<'granted' | 'denied'> => {
    const manifestScope = SCOPE_TO_MANIFEST[scope]!;
    const purpose = manifest.permissions.find((p) => p.scope === manifestScope)?.purpose ?? '';
    const answer = await ask('permission', 'permissions.request', { scope, manifestScope, purpose });
    if (answer !== 'granted' && answer !== 'denied')
      throw new SvcError(
        'ERR_INTERNAL',
        `the host's permission answer for '${scope}' was ${JSON.stringify(answer)}, not 'granted' or 'denied'.`,
        true,
        'permissions.request',
      );
    await grants.set(scope, answer);
    return answer;
  };

  return {
    declared,
    state,
    async request(scope) {
      if (!declared.has(scope))
        throw new SvcError(
          'ERR_SCOPE_NOT_DECLARED',
          `'${scope}' is not declared in the manifest (${undeclaredAdvice(scope)}).`,
          false,
          'permissions.request',
        );
      const now = await state(scope);
      // Like browsers: a decision sticks; a denied scope is not asked again (no re-prompt loops).
      if (now !== 'prompt') return now;
      let pending = asking.get(scope);
      if (!pending) {
        pending = prompt(scope).finally(() => asking.delete(scope));
        asking.set(scope, pending);
      }
      return pending;
    },
    notGranted(scope, method, now) {
      // Advice by state, so an app that follows it never loops: request() helps only from `prompt`.
      const advice = !declared.has(scope)
        ? `'${scope}' is not declared (${undeclaredAdvice(scope)}); requesting it cannot help.`
        : now === 'denied'
          ? `the person denied '${scope}'; degrade, and do not ask again (they can change it in settings).`
          : `needs the '${scope}' scope; call svc.permissions.request('${scope}') at the moment of use.`;
      return new SvcError('ERR_SCOPE_NOT_GRANTED', advice, false, method);
    },
  };
}
