import { toHex } from '../protocol/bytes';
import type { WebCryptoKey } from '../protocol/WebCryptoKey';
import { canonicalSpki, isPackageKeySpki, ownBytes } from './packageKeys';

/**
 * A key's SPKI DER bytes: the bytes given (a compressed P-256 point made uncompressed, the form ids are derived
 * from), or exported from a `CryptoKey`. `name` says which argument it is, for the error of anything else.
 * @throws TypeError for a value that is neither (a PEM string, a Node `KeyObject`, a private key), bytes that are no
 * Ed25519 or P-256 public key, or a key that cannot be exported.
 * @internal
 */
export async function spkiOf(key: WebCryptoKey | Uint8Array, name: string): Promise<Uint8Array> {
  if (key instanceof Uint8Array) {
    // A corrupt key store's bytes would otherwise match no signer, and go unnoticed until a rotated package is refused.
    // (A compressed P-256 point off the curve is a PackageError, bad-key, from canonicalSpki.)
    const spki = canonicalSpki(key);
    if (!isPackageKeySpki(spki))
      throw new TypeError(
        `${name}: these ${key.length} bytes are no SPKI DER encoding of an Ed25519 or P-256 public key (openssl pkey -pubout -outform DER writes one)`,
      );
    return spki;
  }
  const type = (key as { type?: unknown } | null)?.type;
  if (type !== 'public' || typeof (key as { algorithm?: unknown }).algorithm !== 'object')
    throw new TypeError(
      type === 'private' || type === 'secret'
        ? `${name}: pass a public key; got a ${type} key`
        : `${name}: pass a public CryptoKey or its SPKI DER bytes (a Uint8Array); for a PEM file, decode the base64 between its BEGIN and END lines`,
    );
  // The structural type is what the declarations name; at run time it is a CryptoKey.
  try {
    return new Uint8Array(await globalThis.crypto.subtle.exportKey('spki', key as CryptoKey));
  } catch (error) {
    throw new TypeError(
      `${name}: the key cannot be exported (${(error as Error).message}); make it extractable, or pass its SPKI DER bytes`,
    );
  }
}

/**
 * The svc id of a developer key: the first 16 hex characters of SHA-256 over the public key's SPKI DER encoding.
 * Anyone can recompute it: `openssl pkey -in key.pem -pubout -outform DER | sha256sum | cut -c1-16`.
 *
 * @remarks
 * 64 bits name an app; they do not prove who owns it (finding a key for a given id costs about 2^64 tries). The store
 * binds an id to the key of its first upload, and a client trusts the store's record of that key.
 * @param publicKey - a public `CryptoKey` (Ed25519 or ECDSA P-256, extractable), or its SPKI DER bytes (a P-256 point
 *   compressed or not: the id is over the uncompressed one, as `openssl pkey -pubout` writes it).
 * @example
 * ```ts
 * const { publicKey } = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
 * await derivePackageId(publicKey); // '3f1c0a9b7d2e4c68'
 * ```
 * @public
 */
export async function derivePackageId(publicKey: WebCryptoKey | Uint8Array): Promise<string> {
  const spki = await spkiOf(publicKey, 'derivePackageId()');
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', ownBytes(spki)));
  return toHex(digest.subarray(0, 8));
}
