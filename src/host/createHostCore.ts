import { APP_LEFT } from './appLeft';
import { isUnoffered } from './rules/unoffered';
import { BRIDGE_VERSION, PEER } from '../protocol/frames';
import { isMethodName, type MethodName, methods } from '../protocol/methods';
import { toApp, toHost } from '../protocol/peerMethods';
import { randomId } from '../protocol/randomId';
import { isPlain } from '../protocol/shape';

import type { PermissionScope } from '../protocol/scopes';
import type { LaunchSnapshot } from '../protocol/snapshot';
import { isSvcError, SvcError } from '../protocol/SvcError';
import type { ActionContext, Theme } from '../protocol/types';
import { createEndpoint, type Endpoint, type InboundHandler } from '../rpc/createEndpoint';
import type { Transport } from '../rpc/Transport';
import { cancelled } from './cancelled';
import type { BridgeOptions, HostCallContext, HostEndpoint, HostHandlers, Invocation } from './types';
import type { InvokeContext } from './rules/actionRules';
import { RULE_OPTION_NAMES } from './rules/createRules';

const isThenable = (v: unknown): v is PromiseLike<unknown> => typeof (v as PromiseLike<unknown>)?.then === 'function';

/**
 * How many of the app's calls may wait for their answers at once: past it, another is refused at once
 * (`ERR_RATE_LIMITED`), so an app that floods its host (a loop that never awaits) cannot queue every later call, its
 * own included, behind thousands of its own (the host answers them one by one).
 */
const MAX_WAITING = 256;

/** The rules' options createHost would ignore (the validator aside: no host gives createHost one). */
const RULE_OPTIONS = RULE_OPTION_NAMES.filter((name) => name !== 'validator');
/** The options of the bridge: an object the compiler holds to {@link BridgeOptions}, so one added there is known. */
const BRIDGE_OPTIONS = Object.keys({
  rules: 0,
  handlers: 0,
  app: 0,
  transport: 0,
  granted: 0,
  onCall: 0,
  around: 0,
  actionTimeout: 0,
  hostOrigin: 0,
} satisfies Record<keyof BridgeOptions, 0>);

/**
 * Creates the host's side of the bridge, without the manifest validator: it answers the client's calls with
 * `handlers`, rejects malformed params before any handler runs, checks scopes (by `rules` when given, else
 * `granted`), and invokes the app's actions. `svc-sdk/host/core` exports it as `createHost`; `svc-sdk/host`'s
 * `createHost` adds the validation of a raw manifest.
 * @example
 * ```ts
 * import { attachIframe, createHost, launchUrl, withRules } from 'svc-sdk/host/core';
 * const host = createHost({ handlers: effects, rules: withRules({ manifest, validator, answers }) });
 * attachIframe(host, iframe, appOrigin); // listen before the app can say hello
 * iframe.src = launchUrl(appUrl, host.snapshot);
 * ```
 * @public
 */
