/**
 * Whether a file whose first bytes are `head` is a private key in PEM (`-----BEGIN PRIVATE KEY-----`, or an RSA, EC
 * or encrypted one): `svc pack` refuses to pack one, and `svc dev` refuses to serve one, since anyone who can load
 * the app's files could read it.
 * @internal
 */
export function isPrivateKey(head: Uint8Array): boolean {
  // One byte a character, whatever the bytes: the marker is ASCII, and a binary file reads as no marker.
  return new TextDecoder('latin1').decode(head.subarray(0, 64)).includes('PRIVATE KEY-----');
}
