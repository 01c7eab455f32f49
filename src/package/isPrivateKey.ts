// Any PEM private key: PKCS#8 (`PRIVATE KEY`), RSA, EC, DSA, `ENCRYPTED` and `OPENSSH` ones. Looked for anywhere in
// the file, not at its start: `openssl pkcs12 -nodes` writes "Bag Attributes" lines before the marker, and editors
// and people add comments and blank lines. The marker must begin a key: a line break, header lines (`Proc-Type:`,
// `DEK-Info:`) and a line of base64 after it. A library that writes keys (jsencrypt) holds the marker as text in its
// code, followed by a quote, not by a key.
const PEM_PRIVATE = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----\r?\n(?:[A-Za-z-]+:[^\n]*\n)*\r?\n?[A-Za-z0-9+/=]{24,}/;
// A PuTTY key file, and a JSON Web Key with its private part (`d`), in any member order.
const PUTTY_PRIVATE = /^PuTTY-User-Key-File-\d+: /m;
const JWK_TYPE = /"kty"\s*:\s*"(?:OKP|EC|RSA)"/;
const JWK_PRIVATE = /"d"\s*:\s*"[A-Za-z0-9_-]{16,}"/;

/**
 * Whether `bytes`, a file or its beginning, holds a private key: in PEM (`-----BEGIN PRIVATE KEY-----`, an RSA, EC,
 * OpenSSH or encrypted one) anywhere in it, as a PuTTY key or a private JSON Web Key, or starting as one in DER
 * (PKCS#8, SEC1 or PKCS#1, what `openssl pkey -outform DER` and KMS exports write). `svc pack` refuses to pack one,
 * and `svc dev` refuses to serve one, since anyone who can load the app's files could read it.
 * @internal
 */
export function isPrivateKey(bytes: Uint8Array): boolean {
  if (isDerPrivateKey(bytes)) return true;
  // One character a byte, whatever the bytes: the markers are ASCII, and a binary file reads as no marker.
  const text = new TextDecoder('latin1').decode(bytes);
  return PEM_PRIVATE.test(text) || PUTTY_PRIVATE.test(text) || (JWK_TYPE.test(text) && JWK_PRIVATE.test(text));
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
