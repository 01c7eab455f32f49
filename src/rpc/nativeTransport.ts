import type { Transport } from './Transport';

/**
 * The name of the function a native host calls to deliver a message to the app: `globalThis.__svc_receive(json)`.
 * @public
 */
export const NATIVE_RECEIVE = '__svc_receive';

// Native bridges carry strings, so a Blob travels as { $blob: base64, type }. A plain object that has a `$blob` or
// `$esc` key of its own (a stored value, an action's input) is wrapped as { $esc: object }, so a look-alike comes
// back as the object it was, never as a Blob.
const escaped = (value: object) => Object.hasOwn(value, '$blob') || Object.hasOwn(value, '$esc');

async function encode(value: unknown): Promise<unknown> {
  if (typeof Blob !== 'undefined' && value instanceof Blob) {
    const bytes = new Uint8Array(await value.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { $blob: btoa(binary), type: value.type };
  }
  if (Array.isArray(value)) return Promise.all(value.map(encode));
  if (value && typeof value === 'object') {
    // fromEntries defines own properties, so a '__proto__' key stays data instead of replacing a prototype.
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await encode(v)]));
    const object = Object.fromEntries(entries);
    return escaped(value) ? { $esc: object } : object;
  }
  return value;
}

/** The value a frame's JSON stood for: Blobs rebuilt, escaped objects unwrapped (top down, so an escape holds). */
function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (!value || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  if (typeof object.$blob === 'string') {
    const binary = atob(object.$blob);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new Blob([bytes], { type: String(object.type ?? '') });
  }
  const fields = Object.hasOwn(object, '$esc') && object.$esc && typeof object.$esc === 'object' ? object.$esc : object;
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, decode(v)]));
}

/**
 * A transport over a native WebView bridge, for either end. In the app's WebView (the client does this itself):
 * `post` hands a JSON string to native code (iOS `webkit.messageHandlers.svc.postMessage`, Android
 * `svcAndroid.postMessage`), and native code calls `globalThis.__svc_receive(json)` to answer. On the host's side,
 * beside the WebView (`createHost({ transport: nativeTransport(post, scope) })`): `post` delivers a frame's JSON to
 * the page (`__svc_receive(<JSON string literal>)` evaluated in it), and the host calls `scope.__svc_receive(frame)`
 * with each frame that arrived in an envelope carrying the launch's secret (docs/hosts.md, "A native WebView host").
 * @param post - sends one frame's JSON text to the other end.
 * @param scope - where the receiver is put as `__svc_receive`: `globalThis` in the app, an object of the host's own
 * beside the WebView.
 *
 * @remarks
 * Frames leave in the order they were sent, although encoding a Blob is asynchronous: each send waits for the one
 * before it. In the app's WebView, `native-adapter.js` wraps each JSON string in the launch's envelope
 * (`{"secret":…,"frame":…}`) before it reaches the bridge; native code unwraps it. Blobs travel as `{ "$blob": base64, "type": mime }`; an object with its own `$blob` or `$esc` key
 * travels as `{ "$esc": object }` (PROTOCOL.md, "Native bridges").
 * @public
 */
export function nativeTransport(
  post: (json: string) => void,
  scope: Record<string, unknown> = globalThis as unknown as Record<string, unknown>,
): Transport {
  let last: Promise<unknown> = Promise.resolve();
  return {
    send(message) {
      const sent = last.then(() => encode(message)).then((m) => post(JSON.stringify(m)));
      // A frame that cannot be sent rejects its own call, and does not hold up the frames after it.
      last = sent.catch(() => {});
      return sent;
    },
    listen(receive) {
      scope[NATIVE_RECEIVE] = (json: unknown) => {
        try {
          receive(decode(typeof json === 'string' ? JSON.parse(json) : json));
        } catch {
          // Malformed JSON from the bridge is dropped like any other malformed frame.
        }
      };
    },
    close() {
      delete scope[NATIVE_RECEIVE];
    },
  };
}
