import { isFrame, PEER } from '../protocol/frames';
import type { Transport } from '../rpc/Transport';

/** How a tap reports: a call that arrived (and whether it waits for an answer), then its answer. @public */
export interface CallObserver<T> {
  /** An app call arrived (before any check); returns the record that `settle` will get. */
  start(method: string, params: unknown, request: boolean): T;
  /** The host answered it: a result, or the wire error. */
  settle(call: T, answer: { result: unknown } | { error: { code: string; message: string } }): void;
}

/**
 * Wraps the host's end of a channel to observe every call of the app, paired with its answer by id: what a call
 * log, a test recorder or a tracer needs, including the calls `createHost` refused before any handler ran (bad
 * arguments, scope not granted). The channel's own messages (announcements, probes, close) are not calls.
 * @public
 */
export function tapCalls<T>(transport: Transport, observer: CallObserver<T>): Transport {
  const open = new Map<string, T>();
  return {
    send(message) {
      if (isFrame(message) && typeof message.id === 'string' && message.method === undefined) {
        const call = open.get(message.id);
        if (call !== undefined) {
          open.delete(message.id);
          const error = message.error as { code: string; message: string } | undefined;
          observer.settle(
            call,
            error ? { error: { code: error.code, message: error.message } } : { result: message.result },
          );
        }
      }
      return transport.send(message);
    },
    listen(receive) {
      transport.listen((message) => {
        const method = isFrame(message) ? message.method : undefined;
        if (typeof method === 'string' && !Object.values<string>(PEER).includes(method)) {
          const frame = message as { id?: unknown; params?: unknown };
          const request = typeof frame.id === 'string';
          const call = observer.start(method, frame.params, request);
          if (request) open.set(frame.id as string, call);
        }
        receive(message);
      });
    },
    close: () => transport.close(),
  };
}
