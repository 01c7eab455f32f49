/**
 * Whether a file whose first bytes are `head` is a private key in PEM (`-----BEGIN PRIVATE KEY-----`, or an RSA, EC
 * or encrypted one): `svc pack` refuses to pack one, and `svc dev` refuses to serve one, since anyone who can load
 * the app's files could read it.
 * @internal
 */
export function isPrivateKey(head: Uint8Array): boolean {
  return Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, 64))
    .toString('latin1')
    .includes('PRIVATE KEY-----');
}
