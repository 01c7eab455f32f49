import { tapCalls } from '../host/tapCalls';
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
  return tapCalls<MockCall>(transport, {
    start(method, params) {
      const call: MockCall = { method, params, at: Date.now() };
      calls.push(call);
      return call;
    },
    settle: (call, answer) => Object.assign(call, answer),
  });
}
