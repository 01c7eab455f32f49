// biome-ignore-all lint/suspicious/noExplicitAny: the client reads globals and wire values of foreign shape and checks each where it is used; typing them would add guards the 4,000-byte budget cannot afford
// The imports' order is measured, not alphabetical: it sets the order of the client's modules in an app's bundle,
// which moves its brotli bytes (docs/performance.md, the client's bytes).
import { CALL_TABLE } from '../protocol/generated/callTable';
import { notificationParams } from '../protocol/notificationParams';
import { connect } from './connect';
import type { Transport } from '../rpc/Transport';
import type { PeerMethod } from '../protocol/frames';
import type { Theme } from '../protocol/types';
import type { Svc } from '../protocol/Svc';
import { parseSnapshot, type LaunchSnapshot } from '../protocol/snapshot';
import { readSnapshot } from './readSnapshot';
import { createEndpoint, type Endpoint, noop } from '../rpc/createEndpoint';
import { createActions, invalid } from './createActions';

/**
 * Options of {@link createSvc}.
 * @public
 */
export interface SvcOptions {
  /** A ready transport (tests, custom hosts); by default the SDK finds its host on first use. */
  transport?: Transport;
  /** A launch snapshot to use instead of the host's (dev override, tests). */
  snapshot?: Partial<LaunchSnapshot>;
  /** The host page's exact origin, when the snapshot does not carry it. Never `'*'`. */
  hostOrigin?: string;
  /**
   * The host origins this app trusts (exact origins). Default: the space-separated list in the page's
   * `<meta name="svc-host-origins" content="...">`, which the platform that serves the package writes. A host origin
   * not in the list is refused (`ERR_NO_HOST`): whoever frames the app can name any origin in its fragment.
   */
  hostOrigins?: string[];
  /** Ms to wait for an answer to a call that does not wait on a person. Default 10 000. */
  timeout?: number;
  /** Ms to wait for a web host to answer the hello (a native WebView's bridge needs no wait). Default 3 000. */
  connectTimeout?: number;
  /** Ms to wait for a call that waits on a person (a prompt, a picker, a sheet). Default 600 000 (ten minutes). */
  promptTimeout?: number;
}

/**
 * A client: the `svc` facade and the channel under it.
 * @public
 */
export interface SvcClient {
  /** The facade. */
  readonly svc: Svc;
  /**
   * Closes the channel: pending calls reject with `ERR_DISCONNECTED`. The next call connects again to a host the
   * SDK found; a client made with an explicit `transport` stays closed.
   */
  close(): void;
}

/**
 * Creates a `svc` client. Nothing happens at creation: the snapshot is read on first access to a synchronous
 * member, and the host is found on the first call (or the first `actions.handle` / `onThemeChange`).
 * @example
 * ```ts
 * const { svc } = createSvc({ timeout: 5000 });
 * const room = await svc.room.current();
 * ```
 * @public
 */
