import { nativeTransport } from '../rpc/nativeTransport';

/** The global a native host's adapter installs, and the client adopts as its channel. */
export const NATIVE_PORT = '__svc_port';

/**
 * A MessagePort-shaped object over a native WebView bridge, as the client expects to find it at
 * `globalThis.__svc_port`.
 * @public
 */
export interface NativePort {
  /** Sends a frame to native code. */
  postMessage(message: unknown): void;
  /** Receives frames from native code. */
  onmessage: ((event: { data: unknown }) => void) | null;
  /** Stops delivery. */
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
 * @returns Whether a native bridge was found.
 * @public
 */
export function installNativePort(scope: any = globalThis): boolean {
  const ios = scope.webkit?.messageHandlers?.svc;
  const android = scope.svcAndroid;
  if (!ios && !android) return false;
  const transport = nativeTransport((json) => (ios ?? android).postMessage(json), scope);
  let handler: NativePort['onmessage'] = null;
  const port: NativePort = {
    postMessage: (message) => void transport.send(message),
    get onmessage() {
      return handler;
    },
    set onmessage(fn) {
      handler = fn;
      transport.listen((data) => handler?.({ data }));
    },
    close: () => transport.close(),
  };
  scope[NATIVE_PORT] = port;
  return true;
}
