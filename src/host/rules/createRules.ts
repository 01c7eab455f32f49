import { assertManifest, type Manifest } from '../../manifest';
import type { PermissionScope } from '../../protocol/scopes';
import type { SvcError } from '../../protocol/SvcError';
import type { HostHandlers } from '../types';
import { accountRules, type SignInState } from './accountRules';
import { actionRules, type CallApp, type ConfirmPolicy, type InvokeContext } from './actionRules';
import { appRules } from './appRules';
import { createAsk } from './createAsk';
import { createMemoryStorage, type StorageStore } from './createMemoryStorage';
import { createMemoryGrants, type GrantStore } from './GrantStore';
import type { HostAnswers } from './HostAnswers';
import { type PermissionRules, permissionRules } from './permissionRules';

/**
 * What the rules need besides the platform's effects: the manifest, the person's answers, and the stores.
 * @public
 */
export interface RuleOptions {
  /** The mini app's manifest (the parsed `manifest.json`); validated, and an invalid one throws naming each problem. */
  manifest: unknown;
  /** The person's answers; a prompt without an answer rejects the app's call. */
  answers?: HostAnswers;
  /** The person's decisions per scope; default in memory, every declared scope at `prompt`. */
  grants?: GrantStore;
  /** `svc.storage`; default a fresh in-memory store. */
  storage?: StorageStore;
  /** `external-oauth`: whether the person starts signed in. Default false. */
  signedIn?: boolean;
  /** The host's action confirmation policy, which may only add confirmations to the manifest's floor. */
  confirmActions?: ConfirmPolicy;
  /**
   * Ms an invocation waits for an app that has not yet announced its handlers (just launched, still loading)
   * before refusing with `ERR_ACTION_NO_HANDLER`. Default 10 000; 0 refuses at once.
   */
  handlerWait?: number;
}

/** The platform's rules for one app, applied around a host's effects. */
export interface HostRules {
  manifest: Manifest;
  permissions: PermissionRules;
  /** `external-oauth`: whether the person is signed in (a host's settings may change it). */
  session: SignInState;
  /** Every operation the host offers, rules applied. */
  handlers: HostHandlers;
  /** Why an operation needing `scope` may not run now, or `undefined` when it may. */
  scopeProblem(scope: PermissionScope, method: string): Promise<SvcError | undefined>;
  /** Invokes an action under the rules; `call` reaches the app's handler. */
  invoke(name: string, input: unknown, context: InvokeContext, call: CallApp, signal?: AbortSignal): Promise<unknown>;
}

/**
 * Builds the platform's rules that a host owns, around `platform` (the host's effects: the identity it
 * knows, the tokens it mints, delivery, the picker's files, the UI). The one rule engine every host uses: the mock,
 * the dev platform's messenger, and a real web host.
 * @param handled - the action handlers the app announced (kept current by the host's channel).
 * @param announced - resolves once `name` is among the announced handlers, or after `ms`.
 */
export function createRules(
  options: RuleOptions,
  platform: HostHandlers,
  handled: ReadonlySet<string>,
  announced: (name: string, ms: number) => Promise<void>,
): HostRules {
  const manifest = assertManifest(options.manifest);
  const answers = options.answers ?? {};
  const ask = createAsk(answers);
  const permissions = permissionRules(manifest, options.grants ?? createMemoryGrants(), ask);
  const session = { signedIn: options.signedIn === true };
  const wait = options.handlerWait ?? 10_000;
  // Until the app announces this action's handler, or the wait: an app launched for the invocation gets time to load.
  const appReady = (name: string) => (wait > 0 ? announced(name, wait) : Promise.resolve());
  const actions = actionRules(manifest, handled, appReady, options.confirmActions ?? 'floor', ask);
  return {
    manifest,
    permissions,
    session,
    handlers: {
      ...platform,
      ...accountRules(manifest, platform, permissions, session, ask),
      ...appRules(platform, answers, options.storage ?? createMemoryStorage(), ask),
    },
    async scopeProblem(scope, method) {
      const state = await permissions.state(scope);
      return state == 'granted' ? undefined : permissions.notGranted(scope, method, state);
    },
    invoke: actions.invoke,
  };
}
