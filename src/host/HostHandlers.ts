import type { MethodName, MethodParams, MethodResult } from '../protocol/methods';
import type { ActionContext } from '../protocol/types';

/**
 * A running action invocation, as the host's `actions.elicit` and `actions.progress` handlers see it.
 * @public
 */
export interface Invocation {
  /** The invocation id the app echoes in `elicit` and `progress`. */
  id: string;
  /** The action's name. */
  name: string;
  /** The context it was invoked with. */
  context: ActionContext;
  /** Aborts when the invoker cancels it (`invokeAction`'s `signal`): a sheet it opened closes. */
  signal?: AbortSignal;
}

/**
 * What a host handler receives besides the params.
 * @public
 */
export interface HostCallContext {
  /** The operation's wire name. */
  method: MethodName;
  /** For `actions.elicit` and `actions.progress`: the running invocation they belong to. */
  invocation?: Invocation;
  /**
   * The context of the action invocation running while this call came (an app's calls during an invocation are
   * made for whoever invoked it): a host mints an agent's token with `act.sub` from it.
   */
  acting?: ActionContext;
  /**
   * Aborts when the page that made the call is gone: it left or reloaded, another page took its place, or the host
   * closed. Nobody receives the answer then: a prompt the call opened should close, and its effect not be done.
   */
  signal?: AbortSignal;
}

/**
 * The host's handlers, one per registry operation, typed from the registry. An operation without a handler (or
 * with `null`) is not advertised, and calling it rejects with `ERR_UNSUPPORTED`.
 * @public
 */
export type HostHandlers = {
  [W in MethodName]?:
    | ((params: MethodParams<W>, context: HostCallContext) => MethodResult<W> | Promise<MethodResult<W>>)
    | null;
};
