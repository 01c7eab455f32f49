import { isPlain } from './shape';
import type { WireError } from './SvcError';

/** The wire version every frame carries; frames of any other version are foreign traffic and dropped. */
export const WIRE = 1;

/**
 * The bridge version this SDK speaks; `svc.version` when no host says otherwise.
 * @public
 */
export const BRIDGE_VERSION = '1.0';

/** A call that wants an answer. */
export interface RequestFrame {
  svc: typeof WIRE;
  id: string;
  method: string;
  params: unknown;
}
/** The answer to a request: `result`, or `error`. */
export interface ResponseFrame {
  svc: typeof WIRE;
  id: string;
  result?: unknown;
  error?: WireError;
}
/** A message that wants no answer. */
export interface NotificationFrame {
  svc: typeof WIRE;
  method: string;
  params: unknown;
}
/** Anything that travels on an established channel. */
export type Frame = RequestFrame | ResponseFrame | NotificationFrame;

/** The app's first message to its parent window (carries nothing but a nonce). */
export interface HelloMessage {
  svc: 'hello';
  wire: typeof WIRE;
  nonce: string;
}
/** The host's answer to a hello, sent to the app's exact origin with the channel's port. */
export interface WelcomeMessage {
  svc: 'welcome';
  wire: typeof WIRE;
  nonce: string;
  snapshot?: unknown;
}

/**
 * Operations the host calls on the app, and channel housekeeping. App-to-host operations are the registry's.
 */
export const PEER = {
  /** host to app, request `{ invocation, name, input, context }`: run an action's handler. */
  invoke: 'actions.invoke',
  /** host to app, notification `{ theme }`. */
  theme: 'app.themeChanged',
  /** either way, notification `{}`: this side is going away; reject everything pending. */
  close: 'rpc.close',
} as const;

/** Whether `m` is a frame of this wire version (a cheap guard that drops foreign traffic). */
export function isFrame(m: unknown): m is Record<string, unknown> {
  return isPlain(m) && m.svc === WIRE;
}
