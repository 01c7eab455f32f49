/**
 * A 128-bit random id (nonces, call id prefixes). One line instead of nanoid in the client bundle, where every
 * byte counts; `crypto.getRandomValues` exists in every browser, secure context or not, and in Node 20.
 */
export const randomId = (): string => Array.from(crypto.getRandomValues(new Uint32Array(4)), (n) => n.toString(36)).join('');
