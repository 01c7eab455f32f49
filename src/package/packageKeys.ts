import { PackageError } from './PackageError';

/** The signature types of an integrity block, by the attribute name that holds the signer's public key. */
export const KEY_ATTRIBUTES = { ed25519PublicKey: 'ed25519', ecdsaP256SHA256PublicKey: 'ecdsa-p256' } as const;

/** A signature type: Ed25519, or ECDSA over P-256 with SHA-256. @public */
export type SignatureType = (typeof KEY_ATTRIBUTES)[keyof typeof KEY_ATTRIBUTES];

// The fixed DER prefixes of the two SubjectPublicKeyInfo forms (RFC 8410 for Ed25519, RFC 5480 for P-256 with an
// uncompressed point): what `openssl pkey -pubout -outform DER` writes, so ids recomputed with openssl match.
const ED25519_SPKI = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);
const P256_SPKI = Uint8Array.from([
  0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
  0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
]);

// The same P-256 key with its point compressed (33 bytes), as `openssl ec -conv_form compressed` writes it.
const P256_COMPRESSED_SPKI = Uint8Array.from([
  0x30, 0x39, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
  0x3d, 0x03, 0x01, 0x07, 0x03, 0x22, 0x00,
]);

// P-256 (FIPS 186-4, D.1.2.3): y² = x³ - 3x + b over the prime p.
const P = 2n ** 256n - 2n ** 224n + 2n ** 192n + 2n ** 96n - 1n;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

const concat = (...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

const toBigInt = (bytes: Uint8Array) => bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
const toBytes32 = (n: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * (31 - i))) & 0xffn));

function powMod(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
  }
  return result;
}

/**
 * The uncompressed point of a compressed P-256 public key (33 bytes, 02 or 03 then x), which the integrity block
 * carries; WebCrypto's `raw` import of a compressed point is not available in every browser.
 */
function decompressP256(compressed: Uint8Array): Uint8Array {
  const prefix = compressed[0];
  if (compressed.length !== 33 || (prefix !== 2 && prefix !== 3))
    throw new PackageError(
      'bad-key',
      'an ECDSA P-256 public key must be 33 bytes, a compressed point (02 or 03, then x)',
    );
  const x = toBigInt(compressed.subarray(1));
  if (x >= P) throw new PackageError('bad-key', 'the ECDSA P-256 public key is not a point of the curve');
  const rhs = (((x * x * x - 3n * x + B) % P) + P) % P;
  // p ≡ 3 (mod 4), so a square root is rhs^((p+1)/4) when one exists.
  let y = powMod(rhs, (P + 1n) / 4n, P);
  if ((y * y) % P !== rhs) throw new PackageError('bad-key', 'the ECDSA P-256 public key is not a point of the curve');
  if (Number(y & 1n) !== (prefix & 1)) y = P - y;
  return concat(Uint8Array.of(4), toBytes32(x), toBytes32(y));
}

/** Whether `spki` is the SPKI DER encoding of an Ed25519 key or an uncompressed P-256 point, the keys packages hold. */
export const isPackageKeySpki = (spki: Uint8Array): boolean =>
  [ED25519_SPKI, P256_SPKI].some(
    (prefix) =>
      spki.length === prefix.length + (prefix === ED25519_SPKI ? 32 : 65) &&
      prefix.every((byte, i) => spki[i] === byte),
  );

/**
 * An SPKI DER key in the form ids are derived from and keys compared in: a P-256 key whose point is compressed gets
 * its uncompressed point (the same key, in other bytes); any other key is returned as it is.
 * @throws {@link PackageError} `bad-key` when a compressed P-256 point is no curve point.
 * @internal
 */
export function canonicalSpki(spki: Uint8Array): Uint8Array {
  const compressed =
    spki.length === P256_COMPRESSED_SPKI.length + 33 && P256_COMPRESSED_SPKI.every((byte, i) => spki[i] === byte);
  return compressed ? concat(P256_SPKI, decompressP256(spki.subarray(P256_COMPRESSED_SPKI.length))) : spki;
}

