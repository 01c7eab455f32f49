/**
 * A 128-bit random id (nonces, call id prefixes, invocation ids): four random 32-bit numbers in decimal. One line,
 * where nanoid 5 would cost client bytes and, being ESM-only, break CommonJS consumers; `crypto.getRandomValues`
 * exists in every browser, secure context or not (unlike `crypto.randomUUID`), and in Node 20.
 */
export const randomId = (): string => crypto.getRandomValues(new Uint32Array(4)).join('');
