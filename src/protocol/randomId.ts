/**
 * A 128-bit random id (the host's invocation ids, the mock's token ids): four random 32-bit numbers in decimal. One
 * line, where nanoid 5 would cost bytes and, being ESM-only, break CommonJS consumers; `crypto.getRandomValues`
 * exists in every browser, secure context or not (unlike `crypto.randomUUID`), and in Node 20. The browser client's
 * hello nonce and endpoint prefix use `Math.random` instead: nothing depends on guessing them, and WebKit's first
 * `crypto.getRandomValues` costs 0.4 ms of an app's first call.
 */
export const randomId = (): string => crypto.getRandomValues(new Uint32Array(4)).join('');
