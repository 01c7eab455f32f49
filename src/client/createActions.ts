// biome-ignore-all lint/suspicious/noExplicitAny: the client reads globals and wire values of foreign shape and checks each where it is used; typing them would add guards the 4,000-byte budget cannot afford
// The imports' order is measured, not alphabetical: it sets the order of the client's modules in an app's bundle,
// which moves its brotli bytes (docs/performance.md, the client's bytes).
import type { ActionHandler } from '../protocol/types';
import { type Endpoint, noop } from '../rpc/createEndpoint';
import type { PeerMethod } from '../protocol/frames';
import { isSvcError, SvcError } from '../protocol/SvcError';
import type { SvcActions } from '../protocol/Svc';

/** The error for a bad argument of `svc.<method>()`. */
export const invalid = (method: string, problem: string): SvcError =>
  new SvcError('ERR_INVALID_ARGUMENT', problem, false, method);

/**
 * Builds `svc.actions`, the handler of the host's `actions.invoke` calls (the second element), the handler of its
 * `actions.cancel` notifications (the fourth: aborts the invocation's `signal`), and the announcement of the
 * handlers the app has (the third: sent on every change and on every new channel, so the host
 * knows which actions can run before it asks a person to confirm one).
 *
 * `progress()` goes through `notify`, the facade's sender of fire-and-forget operations (it checks their params).
 *
 * Invocations run one at a time in arrival order, so that `elicit()` and `progress()`, which the platform gives
 * no invocation argument, always bind to exactly one running invocation.
 *
 * Positional arguments and a tuple, where the rest of the code takes and returns named objects: property names
 * survive minification, and the client's 4,000-byte budget has no room for them.
 */
export function createActions(
  endpoint: () => Endpoint,
  promptTimeout: number,
  notify: (method: string, params: object) => void,
): [SvcActions, (params: any) => Promise<unknown>, (to?: Endpoint) => void, (params: any) => void] {
  const handlers = new Map<string, ActionHandler>();
  // One per invocation not yet answered, queued ones too: actions.cancel aborts it.
  const aborts = new Map<string, AbortController>();
  let running: string | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  // Binds the params to the running invocation; throws when there is none.
  const bind = <P extends object>(method: string, params: P) => {
    if (!running) throw new SvcError('ERR_NO_INVOCATION', 'needs a running action', false, method);
    return { ...params, invocation: running };
  };

  const announce = (to = endpoint()) =>
    to.notify('actions.handlers' satisfies PeerMethod, { names: [...handlers.keys()] });

  const invoke = (params: any) => {
    const { invocation, name, input, context } = params;
    const abort = new AbortController();
    aborts.set(invocation, abort);
    const result = queue.then(async () => {
      const handler = handlers.get(name);
      if (!handler) throw new SvcError('ERR_ACTION_NO_HANDLER', `no handler for action ${name}`);
      running = invocation;
      try {
        // A cancelled invocation that was still queued never runs (the host already gave up on its answer).
        abort.signal.throwIfAborted();
        // The host checked the invocation before sending it (the app trusts its host, and the client's budget has no
        // room for a second copy of that check); the context is a copy the channel made. `confirmed` is the one field
        // an app gates effects on, so only `true` counts: a host's bug must not read as a person's approval.
        return await handler(input, { ...context, confirmed: context?.confirmed === true, signal: abort.signal });
      } catch (e) {
        throw isSvcError(e)
          ? e
          : new SvcError('ERR_ACTION_FAILED', `action ${name} failed: ${(e as Error)?.message ?? e}`);
      } finally {
        running = undefined;
        aborts.delete(invocation);
      }
    });
    queue = result.catch(noop);
    return result;
  };
  const cancel = (params: any) => aborts.get(params?.invocation)?.abort();

  const api: SvcActions = {
    handle(name, handler) {
      if (typeof name != 'string' || typeof handler != 'function')
        throw invalid('actions.handle', 'takes a name and a handler function');
      handlers.set(name, handler);
      announce(); // connects too: the host can only invoke an app it is connected to
      return () => {
        if (handlers.get(name) === handler) {
          handlers.delete(name);
          announce();
        }
      };
    },
    // The host checks elicit's params and answers a problem; progress has nobody to answer, so `notify` checks it.
    elicit: async (request) => endpoint().call('actions.elicit', bind('actions.elicit', request), promptTimeout),
    progress(message) {
      notify('actions.progress', bind('actions.progress', { message }));
    },
  };
  return [api, invoke, announce, cancel];
}
