import type { Transport } from './Transport';

/**
 * The name of the function a native host calls to deliver a message to the app: `globalThis.__svc_receive(json)`.
 * @public
 */
export const NATIVE_RECEIVE = '__svc_receive';

// Native bridges carry strings, so Blobs travel as { $blob: base64, type }.
async function encode(value: unknown): Promise<unknown> {
  if (typeof Blob != 'undefined' && value instanceof Blob) {
    const bytes = new Uint8Array(await value.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { $blob: btoa(binary), type: value.type };
  }
  if (Array.isArray(value)) return Promise.all(value.map(encode));
  if (value && typeof value == 'object')
    // fromEntries defines own properties, so a '__proto__' key stays data instead of replacing a prototype.
    return Object.fromEntries(await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await encode(v)])));
  return value;
}

function revive(_key: string, value: any): unknown {
  if (value && typeof value.$blob == 'string') {
    const binary = atob(value.$blob);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new Blob([bytes], { type: String(value.type ?? '') });
  }
  return value;
}

/**
 * A transport over a native WebView bridge: `post` hands a JSON string to native code (iOS
 * `webkit.messageHandlers.svc.postMessage`, Android `svcAndroid.postMessage`), and native code calls
 * `globalThis.__svc_receive(json)` to answer.
 * @public
 */
export function nativeTransport(
  post: (json: string) => void,
  scope: Record<string, unknown> = globalThis as any,
): Transport {
  return {
    send: (message) => encode(message).then((m) => post(JSON.stringify(m))),
    listen(receive) {
      scope[NATIVE_RECEIVE] = (json: unknown) => {
        try {
          receive(typeof json == 'string' ? JSON.parse(json, revive) : json);
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
