// biome-ignore-all lint/suspicious/noExplicitAny: a rule wraps handlers of every operation, each with its own params type; unknown would refuse them (parameters are contravariant)
import type { MethodName, OperationDef } from '../protocol/methods';
import type { Operations } from '../protocol/operations';
import type { Check, Infer } from '../protocol/shape';
import type { PermissionScope } from '../protocol/scopes';
import type { LaunchSnapshot } from '../protocol/snapshot';
import type { ActionContext, Theme } from '../protocol/types';
import type { Transport } from '../rpc/Transport';
import type { HostCallContext, HostHandlers } from './HostHandlers';
import type { InvokeContext } from './rules/actionRules';
import type { HostRules, RuleOptions, RulesLayer } from './rules/createRules';

export type { HostCallContext, HostHandlers, Invocation } from './HostHandlers';

/**
 * The platform's effects over a registry `R`: one per operation whose entry has an effect, each the function that
 * performs it or `null` for "this host does not offer it". Typed so that a host written against it (the mock, the
 * dev page) does not compile when an operation gains an effect it does not handle. The operations the rules answer
 * themselves (storage, permissions, the auth state, the prompts whose answer is the result) may add a hook.
 * @public
 */
export type EffectsOf<R extends Record<string, OperationDef>> = {
  -readonly [W in keyof R as R[W]['effect'] extends true ? W : never]:
    | ((params: Infer<R[W]['params']>, context: HostCallContext) => Maybe<ResultOf<R[W]>>)
    | null;
} & {
  -readonly [W in keyof R as R[W]['effect'] extends true ? never : W]?: (
    params: Infer<R[W]['params']>,
    context: HostCallContext,
  ) => Maybe<ResultOf<R[W]>>;
};
type Maybe<T> = T | Promise<T>;
// biome-ignore lint/suspicious/noConfusingVoidType: an operation without a result (a notification) resolves void
type ResultOf<D extends OperationDef> = D['result'] extends Check<infer T> ? T : void;

/**
 * The effects a host built on the rules supplies: every operation with an effect, or `null` to say it does not
 * offer it (see {@link EffectsOf}).
 * @public
 */
export type HostEffects = EffectsOf<Operations>;

/**
 * One bridge call as the host saw it, before any check.
 * @public
 */
export interface HostCall {
  /** The wire name, e.g. `'room.current'`. */
  method: string;
  /** The params as received. */
  params: unknown;
}

/**
 * Options of {@link createHost}: the bridge's, and the rules' when a `manifest` is given.
 *
 * @remarks
 * With a `manifest`, the host enforces every rule of the manifest's contract that a host owns (see
 * {@link RuleOptions}): `handlers` are then only the platform's effects, run once the rules let a call through.
 * Without one, `handlers` answer every call as they are, and `granted` decides the scopes.
 * @public
 */
export interface HostOptions extends Omit<BridgeOptions, 'rules'>, Partial<RuleOptions> {}

/**
 * Options of the bridge core (`createHost` of `svc-sdk/host/core`).
 * @public
 */
export interface BridgeOptions {
  /** The rules as a layer (`withRules(...)`); without it, `handlers` answer as they are and `granted` decides scopes. */
  rules?: RulesLayer;
  /** The handlers of the operations this host offers (with rules: its effects). */
  handlers?: HostHandlers;
  /**
   * The values of `svc.app` (the snapshot's `app`); `methods` is filled in from `handlers`. With a `manifest`, `id`
   * and `version` default to its own, `locale` to its `default_locale` (else `'en'`), `theme` to `'light'`.
   */
  app?: Partial<LaunchSnapshot['app']>;
  /** The channel, when it is not an iframe (tests, native). Use {@link HostEndpoint.attach} for iframes. */
  transport?: Transport;
  /**
   * Without rules: whether a short scope is granted now; operations that need one reject
   * `ERR_SCOPE_NOT_GRANTED` when not. With one, the rules decide from `grants`.
   */
  granted?: (scope: PermissionScope) => boolean | Promise<boolean>;
  /**
   * Sees every inbound call of a registry operation before any check, valid or not (logs, test recorders). A name
   * that is no operation is answered `ERR_UNSUPPORTED` without reaching it.
   */
  onCall?: (call: HostCall) => void;
  /**
   * Wraps the implementation of each offered operation, after the host checked its arguments and scope: metrics,
   * tracing, fault injection (the mock's `fail`, `delay` and `hang` use it).
   */
  around?: (
    method: MethodName,
    run: (params: any, context: HostCallContext) => unknown,
  ) => (params: any, context: HostCallContext) => unknown;
  /** Ms an action invocation may run. Default 600 000 (ten minutes: it may elicit from a person). */
  actionTimeout?: number;
  /** The web host page's origin, put into the snapshot as `host_origin`. */
  hostOrigin?: string;
}

/**
 * The host's side of the bridge.
 * @public
 */
export interface HostEndpoint {
  /** The launch snapshot to hand to the app (URL fragment, native injection, or the welcome). */
  readonly snapshot: LaunchSnapshot;
  /**
   * Runs the app's handler of an action and resolves with its output. With a `manifest`, the rules apply
   * (declared, `input_schema`, a registered handler, the confirm floor and policy, `output_schema`) and set
   * `confirmed` themselves: pass `{ invoked_by, agent_id }` only. Without one, the context is sent as given, with
   * the `confirmed` you pass. Either way an agent names itself (`agent_id`) and the person has no agent id.
   * Aborting `options.signal` cancels it: the promise rejects with `ERR_CANCELLED`, a confirmation or elicit sheet
   * it opened closes, and the app gets `actions.cancel` (its handler's `context.signal` aborts).
   */
  invokeAction(
    name: string,
    input: unknown,
    context: InvokeContext | (InvokeContext & Pick<ActionContext, 'confirmed'>),
    options?: { signal?: AbortSignal },
  ): Promise<unknown>;
  /** The actions the app has announced handlers for, as of the last announcement that arrived. */
  handledActions(): string[];
  /** The rules this host enforces, when it was given a `manifest`. */
  readonly rules?: HostRules;
  /** Changes the theme: the app's `svc.app.theme` follows and its `onThemeChange` callbacks run. */
  setTheme(theme: Theme): void;
  /** Connects a (new) app channel; a previous one is closed and its pending calls fail with `ERR_DISCONNECTED`. */
  attach(transport: Transport): void;
  /**
   * Closes the channel; pending calls on both sides fail with `ERR_DISCONNECTED`. A later {@link HostEndpoint.attach}
   * opens a new one (as a reload does), also when `close()` came before any app attached.
   */
  close(): void;
}
