const encoder = new TextEncoder();
// Importing a key costs more than the HMAC of a small body; secrets are few, so keep their keys (non-extractable
// CryptoKeys: the secret's bytes are not kept). The resolved key is returned as is, saving a tick per check.
const keys = new Map<string, CryptoKey>();

/** The Web Crypto HMAC-SHA256 key of a secret, imported once. */
export function hmacKey(secret: string): CryptoKey | Promise<CryptoKey> {
  const known = keys.get(secret);
  if (known) return known;
  return crypto.subtle
    .importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
    .then((key) => {
      if (keys.size >= 32) keys.clear();
      keys.set(secret, key);
      return key;
    });
}

/**
 * The signing base `v0:<timestamp>:<raw body>` as bytes. A text body is encoded once with the prefix; bytes are
 * copied as they are, never decoded (a decode-encode round trip would change invalid UTF-8).
 */
export function signingBase(timestamp: number | string, body: Uint8Array | string): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return encoder.encode(`v0:${timestamp}:${body}`);
  const prefix = encoder.encode(`v0:${timestamp}:`);
  const base = new Uint8Array(prefix.length + body.length);
  base.set(prefix);
  base.set(body, prefix.length);
  return base;
}

/** Bytes of a lowercase hex string (the signature's only form), or undefined when it is not 64 lowercase hex digits. */
export function fromHex32(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[0-9a-f]{64}$/.test(hex)) return undefined;
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}