export function createSvc(options: SvcOptions = {}): SvcClient {
  const given = options.transport;
  const promptTimeout = options.promptTimeout ?? 600_000;
  let snap: LaunchSnapshot | undefined;
  const snapshot = () => (snap ??= options.snapshot ? parseSnapshot(options.snapshot) : readSnapshot());
  const listeners = new Set<(theme: Theme) => void>();
  let current: Endpoint | undefined;

  const endpoint = (): Endpoint => {
    // A closed channel to a host the SDK found is replaced; one over a given transport stays closed.
    if (current && (!current.closed || given)) return current;
    // Leaving the page tells the host at once, so its pending action calls fail instead of waiting: hooked once,
    // with the first channel (`current` is never unset).
    if (!given && !current) globalThis.addEventListener?.('pagehide', () => current?.close());
    const transport =
      given ??
      connect(options.hostOrigin ?? snapshot().host_origin, options.connectTimeout ?? 3000, options.hostOrigins).then(
        ([transport, fresh]) => {
          if (fresh) snap = parseSnapshot(fresh);
          return transport;
        },
      );
    current = createEndpoint(transport, handlers, options.timeout ?? 10_000);
    // A new channel means a new host side: tell it which action handlers this app has.
    announce(current);
    return current;
  };

  // Fire-and-forget operations are synchronous and nobody answers them: a bad argument throws here, and nothing is
  // sent. The host checks the params of every call it answers, and rejects a bad one naming the field.
  const notify = (name: string, params: object) => {
    const problem = notificationParams[name as keyof typeof notificationParams](params, '');
    if (problem) throw invalid(name, problem);
    endpoint().notify(name, params);
  };

  const [actions, invoke, announce, cancel] = createActions(endpoint, promptTimeout, notify);
  // What the host may send the app: invocations, their cancellation, theme changes (read when a channel opens).
  const handlers = new Map<string, (params: unknown, id?: string) => unknown>([
    ['actions.invoke' satisfies PeerMethod, invoke],
    ['actions.cancel' satisfies PeerMethod, cancel],
    [
      'app.themeChanged' satisfies PeerMethod,
      (params: any) => {
        const theme = params?.theme;
        // A theme the app cannot style is ignored: listeners and `svc.app.theme` only ever see light or dark.
        if (theme !== 'dark' && theme !== 'light') return;
        snapshot().app.theme = theme;
        for (const listener of listeners) {
          try {
            listener(theme);
          } catch {
            // One broken listener must not keep the others from hearing the change.
          }
        }
      },
    ],
  ]);

  // The operations as [name, args, flags] (see CALL_TABLE).
  const entries = CALL_TABLE.split(' ').map((entry) => entry.split(':') as [string, string?, string?]);
  const operations = entries.map(([name]) => name);
  const svc: any = {
    get version() {
      return snapshot().bridge;
    },
    // A host operation is there when the host advertised it; any other member (`app.*`, `actions.handle`,
    // `version`) is provided by the client itself, so it is there when the facade has it (own keys only).
    supports: (member: string) => {
      const name = String(member).replace(/^svc\./, '');
      const [ns, key] = name.split('.') as [string, string?];
      if (operations.includes(name)) return snapshot().methods.includes(name);
      return Object.hasOwn(svc, ns) && (!key || Object.hasOwn(svc[ns], key));
    },
    app: {
      onThemeChange(callback: (theme: Theme) => void) {
        if (typeof callback != 'function') throw invalid('app.onThemeChange', 'callback must be a function');
        listeners.add(callback);
        endpoint();
        return () => {
          listeners.delete(callback);
        };
      },
      // The launch snapshot's values, read on first access (never at import, which must not touch `window`).
      // The snapshot's keys are the platform's, except `launch_params`, which the facade spells `launchParams`.
      get id() {
        return snapshot().app.id;
      },
      get version() {
        return snapshot().app.version;
      },
      get locale() {
        return snapshot().app.locale;
      },
      get theme() {
        return snapshot().app.theme;
      },
      get launchParams() {
        return snapshot().app.launch_params;
      },
    },
    actions,
  };

  for (const [name, args, flags = ''] of entries) {
    const [ns, member] = name.split('.') as [string, string];
    svc[ns] ??= {};
    svc[ns][member] ??= (...given: unknown[]) => {
      // `args`: positional argument names (none when empty), or '@' when the one argument is the params object.
      const params: object =
        args == '@'
          ? (given[0] ?? {})
          : args
            ? Object.fromEntries(args.split(',').map((key, i) => [key, given[i]]))
            : {};
      if (flags.includes('n')) return notify(name, params);
      const answer = endpoint().call(name, params, flags.includes('p') ? promptTimeout : undefined);
      return flags.includes('v') ? answer.then(noop) : answer;
    };
  }

  return {
    svc: svc as Svc,
    close: () => current?.close(),
  };
}