export function createHostCore(options: BridgeOptions): HostEndpoint {
  // The rules' options given to createHost would be ignored, with the rules or without them (a host moved from
  // svc-sdk/host, or one that left out the manifest): every call let through, writes kept apart. Refused; so is an
  // option of no name createHost knows (a misspelt one, ignored, would leave the default), and `granted` beside the
  // rules, which decide the scopes then.
  const given = options as Record<string, unknown>;
  const ruleOption = RULE_OPTIONS.find((key) => given[key] != null);
  const inRules = ruleOption === 'manifest' ? '' : `, ${ruleOption}`;
  if (ruleOption)
    throw new TypeError(
      options.rules
        ? `createHost(): ${ruleOption} is an option of the rules: pass it to withRules({ manifest, validator${inRules} })`
        : `createHost(): ${ruleOption} takes effect only with the rules: svc-sdk/host's createHost with the manifest, or svc-sdk/host/core's with rules: withRules({ manifest, validator${inRules} })`,
    );
  const unknown = Object.keys(given).find((key) => !BRIDGE_OPTIONS.includes(key) && !RULE_OPTIONS.includes(key));
  if (unknown || (options.rules && options.granted))
    throw new TypeError(
      unknown
        ? `createHost(): ${unknown} is no option of createHost: its options are ${BRIDGE_OPTIONS.join(', ')}`
        : 'createHost(): granted decides scopes without the rules; with them, pass grants to withRules()',
    );
  const { granted, onCall } = options;
  const running = new Map<string, Invocation>();
  const handled = new Set<string>();
  // Invocations waiting for the app to announce a handler (an app launched for the invocation is still loading):
  // each is checked on every announcement, over channels too (a reload), until its name is announced. Once the app
  // has announced handlers but not this one, it waits a second more from the latest announcement (the rest of the
  // handle() calls of its load), not the whole `ms`: an app that is up and lacks the handler is told so soon.
  const waiters = new Set<() => void>();
  const announced = (name: string, ms: number) =>
    new Promise<void>((done, refuse) => {
      const check = () => {
        if (handled.has(name)) end();
        else if (handled.size) {
          clearTimeout(timer);
          timer = setTimeout(end, Math.min(ms, 1e3));
        }
      };
      const end = () => {
        waiters.delete(check);
        clearTimeout(timer);
        // The app left (a reload or a navigation of its own) and no page came back to say what it handles.
        if (!handled.size && endpoint?.closed) refuse(new SvcError('ERR_DISCONNECTED', APP_LEFT, true));
        done();
      };
      let timer = setTimeout(end, ms);
      waiters.add(check);
      check();
    });
  const rules = options.rules?.({ effects: options.handlers ?? {}, handled, announced });
  const impl: HostHandlers = rules ? rules.handlers : (options.handlers ?? {});
  const offered = Object.keys(impl).filter(
    (name) => isMethodName(name) && typeof impl[name] === 'function' && !isUnoffered(impl[name]),
  );
  const m = rules?.manifest;
  const app = {
    id: m?.id ?? '',
    version: m?.version ?? '',
    locale: m?.default_locale ?? 'en',
    theme: 'light' as Theme,
  };
  const snapshot: LaunchSnapshot = {
    bridge: BRIDGE_VERSION,
    methods: offered,
    app: { ...app, launch_params: {}, ...options.app },
  };
  if (options.hostOrigin) snapshot.host_origin = options.hostOrigin;
  // The scope rule: the manifest's rules when there are any, else the host's own `granted`.
  const scopeProblem = (
    scope: PermissionScope,
    method: MethodName,
  ): SvcError | undefined | Promise<SvcError | undefined> => {
    if (rules) return rules.scopeProblem(scope, method);
    const notGranted = (ok: boolean) =>
      ok
        ? undefined
        : new SvcError(
            'ERR_SCOPE_NOT_GRANTED',
            `needs the '${scope}' scope; call svc.permissions.request('${scope}') at the moment of use.`,
            false,
            method,
          );
    const ok = granted ? granted(scope) : true;
    return isThenable(ok) ? Promise.resolve(ok).then(notGranted) : notGranted(ok);
  };

  // The signal of the channel calls arrive on now (see open): only the newest endpoint delivers calls.
  let channel = new AbortController();
  // The app's calls whose answers are not yet known (see MAX_WAITING), each with when the app's client stops waiting
  // for it by default (10 s; 10 minutes for a prompt). A new channel (the app reloaded) starts with none.
  const unanswered = new Map<PromiseLike<unknown>, number>();
  const inbound = new Map<string, InboundHandler>();
  inbound.set(PEER.handlers, (params) => {
    // A malformed announcement is dropped: it is a notification, with nobody to answer.
    if (toHost[PEER.handlers](params, '')) return;
    handled.clear();
    for (const name of (params as { names: string[] }).names) handled.add(name);
    for (const check of [...waiters]) check();
  });
  for (const name of Object.keys(methods) as MethodName[]) {
    const def = methods[name];
    const own = impl[name] as ((p: unknown, c: HostCallContext) => unknown) | undefined;
    // Offered or not (an unoffered one answers with its refusal), a function of the host's runs.
    const handler = typeof own === 'function' ? (options.around?.(name, own) ?? own) : undefined;
    const fail = (code: string, why: string) => new SvcError(code, why, false, name);
    // A host bug is reported to the host's developer here, not as a malformed answer in the app.
    const checked = (result: unknown) => {
      const bad = def.result?.(result, 'result');
      if (bad) throw fail('ERR_INTERNAL', `the host's handler returned a malformed answer (${bad}).`);
      return kept(result, def.result?.keep);
    };
    // Synchronous unless the handler or the scope check is not: every await would cost the round trip a tick.
    const answer = (params: unknown) => {
      onCall?.({ method: name, params });
      // The shape's problem is a phrase, the rules' a sentence.
      const problem = def.params(params, '')?.concat('.') ?? rules?.paramsProblem?.(name, params);
      if (problem) throw fail('ERR_INVALID_ARGUMENT', problem);
      if (!handler) throw fail('ERR_UNSUPPORTED', 'this host does not offer it; check svc.supports() first.');
      const context: HostCallContext = { method: name, signal: channel.signal };
      // One the host does not offer refuses with its reason (the answer it lacks, an auth mode without it) at the
      // rank of one it does not have: before the invocation and the scope are looked at.
      if (isUnoffered(own)) return handler(params, context);
      const current = [...running.values()].at(-1);
      if (current) context.acting = current.context;
      if (def.bound) {
        context.invocation = running.get((params as { invocation: string }).invocation);
        if (!context.invocation)
          throw fail('ERR_NO_INVOCATION', 'it is bound to an action invocation that is not running.');
      }
      const run = (refusal: SvcError | undefined) => {
        if (refusal) throw refusal;
        const result = handler(params, context);
        return isThenable(result) ? result.then(checked) : checked(result);
      };
      const refusal = def.scope ? scopeProblem(def.scope, name) : undefined;
      return isThenable(refusal) ? refusal.then(run) : run(refusal);
    };
    inbound.set(name, (params) => {
      // A call the app no longer waits for stops counting: the client's default timeout passed, or a new channel
      // opened (the app reloaded). A handler of the host's that never settles would otherwise hold its place for
      // good, and refuse every later call of an app that awaited each one. (At most 256 to look at; a handful as
      // apps await.)
      const now = Date.now();
      for (const [call, until] of unanswered) if (until < now) unanswered.delete(call);
      if (unanswered.size >= MAX_WAITING)
        throw new SvcError(
          'ERR_RATE_LIMITED',
          `${MAX_WAITING} calls wait for their answers: await some before making more.`,
          true,
          name,
        );
      const result = answer(params);
      if (isThenable(result)) {
        unanswered.set(result, now + (def.kind === 'prompt' ? 6e5 : 1e4));
        const done = () => unanswered.delete(result);
        result.then(done, done);
      }
      return result;
    });
  }

  let endpoint: Endpoint | undefined;
  // The call to the app's handler, with the channel's own check of what is sent.
  const callApp = async (name: string, input: unknown, context: ActionContext, signal?: AbortSignal) => {
    if (signal?.aborted) throw cancelled(name);
    const invocation: Invocation = { id: randomId(), name, context, signal };
    const params = { invocation: invocation.id, name, input, context };
    const problem = toApp[PEER.invoke](params, '');
    if (problem) throw new SvcError('ERR_INVALID_ARGUMENT', `invokeAction(): ${problem}.`);
    // The app hears of a cancel while its handler may still run; the invoker's promise rejects at once.
    const cancel = () => current().notify(PEER.cancel, { invocation: invocation.id });
    signal?.addEventListener('abort', cancel, { once: true });
    running.set(invocation.id, invocation);
    try {
      return await current().call(PEER.invoke, params);
    } catch (error) {
      // Past actionTimeout the host gives up: the app is told to stop the handler, as for a cancel.
      if (isSvcError(error) && error.code === 'ERR_TIMEOUT') cancel();
      // The app's client answers its own failures as ERR_ACTION_FAILED or the handler's SvcError; this generic
      // answer of its channel means the result could not be posted back (structured clone refused it), which no
      // retry fixes.
      if (isSvcError(error) && error.code === 'ERR_INTERNAL' && error.message === `svc.${PEER.invoke} failed`)
        throw new SvcError(
          'ERR_ACTION_FAILED',
          `action ${name} returned a result that cannot be passed back (a function, an AbortSignal, a DOM node or a class instance in it): return plain data, as its output_schema describes.`,
        );
      throw error;
    } finally {
      signal?.removeEventListener('abort', cancel);
      running.delete(invocation.id);
    }
  };
  let waiting: ((t: Transport) => void) | undefined;
  // Set when the host was given a transport of its own (see channelsOver): closing the host closes it.
  let closePipe: (() => void) | undefined;
  const open = (transport: Transport | Promise<Transport>) => {
    // Aborted when this channel's endpoint lets go of its pipe (the page said goodbye, a new page attached, the host
    // closed): the calls it carried are then nobody's, so the prompts they opened close and are not acted on.
    channel = new AbortController();
    unanswered.clear();
    const gone = channel;
    const letGo = (t: Transport): Transport => ({
      send: (message) => t.send(message),
      listen: (receive) => t.listen(receive),
      close: () => {
        gone.abort();
        t.close();
        // What the page that left handled is not what the next one will: an invocation waits for its announcement
        // (the app reloading itself), and runs on its channel, instead of failing on the closed one.
        handled.clear();
      },
    });
    endpoint = createEndpoint(
      isThenable(transport) ? Promise.resolve(transport).then(letGo) : letGo(transport),
      inbound,
      options.actionTimeout ?? 600_000,
    );
    return endpoint;
  };
  // Until an app connects, calls to it wait (bounded by their timeout) for the first transport.
  const current = () => endpoint ?? open(new Promise<Transport>((resolve) => (waiting = resolve)));

  const host: HostEndpoint = {
    snapshot,
    attach(transport) {
      handled.clear();
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
    async invokeAction(name, input, context, options) {
      const signal = options?.signal;
      if (signal?.aborted) throw cancelled(name);
      const call = (n: string, i: unknown, c: ActionContext) => callApp(n, i, c, signal);
      let run: Promise<unknown>;
      if (!rules) run = call(name, input, context as ActionContext);
      else if ((context as Partial<ActionContext>)?.confirmed !== undefined)
        throw new SvcError(
          'ERR_INVALID_ARGUMENT',
          "invokeAction(): this host's rules set context.confirmed (true only when the person approved); do not pass it.",
        );
      // The rules check the context at run time too (a JavaScript host, a cast): an agent without its id is refused.
      else run = rules.invoke(name, input, context as InvokeContext, call, signal);
      if (!signal) return run;
      return new Promise((resolve, reject) => {
        const abort = () => reject(cancelled(name));
        signal.addEventListener('abort', abort, { once: true });
        run.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
      });
    },
    handledActions: () => [...handled],
    rules,
    setTheme(theme) {
      if (toApp[PEER.theme]({ theme }, ''))
        throw new SvcError('ERR_INVALID_ARGUMENT', "setTheme(): theme must be 'light' or 'dark'.");
      snapshot.app.theme = theme;
      current().notify(PEER.theme, { theme });
    },
    close() {
      // Before any app attached there is no channel to close: fail what waits for one, and let a later attach
      // start afresh.
      if (endpoint) {
        // Said in the host's words: the calls pending here are the app's answers to invocations, and "channel
        // closed" told an agent nothing it could act on.
        endpoint.close(
          new SvcError(
            'ERR_DISCONNECTED',
            'the host closed the app before it answered. Invoke the action again.',
            true,
          ),
        );
        if (waiting) {
          waiting = undefined;
          endpoint = undefined;
        }
      }
      // A transport of the host's own closes after the goodbye has left (a memory pair delivers a promise's turn later;
      // not queueMicrotask, which fake timers replace).
      if (closePipe) Promise.resolve().then(closePipe);
    },
  };
  if (options.transport) closePipe = channelsOver(options.transport, host.attach);
  return host;
}

/**
 * Opens channels over a transport that outlives the app's pages (a native WebView bridge): the app's adapter says
 * hello each time its client opens a channel, so a hello after the first, or after the channel closed (the page
 * said goodbye on leaving), means a new page or a reconnected client. The old channel is then closed (its pending
 * calls fail `ERR_DISCONNECTED`) and a new one opened, without rebuilding the host. A transport that never carries
 * a hello (a memory pair) keeps its one channel. Closing a channel leaves the pipe open for the next; the returned
 * function closes the pipe itself (the host's `close`).
 */
function channelsOver(pipe: Transport, attach: (channel: Transport) => void): () => void {
  let receiver: ((message: unknown) => void) | undefined;
  // Frames that arrive between a hello and the new channel's first listen (an endpoint listens a tick later).
  let early: unknown[] = [];
  let hellos = 0;
  let generation = 0;
  let ended = false;
  // Only the newest channel reaches the pipe: the old one's goodbye must not land on the new page.
  const channel = (): Transport => {
    const mine = ++generation;
    ended = false;
    return {
      send: (message) => (mine === generation ? pipe.send(message) : undefined),
      listen: (receive) => {
        if (mine !== generation) return;
        receiver = receive;
        const waiting = early;
        early = [];
        for (const message of waiting) receive(message);
      },
      close: () => {
        if (mine !== generation) return;
        receiver = undefined;
        ended = true;
      },
    };
  };
  pipe.listen((message) => {
    if (isPlain(message) && message.svc === 'hello') {
      if (!hellos++ && !ended) return;
      receiver = undefined;
      attach(channel());
    } else if (receiver) receiver(message);
    else if (!ended) early.push(message);
  });
  attach(channel());
  return () => pipe.close();
}

/**
 * An answer with only the fields its operation documents: a handler may return the host's own object (its room with
 * an internal token), which the check lets through and the app must not see.
 */
function kept(result: unknown, keep: readonly string[] | undefined): unknown {
  if (!keep || result == null) return result;
  if (Array.isArray(result)) return result.map((item) => kept(item, keep));
  const answer = result as Record<string, unknown>;
  return Object.fromEntries(keep.filter((key) => answer[key] !== undefined).map((key) => [key, answer[key]]));
}
