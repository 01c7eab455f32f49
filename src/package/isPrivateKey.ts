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

// `-----BEGIN ` in base64, as it reads wherever it starts in the encoded text (at a multiple of 3 bytes, or 1 or 2
// bytes after one): the base64 of a whole key file (`base64 key.pem`, a CI secret), or of a text holding one. Each
// starts a group of four characters, so the text decodes from it (with one or two of the five dashes in the group
// before).
const BASE64_PEM = /LS0tLS1CRUdJTi|LS0tQkVHSU4g|LS0tLUJFR0lO/g;
// The base64 (or base64url) from such a marker on, lines wrapped or not (`base64` wraps at 76 characters, a multiple
// of four, so the groups stay whole without the line breaks).
const BASE64_RUN = /[A-Za-z0-9+/_\r\n-]+/y;

// The start of a PEM, PuTTY or JWK marker in UTF-16 or UTF-32 (either byte order): `-----`, `PuTTY`, `"kty"`.
const WIDE_MARKER = /(?:-\0{1,3}){4}-|P\0{1,3}u\0{1,3}T\0{1,3}T\0{1,3}Y|"\0{1,3}k\0{1,3}t\0{1,3}y/;

/** Whether `text` holds a private key in one of the text forms (PEM, PuTTY, a private JWK). */
const holdsKeyText = (text: string) =>
  PEM_PRIVATE.test(text) || PUTTY_PRIVATE.test(text) || (JWK_TYPE.test(text) && JWK_PRIVATE.test(text));

/**
 * Whether `bytes`, a file or its beginning, holds a private key: in PEM (`-----BEGIN PRIVATE KEY-----`, an RSA, EC,
 * OpenSSH or encrypted one) anywhere in it, as a PuTTY key or a private JSON Web Key, each also saved as UTF-16 or
 * UTF-32 (Windows editors' "Unicode") or as the base64 of a text holding it (`base64 key.pem`), or starting as one in
 * DER (PKCS#8, SEC1 or PKCS#1, what `openssl pkey -outform DER` and KMS exports write). `svc pack` refuses to pack
 * one, and `svc dev` refuses to serve one, since anyone who can load the app's files could read it. A key split into
 * pieces, or encoded some other way, is not found: the rule stays "keep keys out of the app folder".
 * @internal
 */
export function isPrivateKey(bytes: Uint8Array): boolean {
  if (isDerPrivateKey(bytes)) return true;
  // One character a byte, whatever the bytes: the markers are ASCII, and a binary file reads as no marker.
  const text = new TextDecoder('latin1').decode(bytes);
  if (holdsKeyText(text)) return true;
  // UTF-16 and UTF-32 put zero bytes between an ASCII text's characters: without them, the key reads as above (only
  // looked at when a marker's first characters show so, as a large binary file holds many zero bytes).
  if (WIDE_MARKER.test(text) && holdsKeyText(text.replaceAll('\0', ''))) return true;
  return pemsInBase64(text).some((pem) => PEM_PRIVATE.test(pem));
}

/** The texts the base64 in `text` holds from each encoded `-----BEGIN ` on, each starting with the marker. */
function pemsInBase64(text: string): string[] {
  const pems: string[] = [];
  let readUntil = 0;
  for (const marker of text.matchAll(BASE64_PEM)) {
    // A marker inside a run already decoded was looked at with it.
    if (marker.index < readUntil) continue;
    BASE64_RUN.lastIndex = marker.index;
    const run = BASE64_RUN.exec(text)![0];
    readUntil = marker.index + run.length;
    const groups = run
      .replace(/[\r\n]/g, '')
      .replace(/-/g, '+')
      .replace(/_/g, '/');
    // Whole groups of four: a run that ends mid-group still decodes up to there.
    const decoded = atob(groups.slice(0, groups.length & ~3));
    pems.push(`-----${decoded.replace(/^-+/, '')}`);
  }
  return pems;
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
