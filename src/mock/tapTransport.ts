import { isFrame, PEER } from '../protocol/frames';
import type { Transport } from '../rpc/Transport';
import type { MockCall } from './types';

/**
 * Wraps the host's end of the channel to record every call from the app, with its outcome.
 *
 * @remarks
 * `createHost`'s `onCall` hook sees a call before its checks but not how it ended; tapping the frames instead pairs
 * each request with its answer by id, so a recorded call also shows the `ERR_SCOPE_NOT_GRANTED` or
 * `ERR_INVALID_ARGUMENT` that `createHost` answered without running a handler.
 */
export function tapTransport(transport: Transport, calls: MockCall[]): Transport {
  const open = new Map<string, MockCall>();
  return {
    send(message) {
      if (isFrame(message) && typeof message.id == 'string' && message.method === undefined) {
        const call = open.get(message.id);
        if (call) {
          open.delete(message.id);
          const error = message.error as { code: string; message: string } | undefined;
          if (error) call.error = { code: error.code, message: error.message };
          else call.result = message.result;
        }
      }
      return transport.send(message);
    },
    listen(receive) {
      transport.listen((message) => {
        // The app's calls only: the channel's own messages (handler announcements, probes, close) are not calls.
        if (
          isFrame(message) &&
          typeof message.method == 'string' &&
          !Object.values<string>(PEER).includes(message.method)
        ) {
          const call: MockCall = { method: message.method, params: message.params, at: Date.now() };
          calls.push(call);
          if (typeof message.id == 'string') open.set(message.id, call);
        }
        receive(message);
      });
    },
    close: () => transport.close(),
  };
}
