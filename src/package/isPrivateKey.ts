/**
 * Whether a file whose first bytes are `head` (64 are enough) is a private key: in PEM (`-----BEGIN PRIVATE
 * KEY-----`, or an RSA, EC or encrypted one), or in DER (PKCS#8, SEC1 or PKCS#1, what `openssl pkey -outform DER`
 * and KMS exports write). `svc pack` refuses to pack one, and `svc dev` refuses to serve one, since anyone who can
 * load the app's files could read it.
 * @internal
 */
export function isPrivateKey(head: Uint8Array): boolean {
  // One byte a character, whatever the bytes: the marker is ASCII, and a binary file reads as no marker.
  return new TextDecoder('latin1').decode(head.subarray(0, 64)).includes('PRIVATE KEY-----') || isDerPrivateKey(head);
}

/**
 * Whether `head` starts as a private key in DER: a SEQUENCE whose first element is the version (INTEGER 0 or 1),
 * then, for PKCS#8, the algorithm (a SEQUENCE starting with its OID); for SEC1 (EC), the key (an OCTET STRING); for
 * PKCS#1 (RSA), the modulus (a long INTEGER). A certificate or a public key starts with a SEQUENCE there instead.
 */
function isDerPrivateKey(head: Uint8Array): boolean {
  if (head[0] !== 0x30) return false;
  // The outer SEQUENCE's length is one byte, or 0x81 / 0x82 and one or two more.
  const at = head[1]! < 0x80 ? 2 : head[1] === 0x81 ? 3 : head[1] === 0x82 ? 4 : -1;
  if (at < 0 || head[at] !== 0x02 || head[at + 1] !== 0x01) return false;
  const version = head[at + 2];
  const next = head[at + 3];
  if (next === 0x30) return (version === 0 || version === 1) && head[at + 5] === 0x06;
  if (next === 0x04) return version === 1;
  return next === 0x02 && version === 0 && (head[at + 4] === 0x81 || head[at + 4] === 0x82);
}