/**
 * The SPKI DER encoding of a signer's public key as the integrity block carries it (32 raw bytes for Ed25519, a
 * compressed point for P-256): the bytes its id is derived from.
 * @throws {@link PackageError} `bad-key` when the key has the wrong length or is no curve point.
 */
export function spkiOfSigner(type: SignatureType, key: Uint8Array): Uint8Array {
  if (type === 'ed25519') {
    if (key.length !== 32) throw new PackageError('bad-key', 'an Ed25519 public key must be 32 bytes');
    return concat(ED25519_SPKI, key);
  }
  return concat(P256_SPKI, decompressP256(key));
}

/**
 * An ECDSA signature as WebCrypto wants it (r and s, 32 bytes each) from the DER `SEQUENCE { r INTEGER, s INTEGER }`
 * the integrity block carries (what OpenSSL, and so wbn-sign, writes).
 * @throws {@link PackageError} `bad-signature` when the DER is not exactly that.
 */
function ecdsaDerToRaw(der: Uint8Array): Uint8Array<ArrayBuffer> {
  const fail = () => {
    throw new PackageError('bad-signature', 'an ECDSA signature is not a DER SEQUENCE of two INTEGERs (r, s)');
  };
  if (der[0] !== 0x30 || der[1] !== der.length - 2 || der.length > 72) fail();
  let at = 2;
  const integer = () => {
    const length = der[at + 1] ?? 0;
    if (der[at] !== 0x02 || length < 1 || length > 33 || at + 2 + length > der.length) fail();
    let value = der.subarray(at + 2, at + 2 + length);
    at += 2 + length;
    // DER keeps one leading zero only where the high bit would make the integer negative.
    if (value[0] === 0 && value.length > 1) {
      if ((value[1]! & 0x80) === 0) fail();
      value = value.subarray(1);
    } else if ((value[0]! & 0x80) !== 0) fail();
    if (value.length > 32) fail();
    return concat(new Uint8Array(32 - value.length), value);
  };
  const r = integer();
  const s = integer();
  if (at !== der.length) fail();
  return concat(r, s);
}

/** `bytes` as a fresh ArrayBuffer-backed view (WebCrypto's types refuse a view of a shared buffer). */
export const ownBytes = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);

/** Whether 32 bytes encode an Ed25519 y below p = 2^255 - 19 (little-endian, the top bit being x's sign). */
function isCanonicalY(key: Uint8Array): boolean {
  // y >= p only when its 255 bits are all ones but for the lowest byte, which is 0xed or more.
  if ((key[31]! & 0x7f) !== 0x7f || key[0]! < 0xed) return true;
  return key.subarray(1, 31).some((byte) => byte !== 0xff);
}

/**
 * Verifies one signature with WebCrypto: Ed25519 over the message, or ECDSA P-256 over SHA-256 of the message.
 */
export async function verifySignature(
  type: SignatureType,
  spki: Uint8Array,
  signature: Uint8Array,
  message: Uint8Array,
): Promise<boolean> {
  const { subtle } = globalThis.crypto;
  if (type === 'ed25519') {
    // RFC 8032 (5.1.3) decodes a key whose y is the field prime p = 2^255 - 19 or more as no point, and Java, Go and
    // libsodium refuse it; OpenSSL (so Node and svc's own WebCrypto) reads y mod p, and with the identity written so
    // a signature R = identity, S = 0 verified for any message, without any private key.
    if (!isCanonicalY(spki.subarray(-32))) return false;
    const key = await subtle.importKey('spki', ownBytes(spki), { name: 'Ed25519' }, false, ['verify']);
    return subtle.verify({ name: 'Ed25519' }, key, ownBytes(signature), ownBytes(message));
  }
  const key = await subtle.importKey('spki', ownBytes(spki), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  return subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, ecdsaDerToRaw(signature), ownBytes(message));
}
