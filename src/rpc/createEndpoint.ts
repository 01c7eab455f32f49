// The imports' order is measured, not alphabetical: it sets the order of the client's modules in an app's bundle,
// which moves its brotli bytes (docs/performance.md, the client's bytes).
import type { Transport } from './Transport';
import { type PeerMethod, WIRE } from '../protocol/frames';
import { isPlain } from '../protocol/shape';
import { fromWireError, isSvcError, SvcError, toWireError, type WireError } from '../protocol/SvcError';

/** Answers one inbound request or notification. */
export type InboundHandler = (params: unknown) => unknown;

/** One side of a channel: calls, answers and notifications both ways. */
export interface Endpoint {
  /**
   * Sends a request and resolves with the answer. Always settles: answer, error, timeout or close.
   * @param timeout - ms to wait for the answer.
   */
  call(method: string, params: unknown, timeout?: number): Promise<unknown>;
  /** Sends a notification; nothing waits for it. */
  notify(method: string, params: unknown): void;
  /** Rejects everything pending with `error`, tells the other side, and frees the pipe. Idempotent. */
  close(error?: SvcError, quiet?: boolean): void;
  /** Whether {@link Endpoint.close} has run. */
  readonly closed: boolean;
}

/**
 * A call waiting for its answer: its operation, how to settle it, when it was sent (ms since the epoch) and how long
 * it may wait. A tuple, since property names survive minification and this file is in the browser client's budget.
 */
type Pending = [
  method: string,
  resolve: (v: unknown) => void,
  reject: (e: unknown) => void,
  sent: number,
  timeout: number,
];

/** Does nothing: the one empty callback of the browser client's files. */
export const noop = (): void => {};
const closedError = (why: string) => new SvcError('ERR_DISCONNECTED', `channel closed (${why}); retry`, true);

/**
 * Creates one side of a channel over a {@link Transport}.
 *
 * @param given - the pipe, or a promise of it while a bootstrap runs; a rejected promise rejects every call with its
 * error.
 * @param handlers - inbound operations by wire name. A `Map`, so a name like `__proto__` can never reach a prototype.
 * @param wait - the default time in ms to wait for an answer.
 *
 * @remarks
 * Positional parameters, not an options object: property names survive minification, and the object cost the
 * browser client 16 bytes brotli.
 *
 * Inbound frames are checked before they are trusted: foreign traffic, unknown ids and answers to calls that have
 * already settled are dropped without a sound, so a forged frame can neither throw into the page nor settle
 * someone else's call.
 */
