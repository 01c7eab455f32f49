// What stands between a PEM key's lines where a key is pasted: a line break, as it is, escaped in a string or a JSON
// file (`\n`, `\u000a`, `\u{a}`, `\\n` in JSON inside JSON: a Google service account's `private_key`), continued with
// a `\`, as an HTML entity (`&#10;`, `&#x0A;`, `&NewLine;`, the `;` left off as browsers allow) or URL-encoded, an HTML
// `<br>`, the spaces of an indented YAML block, a Markdown quote's `>`, a comment's `#`, `//`, ` * `, `;` or `--`, the
// quotes and commas of an array of lines, the `+` or `.` joining string literals (JavaScript, Java, PHP). At most
// 256 of them (an indented line's spaces count one each): unbounded, a text of millions overflowed the stack of the
// regular expression (as `{60,}` over a long run of base64 did: written `{60}…*`, it does not).
const PEM_BREAK = String.raw`(?:\r|\n|\\+r|\\+n|\\u000[aAdD]|\\u\{0*[aAdD]\}|&#0*1[03];?|&#x0*[aAdD];?|&NewLine;|%0[aAdD]|[ \t>#/"'\x60,*;+.\\-]|<br\s*/?>){0,256}`;
// Any PEM private key: PKCS#8 (`PRIVATE KEY`), RSA, EC, DSA, `ENCRYPTED` and `OPENSSH` ones. Looked for anywhere in
// the file, not at its start: `openssl pkcs12 -nodes` writes "Bag Attributes" lines before the marker, and editors
// and people add comments and blank lines. A PGP private key block too. The marker must begin a key: header lines
// (`Proc-Type:`, `DEK-Info:`, `Version:`) may follow, then a line of base64 (60 characters at least: a PEM line holds
// 64, and a shortened example in a document, `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC...`, is no key). A library that
// writes keys (jsencrypt) holds the marker as text in its code, followed by `\n"`, a quote, not by a key.
const PEM_PRIVATE = new RegExp(
  `-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----${PEM_BREAK}(?:[A-Za-z-]+:[^\\n\\\\]*${PEM_BREAK})*[A-Za-z0-9+/=]{60}[A-Za-z0-9+/=]*`,
);
// A PuTTY key file, and a JSON Web Key with its private part (`d`), in any member order.
const PUTTY_PRIVATE = /^PuTTY-User-Key-File-\d+: /m;
// Its member names quoted or not (a JavaScript object literal: `{ kty: 'OKP', d: '…' }`).
const JWK_TYPE = /["']?\bkty["']?\s*:\s*["'](?:OKP|EC|RSA)["']/;
const JWK_PRIVATE = /["']?\bd["']?\s*:\s*["'][A-Za-z0-9_-]{16}[A-Za-z0-9_-]*["']/;

/** Whether `text` holds a private key in one of the text forms (PEM, PuTTY, a private JWK). */
const holdsKeyText = (text: string) =>
  PEM_PRIVATE.test(text) || PUTTY_PRIVATE.test(text) || (JWK_TYPE.test(text) && JWK_PRIVATE.test(text));

// The start of a PEM, PuTTY or JWK marker in UTF-16 or UTF-32 (either byte order): `-----`, `PuTTY`, `"kty"`.
const WIDE_MARKER = /(?:-\0{1,3}){4}-|P\0{1,3}u\0{1,3}T\0{1,3}T\0{1,3}Y|"\0{1,3}k\0{1,3}t\0{1,3}y/;

/**
 * Each text form's marker as it reads in base64 wherever it starts in the encoded text (at a multiple of 3 bytes, or
 * 1 or 2 bytes after one): the whole groups of four characters that only the marker's own bytes make. A marker only
 * says where to decode: what is decoded must then be a key.
 */
const BASE64_MARKERS = new RegExp(
  ['-----BEGIN ', 'PuTTY-User-Key-File-', '"kty"']
    .flatMap((marker) =>
      [0, 1, 2].map((pad) =>
        btoa('x'.repeat(pad) + marker).slice(pad ? 4 : 0, Math.floor((pad + marker.length) / 3) * 4),
      ),
    )
    .join('|'),
  'g',
);
const BASE64_CHARACTER = /[A-Za-z0-9+/_-]/;
// A run of base64 as long as the shortest DER key's (an Ed25519 or X25519 PKCS#8 key: 48 bytes, 64 characters), each
// DER key starting with `M` (its SEQUENCE), at the run's start or up to three characters later.
const BASE64_RUN = /[A-Za-z0-9+/_-]{64}[A-Za-z0-9+/_-]*/g;

/**
 * Whether `bytes`, a file or its beginning, holds a private key: in PEM (`-----BEGIN PRIVATE KEY-----`, an RSA, EC,
 * OpenSSH or encrypted one) anywhere in it, its lines broken as they are or escaped in a string, as a PuTTY key or a
 * private JSON Web Key, each also saved as UTF-16 or UTF-32 (Windows editors' "Unicode") or as the base64 of a text
 * holding it (`base64 key.pem`, wrapped or not), or in DER (PKCS#8 of any algorithm, SEC1, PKCS#1 or PKCS#12: what
 * `openssl pkey -outform DER` and KMS exports write), as it is at the file's start or in base64 anywhere (a PEM body
 * without its lines, `base64 cert.p12`). `svc pack` refuses to pack one, and `svc dev` refuses to serve one, since
 * anyone who can load the app's files could read it. A key split into pieces, or encoded some other way, is not
 * found: the rule stays "keep keys out of the app folder".
 * @internal
 */
export function isPrivateKey(bytes: Uint8Array, inBase64 = false): boolean {
  if (isDerPrivateKey(bytes)) return true;
  // One character a byte, whatever the bytes: the markers are ASCII, and a binary file reads as no marker.
  const text = new TextDecoder('latin1').decode(bytes);
  if (holdsKeyText(text)) return true;
  // UTF-16 and UTF-32 put zero bytes between an ASCII text's characters: without them, the key reads as above (only
  // looked at when a marker's first characters show so, as a large binary file holds many zero bytes).
  if (WIDE_MARKER.test(text) && holdsKeyText(text.replaceAll('\0', ''))) return true;
  if (inBase64) return false;
  // The base64 of a key, decoded and looked at again (once: no key hides in base64 of base64 by accident).
  const joined = joinBase64Lines(text);
  return holdsDerInBase64(joined) || base64Around(joined).some((decoded) => isPrivateKey(decoded, true));
}

/**
 * `text` with the breaks of wrapped base64 taken out: line breaks as they are or escaped in a string (`\n`), with the
 * indentation of the line after them (a YAML block, an indented file), so that each wrapped text is one run of base64
 * (`base64` wraps at 76 characters, a multiple of four, so the groups stay whole). A PEM-style armor line
 * (`certutil -encode` puts the base64 of a .pfx between `-----BEGIN CERTIFICATE-----` lines) becomes a space, which
 * ends a run, as its dashes would read as base64url.
 */
function joinBase64Lines(text: string): string {
  return text.replace(/-----(?:BEGIN|END) [A-Z0-9 ]+-----/g, ' ').replace(/(?:\r?\n|\\r\\n|\\n)[ \t]*/g, '');
}

/** Whether a run of base64 in `joined` starts as a DER private key (its first 32 characters decoded: 24 bytes). */
function holdsDerInBase64(joined: string): boolean {
  for (const run of joined.matchAll(BASE64_RUN))
    for (let skip = 0; skip < 4; skip++) {
      if (run[0][skip] !== 'M') continue;
      const head = run[0]
        .slice(skip, skip + 32)
        .replace(/-/g, '+')
        .replace(/_/g, '/');
      if (isDerPrivateKey(Uint8Array.from(atob(head), (c) => c.charCodeAt(0)))) return true;
    }
  return false;
}

/**
 * The bytes of each base64 text in `joined` (line breaks taken out) that holds a text form's marker, a break
 * possibly having fallen inside the marker. The text starts where its run of base64 characters does, or up to three
 * characters later (a word of the line before it joins it once the break is out), so each of the four is decoded.
 */
function base64Around(joined: string): Uint8Array[] {
  const found: Uint8Array[] = [];
  let readUntil = 0;
  for (const marker of joined.matchAll(BASE64_MARKERS)) {
    // A marker inside a run already decoded was looked at with it.
    if (marker.index < readUntil) continue;
    let start = marker.index;
    while (start > 0 && BASE64_CHARACTER.test(joined[start - 1]!)) start -= 1;
    let end = marker.index + marker[0].length;
    while (end < joined.length && BASE64_CHARACTER.test(joined[end]!)) end += 1;
    readUntil = end;
    // The shortest key file, an Ed25519 PEM, takes 160 characters of base64; a marker alone is no key.
    if (end - start < 100) continue;
    const run = joined.slice(start, end).replace(/-/g, '+').replace(/_/g, '/');
    for (let skip = 0; skip < 4; skip++) {
      const groups = run.slice(skip);
      // Its last group may lack its padding (`atob` takes it so), but not three of its characters.
      const binary = atob(groups.length % 4 === 1 ? groups.slice(0, -1) : groups);
      found.push(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    }
  }
  return found;
}

/**
 * Whether `bytes` holds one of `forms`, the forms of one known key (`privateKeyForms` in the CLI): its bytes (the raw
 * seed, the PKCS#8 DER) anywhere, and its texts also across line breaks and spaces and `\n` escapes (base64 wrapped in
 * lines, a PEM's body without its markers, a string in a JSON file), and in hex whatever its case and separators
 * (`8b:df:…` as `openssl pkey -text` prints it, `0x8b, 0xdf` or `0x8` in a byte array, `\x8b` in a string), and its
 * bytes as an array of decimal numbers (`139, 223`, or Java's signed `-117, -33`). Node only (Buffer).
 * @internal
 */
export function holdsKeyForm(bytes: Uint8Array, forms: readonly (string | Uint8Array)[]): boolean {
  if (forms.length === 0) return false;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (forms.some((form) => typeof form !== 'string' && buffer.includes(Buffer.from(form)))) return true;
  const flat = buffer.toString('latin1').replace(/\s+|\\[rnt]/g, '');
  // Hex as byte arrays write it: `0x8b`, `0x8` (`b.toString(16)`), `0x8bu8` (Rust), `\x8b` (Python, C strings).
  const hex = flat
    .replace(/(?:0x|\\x)([0-9a-f]{1,2})(?:[iu]8)?(?![0-9a-f])/gi, (_, digits: string) => digits.padStart(2, '0'))
    .replace(/[:,'"]/g, '')
    .toLowerCase();
  if (forms.some((form) => typeof form === 'string' && (flat.includes(form) || hex.includes(form)))) return true;
  // Decimal byte arrays: `[139, 223, …]` (`Array.from(seed)`), Java's signed bytes (`-117`), each read as a byte.
  const arrays = [...flat.matchAll(/(?:-?\d{1,3},){15,}-?\d{1,3}/g)].map((m) =>
    Buffer.from(m[0].split(',').map((n) => Number(n) & 0xff)),
  );
  return arrays.some((array) => forms.some((form) => typeof form !== 'string' && array.includes(Buffer.from(form))));
}

// The OIDs, with their tag and length, of PBES2 (1.2.840.113549.1.5.13) and the start of PKCS#12's password-based
// schemes (1.2.840.113549.1.12.1.x), an encrypted PKCS#8 key's algorithm.
const PBES2 = Uint8Array.from([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0d]);
const PKCS12_PBE = Uint8Array.from([0x06, 0x0a, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x01]);
// The type of a PKCS#12 file's content, PKCS#7 data (OID 1.2.840.113549.1.7.1), with its tag and length.
const PKCS7_DATA = Uint8Array.from([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01]);

/**
 * Whether `head` starts as a private key in DER: an encrypted PKCS#8 key (its password-based algorithm first), or a
 * SEQUENCE whose first element is the version (INTEGER 0 or 1),
 * then, for PKCS#8, the algorithm (a SEQUENCE starting with its OID); for SEC1 (EC), the key (an OCTET STRING); for
 * PKCS#1 (RSA), the modulus (a long INTEGER); or a PKCS#12 file (version 3, then its data). A certificate or a public
 * key starts with a SEQUENCE there instead.
 */
function isDerPrivateKey(head: Uint8Array): boolean {
  if (head[0] !== 0x30) return false;
  // The outer SEQUENCE's length is one byte, or 0x81 / 0x82 and one or two more.
  const at = head[1]! < 0x80 ? 2 : head[1] === 0x81 ? 3 : head[1] === 0x82 ? 4 : -1;
  if (at < 0) return false;
  // An encrypted PKCS#8 key (EncryptedPrivateKeyInfo: its encryption algorithm first, a SEQUENCE starting with the
  // OID of PBES2 or of a PKCS#12 password-based scheme), as an encrypted PEM key is refused too.
  if (head[at] === 0x30) {
    const oid = at + 2 + (head[at + 1]! < 0x80 ? 0 : head[at + 1]! & 0x7f);
    return [PBES2, PKCS12_PBE].some((prefix) => prefix.every((byte, i) => head[oid + i] === byte));
  }
  if (head[at] !== 0x02 || head[at + 1] !== 0x01) return false;
  const version = head[at + 2];
  const next = head[at + 3];
  // PKCS#12 (a .p12 or .pfx file: version 3, then its content, data), which holds a private key, encrypted or not,
  // as an encrypted PEM key is refused too.
  if (version === 3 && next === 0x30) {
    // The content's SEQUENCE length (one byte, or 0x8n and n more), then its type.
    const length = head[at + 4]!;
    const typeAt = at + 5 + (length < 0x80 ? 0 : length & 0x7f);
    return PKCS7_DATA.every((byte, i) => head[typeAt + i] === byte);
  }
  if (next === 0x30) return (version === 0 || version === 1) && head[at + 5] === 0x06;
  if (next === 0x04) return version === 1;
  return next === 0x02 && version === 0 && (head[at + 4] === 0x81 || head[at + 4] === 0x82);
}
