import { ownBytes } from './packageKeys';

/**
 * The svc id of a developer key: the first 16 hex characters of SHA-256 over the public key's SPKI DER encoding.
 * Anyone can recompute it: `openssl pkey -in key.pem -pubout -outform DER | sha256sum | cut -c1-16`.
 *
 * @remarks
 * 64 bits name an app; they do not prove who owns it (finding a key for a given id costs about 2^64 tries). The store
 * binds an id to the key of its first upload, and a client trusts the store's record of that key.
 * @param publicKey - a public `CryptoKey` (Ed25519 or ECDSA P-256, extractable), or its SPKI DER bytes.
 * @example
 * ```ts
 * const { publicKey } = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
 * await derivePackageId(publicKey); // '3f1c0a9b7d2e4c68'
 * ```
 * @public
 */
export async function derivePackageId(publicKey: CryptoKey | Uint8Array): Promise<string> {
  const { subtle } = globalThis.crypto;
  let spki: Uint8Array;
  if (publicKey instanceof Uint8Array) spki = publicKey;
  else {
    if (publicKey.type !== 'public')
      throw new TypeError(`derivePackageId(): pass a public key; got a ${publicKey.type} key`);
    spki = new Uint8Array(await subtle.exportKey('spki', publicKey));
  }
  const digest = new Uint8Array(await subtle.digest('SHA-256', ownBytes(spki)));
  return Array.from(digest.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
}
