import type { InputValidator, Manifest } from '../../manifest';
import { type MethodName, methods, type OperationDef } from '../../protocol/methods';
import type { PermissionScope } from '../../protocol/scopes';
import type { SvcError } from '../../protocol/SvcError';
import type { OutgoingMessage } from '../../protocol/types';
import type { HostHandlers } from '../HostHandlers';
import { accountRules, type SignInState } from './accountRules';
import { actionRules, type CallApp, type ConfirmPolicy, type InvokeContext } from './actionRules';
import { appRules } from './appRules';
import { createAsk } from './createAsk';
import { createMemoryStorage, type StorageStore } from './createMemoryStorage';
import { createMemoryGrants, type GrantStore } from './GrantStore';
import { fileNameProblem } from './fileNameProblem';
import { messageProblem } from './messageProblem';
import type { AnswerName, HostAnswers } from './HostAnswers';
import { type PermissionRules, permissionRules } from './permissionRules';
import { unoffered } from './unoffered';

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
   * Ms an invocation waits for the app to announce a handler of its action before refusing with
   * `ERR_ACTION_NO_HANDLER`: this long while the app has announced none (just launched, still loading); once it has
   * announced others, a second from its latest announcement (the rest of its load's `handle()` calls), or this long
   * if shorter. Default 10 000; 0 refuses at once.
   */
  handlerWait?: number;
}

/**
 * The names of {@link withRules}' options, in the order its refusal lists them: written as an object the compiler
 * holds to `ValidatedRuleOptions`, so an option added there is known here too. `createHost` refuses the same names
 * (but `validator`) given to it, where they would be ignored.
 * @internal
 */
export const RULE_OPTION_NAMES = Object.keys({
  manifest: 0,
  validator: 0,
  answers: 0,
  grants: 0,
  storage: 0,
  signedIn: 0,
  confirmActions: 0,
  handlerWait: 0,
} satisfies Record<keyof ValidatedRuleOptions, 0>);

/** The auth modes a manifest may declare. */
const AUTH_MODES: unknown[] = ['svc-exchange', 'external-oauth', 'none'];

/**
 * The rules' options for a manifest the host already validated (at upload, as a real messenger does): no manifest
 * validator is loaded, and the host gives the JSON Schema validator of action inputs and elicit answers.
 * @public
 */
export interface ValidatedRuleOptions extends Omit<RuleOptions, 'manifest'> {
  /** The manifest, already validated (`validateManifest()` or the platform's own check at upload). */
  manifest: Manifest;
  /** Compiles a JSON Schema (`input_schema`, `output_schema`, an elicit's schema) into a check of values. */
  validator: (schema: Record<string, unknown>) => InputValidator;
}

/** The rules of the manifest's contract for one app, applied around a host's effects. @public */
export interface HostRules {
  manifest: Manifest;
  permissions: PermissionRules;
  /** `external-oauth`: whether the person is signed in (a host's settings may change it). */
  session: SignInState;
  /** Every operation the host offers, rules applied. */
  handlers: HostHandlers;
  /**
   * Why `params` of `method`, already of the right shape, break a rule the platform holds them to (a card's bounds
   * and links, a file's name), or `undefined`: checked with the shape, before anything else, as `ERR_INVALID_ARGUMENT`.
   */
  paramsProblem?(method: MethodName, params: unknown): string | undefined;
  /** Why an operation needing `scope` may not run now, or `undefined` when it may. */
  scopeProblem(scope: PermissionScope, method: string): Promise<SvcError | undefined>;
  /** Invokes an action under the rules; `call` reaches the app's handler. */
  invoke(name: string, input: unknown, context: InvokeContext, call: CallApp, signal?: AbortSignal): Promise<unknown>;
}

/** What the bridge gives its rules: the platform's effects and the app's announced action handlers. */
export interface RuleBridge {
  /** The host's effects (its `handlers`), run once the rules let a call through. */
  effects: HostHandlers;
  /** The action handlers the app announced (kept current by the host's channel). */
  handled: ReadonlySet<string>;
  /** Resolves once `name` is among the announced handlers (over reloads too), or after `ms`. */
  announced: (name: string, ms: number) => Promise<void>;
}

