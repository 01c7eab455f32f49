import { BRIDGE_VERSION, PEER } from '../protocol/frames';
import { randomId } from '../protocol/randomId';
import { isMethodName, methods, type MethodName, type MethodParams, type MethodResult } from '../protocol/methods';
import { results } from '../protocol/results';
import type { PermissionScope } from '../protocol/scopes';
import { any, bool, lit, obj, opt, str, text } from '../protocol/shape';
import type { LaunchSnapshot } from '../protocol/snapshot';
import { SvcError } from '../protocol/SvcError';
import type { ActionContext, Theme } from '../protocol/types';
import { createEndpoint, type Endpoint, type InboundHandler } from '../rpc/createEndpoint';
import type { Transport } from '../rpc/Transport';

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
}

/**
 * The host's handlers, one per registry operation, typed from the registry. An operation without a handler is
 * not advertised, and calling it rejects with `ERR_UNSUPPORTED`.
 * @public
 */
export type HostHandlers = {
  [W in MethodName]?: (params: MethodParams<W>, context: HostCallContext) => MethodResult<W> | Promise<MethodResult<W>>;
};

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
 * Options of {@link createHost}.
 * @public
 */
export interface HostOptions {
  /** The handlers of the operations this host offers. */
  handlers: HostHandlers;
  /** The values of `svc.app` (the snapshot's `app`); `methods` is filled in from `handlers`. */
  app: LaunchSnapshot['app'];
  /** The channel, when it is not an iframe (tests, native). Use {@link HostEndpoint.attach} for iframes. */
  transport?: Transport;
  /** Whether a short scope is granted now; operations that need one reject `ERR_SCOPE_NOT_GRANTED` when not. */
  granted?: (scope: PermissionScope) => boolean | Promise<boolean>;
  /**
   * Sees every inbound call of a registry operation before any check, valid or not (logs, test recorders). A name
   * that is no operation is answered `ERR_UNSUPPORTED` without reaching it.
   */
  onCall?: (call: HostCall) => void;
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
  /** Runs the app's handler of a declared action and resolves with its output. */
  invokeAction(name: string, input: unknown, context: ActionContext): Promise<unknown>;
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

const themeCheck = lit('light', 'dark');
const contextCheck = obj({ invoked_by: lit('agent', 'user'), agent_id: opt(str), confirmed: bool });
const invokeCheck = obj({ name: text, input: any, context: contextCheck });
const needsInvocation = new Set<string>(['actions.elicit', 'actions.progress']);
const isThenable = (v: unknown): v is PromiseLike<unknown> => typeof (v as PromiseLike<unknown>)?.then == 'function';

/**
 * Creates the host's endpoint: it answers the client's calls with `handlers`, rejects malformed params before any
 * handler runs, checks scopes, and invokes the app's actions.
 * @example
 * ```ts
 * const host = createHost({ app, handlers: { 'room.current': () => null }, hostOrigin: location.origin });
 * attachIframe(host, iframe, appOrigin); // listen before the app can say hello
 * iframe.src = launchUrl(appUrl, host.snapshot);
 * ```
 * @public
 */
export function createHost(options: HostOptions): HostEndpoint {
  const { handlers: impl, granted, onCall } = options;
  const running = new Map<string, Invocation>();
  const offered = Object.keys(impl).filter((name) => isMethodName(name) && typeof impl[name] == 'function');
  const snapshot: LaunchSnapshot = { bridge: BRIDGE_VERSION, methods: offered, app: { ...options.app } };
  if (options.hostOrigin) snapshot.host_origin = options.hostOrigin;

  const inbound = new Map<string, InboundHandler>();
  for (const name of Object.keys(methods) as MethodName[]) {
    const def = methods[name];
    const handler = offered.includes(name) ? (impl[name] as (p: unknown, c: HostCallContext) => unknown) : undefined;
    const fail = (code: string, why: string) => new SvcError(code, why, false, name);
    // A host bug is reported to the host's developer here, not as a malformed answer in the app.
    const checked = (result: unknown) => {
      const bad = results[name]?.(result, 'result');
      if (bad) throw fail('ERR_INTERNAL', `the host's handler returned a malformed answer (${bad}).`);
      return result;
    };
    // Synchronous unless the handler or the scope check is not: every await would cost the round trip a tick.
    inbound.set(name, (params) => {
      onCall?.({ method: name, params });
      const problem = def.params(params, '');
      if (problem) throw fail('ERR_INVALID_ARGUMENT', `${problem}.`);
      if (!handler) throw fail('ERR_UNSUPPORTED', 'this host does not offer it; check svc.supports() first.');
      const context: HostCallContext = { method: name };
      if (needsInvocation.has(name)) {
        context.invocation = running.get((params as { invocation: string }).invocation);
        if (!context.invocation)
          throw fail('ERR_NO_INVOCATION', 'it is bound to an action invocation that is not running.');
      }
      const run = (allowed: boolean) => {
        if (!allowed)
          throw fail(
            'ERR_SCOPE_NOT_GRANTED',
            `needs the '${def.scope}' scope; call svc.permissions.request('${def.scope}') at the moment of use.`,
          );
        const result = handler(params, context);
        return isThenable(result) ? result.then(checked) : checked(result);
      };
      const allowed = def.scope && granted ? granted(def.scope) : true;
      return isThenable(allowed) ? allowed.then(run) : run(allowed);
    });
  }

  let endpoint: Endpoint | undefined;
  let waiting: ((t: Transport) => void) | undefined;
  const open = (transport: Transport | Promise<Transport>) =>
    (endpoint = createEndpoint({ transport, handlers: inbound, timeout: options.actionTimeout ?? 600_000 }));
  // Until an app connects, calls to it wait (bounded by their timeout) for the first transport.
  const current = () => endpoint ?? open(new Promise<Transport>((resolve) => (waiting = resolve)));

  const host: HostEndpoint = {
    snapshot,
    attach(transport) {
      if (waiting) {
        waiting(transport);
        waiting = undefined;
        return;
      }
      endpoint?.close(
        new SvcError('ERR_DISCONNECTED', 'the app reconnected (reload or navigation). Invoke the action again.', true),
      );
      open(transport);
    },
    async invokeAction(name, input, context) {
      const problem = invokeCheck({ name, input, context }, '');
      if (problem) throw new SvcError('ERR_INVALID_ARGUMENT', `invokeAction(): ${problem}.`);
      const invocation: Invocation = { id: randomId(), name, context };
      running.set(invocation.id, invocation);
      try {
        return await current().call(PEER.invoke, { invocation: invocation.id, name, input, context });
      } finally {
        running.delete(invocation.id);
      }
    },
    setTheme(theme) {
      if (themeCheck(theme, 'theme'))
        throw new SvcError('ERR_INVALID_ARGUMENT', "setTheme(): theme must be 'light' or 'dark'.");
      snapshot.app.theme = theme;
      current().notify(PEER.theme, { theme });
    },
    close() {
      // Before any app attached there is no channel to close: fail what waits for one, and let a later attach
      // start afresh (before, the next app's channel was closed on arrival and its calls timed out).
      if (!endpoint) return;
      endpoint.close();
      if (waiting) {
        waiting = undefined;
        endpoint = undefined;
      }
    },
  };
  if (options.transport) host.attach(options.transport);
  return host;
}