export function createEndpoint(
  given: Transport | Promise<Transport>,
  handlers: Map<string, InboundHandler>,
  wait: number,
): Endpoint {
  const pending = new Map<string, Pending>();
  // Ids only need to be unique on this private channel; a random prefix names the endpoint in logs. Nothing depends
  // on guessing it, so Math.random (WebKit's first crypto.getRandomValues costs 0.4 ms of an app's first call), in
  // the very expression of the client's nonce (connect.ts), which brotli then has for free: ten or so characters,
  // the structured clone of a frame does not notice them.
  const prefix = Math.random().toString(36).slice(2);
  const ready = Promise.resolve(given);
  let seq = 0;
  // Why the endpoint closed: every call pending then, and every call made after, is rejected with it.
  let closed: SvcError | undefined;

  // Sends at once when the transport is known; until then (a bootstrap may still run) each send waits on it, in
  // order. A send that throws (a value that cannot be cloned) or rejects (an async encoder) goes to `onError`.
  let transport: Transport | undefined;
  const post = (frame: unknown, onError: (e: unknown) => void = noop) => {
    try {
      const sent = transport ? transport.send(frame) : ready.then((t) => t.send(frame));
      sent?.catch?.(onError);
    } catch (e) {
      onError(e);
    }
  };

  // Takes a pending call off the table, so that it settles once.
  const take = (id: string): Pending => {
    const call = pending.get(id)!;
    pending.delete(id);
    return call;
  };
  // Rejects a pending call with an error of its own operation.
  const fail = (id: string, code: string, why: string, retriable: boolean, cause?: unknown) => {
    const [method, , reject] = take(id);
    reject(new SvcError(code, why, retriable, method, { cause }));
  };

  // One interval per endpoint, running while calls are pending, times them out: a timer per call would cost a
  // tenth of a Node round trip. A call times out within a tenth of the default timeout (at most 1 s) of its own timeout.
  // A call waiting longer than the default timeout also probes the other side, at most once per timeout: a side
  // that does not answer the probe is gone without a word (a crashed host, a dead port), and the endpoint closes,
  // so a prompt does not wait its full ten minutes and the next call connects again.
  let sweeper: ReturnType<typeof setInterval> | undefined;
  let nextProbe = 0;
  const sweep = () => {
    const now = Date.now();
    for (const [id, [method, , , sent, timeout]] of pending) {
      if (now >= nextProbe && now - sent >= wait) {
        nextProbe = now + wait;
        // Its answer, an error too, means the other side is there; closing rejects it with the rest.
        endpoint.call('rpc.ping' satisfies PeerMethod, {}).catch(noop);
      }
      if (now - sent >= timeout)
        if (method == ('rpc.ping' satisfies PeerMethod)) endpoint.close(closedError('peer gone'));
        else fail(id, 'ERR_TIMEOUT', `no answer within ${timeout} ms; retry`, true);
    }
    if (!pending.size) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };

  const receive = (m: unknown) => {
    // A frame of this wire version (frames.ts's isFrame, written out: the call costs the browser client 8 bytes).
    if (closed || !isPlain(m) || m.svc !== WIRE) return;
    const { id, method } = m;
    if (typeof method == 'string') {
      // The other side is gone: nobody is there to say goodbye to. Over a pipe that outlives pages (a native
      // WebView) a goodbye sent now would reach the next page instead, and close its channel.
      if (method == ('rpc.close' satisfies PeerMethod)) return endpoint.close(closedError('peer left'), true);
      // Probes are answered by the channel itself, whatever the handlers.
      const handler = method == ('rpc.ping' satisfies PeerMethod) ? noop : handlers.get(method);
      // A request (a string id) is answered; a notification (no id) has nobody to answer, so what it returns or
      // throws goes nowhere: a failing handler must not break the channel or the page. Any other id is foreign.
      if (id !== undefined && typeof id != 'string') return;
      // A failure is answered as an error; an answer that cannot be sent (a result that cannot be cloned) is
      // replaced by one, and an error that cannot be sent is given up on.
      const answerError = (e: unknown) => answer({ error: toWireError(e, `svc.${method} failed`) }, noop);
      const answer = (frame: object, onError = answerError) => {
        if (id !== undefined && !closed) post({ svc: WIRE, id, ...frame }, onError);
      };
      // A handler that answers synchronously is answered at once: each promise hop costs the round trip.
      try {
        if (!handler) throw new SvcError('ERR_UNSUPPORTED', `svc.${method} is not supported`);
        const result = handler(m.params) as PromiseLike<unknown> | undefined;
        if (typeof result?.then == 'function') result.then((r) => answer({ result: r }), answerError);
        else answer({ result });
      } catch (e) {
        answerError(e);
      }
    } else if (pending.has(id as string)) {
      // Only a string can be a pending id: anything else is not in the table.
      const [method, resolve, reject] = take(id as string);
      if (!Object.hasOwn(m, 'error')) resolve(m.result);
      else reject(fromWireError(m.error as WireError | undefined, method));
    }
  };

  const endpoint: Endpoint = {
    get closed() {
      return !!closed;
    },
    call(method, params, timeout = wait) {
      return new Promise((resolve, reject) => {
        const id = prefix + seq++;
        pending.set(id, [method, resolve, reject, Date.now(), timeout]);
        if (closed) return fail(id, closed.code, closed.message, closed.retriable);
        sweeper ??= setInterval(sweep, Math.min(1000, wait / 10));
        post({ svc: WIRE, id, method, params }, (e) => {
          if (pending.has(id)) fail(id, 'ERR_INVALID_ARGUMENT', `not sendable: ${(e as Error)?.message}`, false, e);
        });
      });
    },
    notify(method, params) {
      if (!closed) post({ svc: WIRE, method, params });
    },
    close(error = closedError('closed'), quiet?: boolean) {
      if (closed) return;
      closed = error;
      clearInterval(sweeper);
      for (const id of pending.keys()) fail(id, error.code, error.message, error.retriable);
      if (!quiet) post({ svc: WIRE, method: 'rpc.close' satisfies PeerMethod, params: {} });
      ready.then((t) => t.close(), noop);
    },
  };

  ready.then(
    (t) => {
      if (closed) t.close();
      else t.listen(receive);
      transport = t;
    },
    // isSvcError is what `instanceof SvcError` asks, with fewer bytes.
    (e) => endpoint.close(isSvcError(e) ? e : closedError(String(e))),
  );
  return endpoint;
}
