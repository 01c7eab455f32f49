import { isPlain } from './shape';

/** The wire version every frame carries; frames of any other version are foreign traffic and dropped. */
export const WIRE = 1;

/**
 * The version of the contract between the native adapter (`dist/native-adapter.js`), the client and native hosts:
 * the port's shape, frame order, the Blob encoding, the hello and (since 3) the per-launch secret every message
 * carries. The client refuses a port of another version, so an app that ships an adapter from another SDK release
 * fails with a message that says so instead of misbehaving.
 * @public
 */
export const NATIVE_CONTRACT = 3;

/**
 * The bridge version this SDK speaks; `svc.version` when no host says otherwise.
 * @public
 */
export const BRIDGE_VERSION = '1.0';

/** The host's answer to a hello, sent to the app's exact origin with the channel's port. */
export interface WelcomeMessage {
  svc: 'welcome';
  wire: typeof WIRE;
  nonce: string;
  snapshot?: unknown;
}

/**
 * Operations of the channel itself: those the host calls on the app, the app's handler announcement, and
 * housekeeping. The app's calls to the host are the registry's (`methods.ts`); the params of these are in
 * `peerMethods.ts` (`toApp`, `toHost`).
 */
export const PEER = {
  /** host to app, request `{ invocation, name, input, context }`: run an action's handler. */
  invoke: 'actions.invoke',
  /** host to app, notification `{ theme }`. */
  theme: 'app.themeChanged',
  /** host to app, notification `{ invocation }`: the invoker cancelled it; the handler's `signal` aborts. */
  cancel: 'actions.cancel',
  /** app to host, notification `{ names }`: the actions the app has handlers for now (sent on every change). */
  handlers: 'actions.handlers',
  /** either way, request `{}`: a liveness probe; any answer (an error too) means the other side is there. */
  ping: 'rpc.ping',
  /** either way, notification `{}`: this side is going away; reject everything pending. */
  close: 'rpc.close',
} as const;

/**
 * A wire name of {@link PEER}. The browser client's files write these names out as literals, each checked against
 * this type (`'rpc.ping' satisfies PeerMethod`): an object's property names survive minification, and the literals
 * cost the client's budget 40 bytes brotli less.
 */
export type PeerMethod = (typeof PEER)[keyof typeof PEER];

/** Whether `m` is a frame of this wire version (a cheap guard that drops foreign traffic). */
export function isFrame(m: unknown): m is Record<string, unknown> {
  return isPlain(m) && m.svc === WIRE;
}