/**
 * The rules as a layer over the bridge: `createHost({ rules: withRules({ manifest, validator, ... }) })`. The host
 * calls it once, with its effects and channel state.
 * @public
 */
export type RulesLayer = (bridge: RuleBridge) => HostRules;

/**
 * The rules of the manifest's contract that a host owns, as a layer over `createHost`, for a manifest the host
 * already validated: the one rule engine every host uses (the mock, the dev platform's messenger, a real web host).
 * `createHost({ manifest })` of `svc-sdk/host` validates the manifest and uses it too.
 * @example
 * ```ts
 * import { createHost, withRules } from 'svc-sdk/host/core';
 * const host = createHost({ handlers: effects, rules: withRules({ manifest, validator, answers }) });
 * ```
 * @public
 */
export function withRules(options: ValidatedRuleOptions): RulesLayer {
  // Said when the host is set up, not when an app first calls: a manifest that is no validated one would fail open
  // (an auth mode not known here, spelt `mode`, would hand out tokens), and a missing validator fail at the first action.
  // A misspelt option would be ignored, and leave the default (`confirmAction: 'always'` the floor policy).
  const unknown = Object.keys(options).find((key) => !RULE_OPTION_NAMES.includes(key));
  if (unknown)
    throw new TypeError(`withRules(): ${unknown} is no option of the rules: they are ${RULE_OPTION_NAMES.join(', ')}`);
  const type = options.manifest?.auth?.type;
  if (!AUTH_MODES.includes(type))
    throw new TypeError(
      `withRules(): manifest.auth.type is ${JSON.stringify(type)}: pass the manifest validateManifest() returns, whose auth.type is ${AUTH_MODES.join(', ')}`,
    );
  if (typeof options.validator !== 'function')
    throw new TypeError('withRules(): validator is not a function: pass createInputValidator from svc-sdk/manifest');
  return ({ effects, handled, announced }) => {
    const { manifest, validator } = options;
    const answers = options.answers ?? {};
    const ask = createAsk(answers);
    const permissions = permissionRules({ manifest, grants: options.grants ?? createMemoryGrants(), ask });
    const session = { signedIn: options.signedIn === true };
    const wait = options.handlerWait ?? 10_000;
    // Until the app announces this action's handler, or the wait: an app launched for the invocation gets time to load.
    const appReady = (name: string) => (wait > 0 ? announced(name, wait) : Promise.resolve());
    const actions = actionRules({
      manifest,
      handled,
      appReady,
      policy: options.confirmActions ?? 'floor',
      ask,
      validator,
    });
    const handlers: HostHandlers = {
      ...effects,
      ...accountRules({ manifest, effects, permissions, session, ask }),
      ...appRules({ effects, answers, storage: options.storage ?? createMemoryStorage(), ask, validator }),
    };
    // An operation the host cannot ask the person about is not offered (svc.supports() says so), and its call is
    // refused naming the answer the host lacks. Each such handler is the rules' own (the lines above set them all).
    for (const name of Object.keys(methods) as MethodName[]) {
      const answer = (methods[name] as OperationDef).asks?.answer as AnswerName | undefined;
      if (answer && !answers[answer])
        (handlers as Record<string, unknown>)[name] = unoffered(handlers[name] ?? (() => ask(answer, name)));
    }
    return {
      manifest,
      permissions,
      session,
      handlers,
      // A message or a file name the platform would refuse is malformed params: refused first, as a native host
      // reading the order of refusals would, whether or not the host offers the operation or the scope is granted.
      paramsProblem: (method, params) =>
        method === 'message.send'
          ? messageProblem(params as OutgoingMessage, manifest.routes)
          : method === 'files.save'
            ? fileNameProblem(params as { name: string })
            : undefined,
      async scopeProblem(scope, method) {
        const state = await permissions.state(scope);
        return state === 'granted' ? undefined : permissions.notGranted(scope, method, state);
      },
      invoke: actions.invoke,
    };
  };
}
