import { NATIVE_CONTRACT, WIRE } from '../protocol/frames';
import { nativeTransport } from '../rpc/nativeTransport';

/** The global a native host's adapter installs, and the client adopts as its channel. */
export const NATIVE_PORT = '__svc_port';

export { NATIVE_CONTRACT };

/**
 * A MessagePort-shaped object over a native WebView bridge, as the client expects to find it at
 * `globalThis.__svc_port`.
 * @public
 */
export interface NativePort {
  /** The adapter's contract version ({@link NATIVE_CONTRACT}). */
  readonly version: number;
  /** Sends a frame to native code; frames leave in the order they were posted. */
  postMessage(message: unknown): Promise<void>;
  /** Receives frames from native code. Setting it opens a channel: the adapter says hello to native code. */
  onmessage: ((event: { data: unknown }) => void) | null;
  /** Stops delivery until `onmessage` is set again. */
  close(): void;
}

/**
 * Installs `globalThis.__svc_port` over the native bridge found in this WebView: iOS
 * `webkit.messageHandlers.svc`, or the Android JavaScript interface `svcAndroid`. Native code answers by calling
 * `globalThis.__svc_receive(json)`.
 *
 * @remarks
 * Native hosts inject `dist/native-adapter.js` (which calls this) at document start, with the launch snapshot, so
 * the app's bundle carries no native code: the client only adopts the port it finds.
 *
 * `__svc_receive` exists from document start; frames delivered before the app's client listens are kept for it.
 * Each time the client opens a channel (its first call, or again after it closed one), the adapter sends native
 * code `{"svc":"hello","wire":1,"adapter":2}` first: a hello after the first one on the same WebView means a new
 * channel (a reload, or the app's client reconnected), so the host fails what it had pending and starts afresh.
 * @returns Whether a native bridge was found.
 * @public
 */
export function installNativePort(scope: any = globalThis): boolean {
  const ios = scope.webkit?.messageHandlers?.svc;
  const android = scope.svcAndroid;
  if (!ios && !android) return false;
  const transport = nativeTransport((json) => (ios ?? android).postMessage(json), scope);
  let handler: NativePort['onmessage'] = null;
  // Frames that arrive before the client first listens wait for it; once a channel has closed, its frames are dropped.
  let early: unknown[] | undefined = [];
  transport.listen((data) => (handler ? handler({ data }) : early?.push(data)));
  const port: NativePort = {
    version: NATIVE_CONTRACT,
    postMessage: (message) => transport.send(message) as Promise<void>,
    get onmessage() {
      return handler;
    },
    set onmessage(fn) {
      handler = fn;
      if (!fn) return;
      // A bridge that refuses the hello refuses the calls after it too; those report it.
      (transport.send({ svc: 'hello', wire: WIRE, adapter: NATIVE_CONTRACT }) as Promise<void>).catch(() => {});
      const waiting = early ?? [];
      early = undefined;
      for (const data of waiting) fn({ data });
    },
    close: () => {
      handler = null;
    },
  };
  scope[NATIVE_PORT] = port;
  return true;
}
