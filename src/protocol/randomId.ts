/**
 * A 128-bit random id (nonces, call id prefixes, invocation ids). One line, where nanoid 5 would cost client bytes
 * and, being ESM-only, break CommonJS consumers; `crypto.getRandomValues` exists in every browser, secure context
 * or not, and in Node 20.
 */
export const randomId = (): string =>
  Array.from(crypto.getRandomValues(new Uint32Array(4)), (n) => n.toString(36)).join('');
