import { NATIVE_CONTRACT, WIRE } from '../protocol/frames';
import { nativeTransport } from '../rpc/nativeTransport';

/** The global a native host's adapter installs, and the client adopts as its channel. */
export const NATIVE_PORT = '__svc_port';

/**
 * The global a native host sets to the launch's secret, in its top-frame document-start script before
 * `native-adapter.js`, which takes it and deletes it (PROTOCOL.md, "The per-launch secret").
 * @public
 */
export const NATIVE_SECRET = '__svc_secret';

export { NATIVE_CONTRACT };

// Hex or base64url, so it sits in a JSON string without escapes; 32 characters carry at least 128 bits.
const SECRET_SHAPE = /^[\w-]{32,512}$/;

/** What the adapter reads of the WebView's global scope: the bridge the platform installed, and its own names. */
interface NativeBridge {
  postMessage(message: string): void;
}
interface NativeScope {
  webkit?: { messageHandlers?: { svc?: NativeBridge } };
  svcAndroid?: NativeBridge;
  top?: unknown;
  [name: string]: unknown;
}

function hide(owner: object, name: string) {
  try {
    Object.defineProperty(owner, name, { value: undefined });
  } catch {
    // A name the engine keeps: the secret alone guards the bridge there.
  }
}

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
 * `webkit.messageHandlers.svc`, or the Android object `svcAndroid`. Native code answers by calling
 * `globalThis.__svc_receive(json)`.
 *
 * @remarks
 * Native hosts inject `dist/native-adapter.js` (which calls this) at document start, into the top frame only, after
 * the launch snapshot and the launch's secret (`globalThis.__svc_secret`), so the app's bundle carries no native
 * code: the client only adopts the port it finds.
 *
 * A WebView hands its bridge to every frame of the page, a sandboxed iframe of the app's own origin included, and
 * does not always tell native code which frame posted. So the adapter takes the secret and the bridge's
 * `postMessage` at document start, deletes `__svc_secret`, hides the handler from the page where the engine allows
 * it, keeps both in a closure, and sends every frame as `{"secret":"<secret>","frame":"<frame JSON>"}`: native code
 * drops any message without the launch's secret.
 *
 * `__svc_receive` exists from document start; frames delivered before the app's client listens are kept for it.
 * Each time the client opens a channel (its first call, or again after it closed one), the adapter sends native
 * code `{"svc":"hello","wire":1,"adapter":3}` first: a hello after the first one on the same WebView means a new
 * channel (a reload, or the app's client reconnected), so the host fails what it had pending and starts afresh.
 * @returns Whether a native bridge was found (never in a child frame: the bridge is the top frame's).
 * @throws Error when a bridge is found but the host set no valid secret: the message says what to set.
 * @public
 */
export function installNativePort(scope: object = globalThis): boolean {
  const page = scope as NativeScope;
  const secret = page[NATIVE_SECRET];
  delete page[NATIVE_SECRET];
  const handlers = page.webkit?.messageHandlers;
  const bridge = handlers?.svc ?? page.svcAndroid;
  // Android injects document-start scripts into every frame of the app's origin; only the top frame is the app.
  if (!bridge || (page.top != null && page.top !== scope)) return false;
  if (typeof secret !== 'string' || !SECRET_SHAPE.test(secret))
    throw new Error(
      `native-adapter.js: no per-launch secret. Set globalThis.${NATIVE_SECRET} to 32 to 512 random characters ` +
        '(A-Z, a-z, 0-9, _ or -) in the top-frame document-start script, before native-adapter.js, and drop every ' +
        'message that does not carry it (PROTOCOL.md, "The per-launch secret").',
    );
  // Bound now, so a later script that replaces the handler's postMessage neither sees nor stops the frames.
  const post: (message: string) => void = bridge.postMessage.bind(bridge);
  // And hidden from the page's later scripts where the engine allows it: they have `svc`. WebKit may give it back
  // when it rebuilds `messageHandlers`, so the secret, not the hiding, is what guards the bridge.
  if (handlers?.svc === bridge) hide(handlers, 'svc');
  else hide(page, 'svcAndroid');
  // Written around the frame's JSON rather than stringified whole, so JSON.stringify (which a later script can
  // replace) never holds the secret.
  const transport = nativeTransport((json) => post(`{"secret":"${secret}","frame":${JSON.stringify(json)}}`), page);
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
  page[NATIVE_PORT] = port;
  return true;
}
