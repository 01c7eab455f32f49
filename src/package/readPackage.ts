import { codePointName } from '../manifest/helpers';
import { type CborItem, type CborValue, type ItemBudget, readCbor, readHead } from './readCbor';
import { KEY_ATTRIBUTES, type SignatureType, spkiOfSigner } from './packageKeys';
import { PackageError } from './PackageError';

/**
 * The largest package read by default: 32 MiB (docs/decisions.md says why). A larger one is refused before it is
 * parsed.
 * @public
 */
export const MAX_PACKAGE_BYTES = 32 * 1024 * 1024;

/** The first 10 bytes of every package: a CBOR array of 4, then the 8-byte magic 🖋📦 as a byte string. */
const BLOCK_START = Uint8Array.from([0x84, 0x48, 0xf0, 0x9f, 0x96, 0x8b, 0xf0, 0x9f, 0x93, 0xa6]);
/**
 * Whether `head` (a file's first bytes, at least 10) starts as a package does: what may be overwritten by a new one.
 * @internal
 */
export const startsAsPackage = (head: Uint8Array): boolean =>
  equalBytes(head.subarray(0, BLOCK_START.length), BLOCK_START);

/** The integrity block's version, a 4-byte string: `2b` and two zero bytes. */
const BLOCK_VERSION = Uint8Array.from([0x44, 0x32, 0x62, 0x00, 0x00]);
/** The web bundle's magic 🌐📦 and its version `b2`, as CBOR byte strings. */
const BUNDLE_MAGIC = Uint8Array.from([0xf0, 0x9f, 0x8c, 0x90, 0xf0, 0x9f, 0x93, 0xa6]);
const BUNDLE_VERSION = Uint8Array.from([0x62, 0x32, 0x00, 0x00]);
const KNOWN_SECTIONS = ['index', 'responses', 'critical', 'primary', 'manifest', 'signatures'];

/** One signature of the integrity block, not yet checked. @public */
export interface PackageSignature {
  type: SignatureType;
  /** The signer's public key, SPKI DER (what its id is derived from). */
  publicKey: Uint8Array;
  /** The signature: 64 bytes for Ed25519, DER `SEQUENCE { r, s }` for ECDSA P-256. */
  signature: Uint8Array;
  /** The CBOR bytes of the signature's attributes, as they are in the file (they are signed). */
  attributes: Uint8Array;
}

/** One file of a package. @public */
export interface PackageFile {
  /** Its path from the package root, starting with `/` (`/manifest.json`). */
  path: string;
  /** Its `content-type` header. */
  contentType: string;
  body: Uint8Array;
}

/** What {@link readPackage} finds in a package, before any signature is checked. @public */
export interface PackageContents {
  /** The integrity block's `webBundleId`: the svc id. */
  id: string;
  signatures: PackageSignature[];
  /** The integrity block with an empty signature stack: the bytes each signature covers beside the bundle's hash. */
  unsignedBlock: Uint8Array;
  /** The web bundle: everything after the integrity block. */
  bundle: Uint8Array;
  /** Every file, by path. */
  files: ReadonlyMap<string, PackageFile>;
}

/** Options of {@link readPackage} and `verifyPackage`. @public */
export interface ReadPackageOptions {
  /** The largest package accepted, in bytes; default {@link MAX_PACKAGE_BYTES}. */
  maxBytes?: number;
}

/**
 * The most signatures an integrity block may hold: a key rotation needs two, and four leave room. A longer stack is
 * refused from its head, before any entry is read, so that a file of many signatures costs no more than one of four.
 * @internal
 */
export const MAX_SIGNATURES = 4;

/**
 * The largest integrity block, in bytes: four signatures and the id take about 600. Checks 4 and 5 read no byte past
 * it, so a block that is all one huge attribute or signature is refused before it is decoded.
 * @internal
 */
export const MAX_INTEGRITY_BLOCK_BYTES = 4096;

const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
const malformed = (message: string) => new PackageError('malformed', message);

/** The integrity block of a package, and where the web bundle starts. */
export interface IntegrityBlock {
  id: string;
  signatures: PackageSignature[];
  unsignedBlock: Uint8Array;
  bundleStart: number;
}

/**
 * Reads the integrity block at the start of `bytes` (PACKAGE.md, checks 1 to 5): its magic and version, the id, and
 * every signature's type and key, without checking the signatures themselves.
 * @throws {@link PackageError} naming the first check that fails.
 */
export function readIntegrityBlock(bytes: Uint8Array, options: ReadPackageOptions = {}): IntegrityBlock {
  const max = options.maxBytes ?? MAX_PACKAGE_BYTES;
  if (bytes.length === 0) throw new PackageError('empty', 'the file is empty; pass the .swbn file `svc pack` wrote');
  if (bytes.length > max) throw tooLarge(bytes.length, max);
  if (!equalBytes(bytes.subarray(0, BLOCK_START.length), BLOCK_START))
    throw new PackageError(
      'bad-magic',
      bytes.length < BLOCK_START.length
        ? `the file is ${bytes.length} bytes, too short to be a signed package`
        : 'the file does not start with a signed web bundle integrity block (magic 🖋📦); pass a .swbn file made by `svc pack`',
    );
  if (!equalBytes(bytes.subarray(10, 15), BLOCK_VERSION))
    throw new PackageError(
      'unsupported-version',
      bytes.length < 15
        ? 'the file ends inside the integrity block version'
        : 'the integrity block is not version 2 ("2b"); repack it with `svc pack`',
    );
  // Only the first MAX_INTEGRITY_BLOCK_BYTES are read: an item that runs past them makes the block too long.
  const block = bytes.subarray(0, MAX_INTEGRITY_BLOCK_BYTES);
  const inBlock = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      if (error instanceof PackageError && error.code === 'truncated' && block.length < bytes.length)
        throw malformed(
          `the integrity block runs past byte ${MAX_INTEGRITY_BLOCK_BYTES}, the most it may take (an id and at most ${MAX_SIGNATURES} signatures); sign the package again with \`svc pack\``,
        );
      throw error;
    }
  };
  // The block is the outermost item (depth 0): its attributes and its stack are at depth 1 (PACKAGE.md, section 1).
  const attributes = inBlock(() => readCbor(block, 15, 1));
  const id = attributes.value instanceof Map ? attributes.value.get('webBundleId') : undefined;
  if (!(attributes.value instanceof Map)) throw malformed('the integrity block attributes are not a CBOR map');
  if (typeof id !== 'string' || !/^[0-9a-f]{16}$/.test(id))
    throw new PackageError(
      'bad-id',
      `the integrity block's webBundleId ${JSON.stringify(id ?? null)} is not an svc id (16 lowercase hex characters)`,
    );
  // The stack's head first: its count alone decides an empty or too long stack, before any entry is decoded.
  const stackHead = inBlock(() => readHead(block, attributes.end));
  if (stackHead.major !== 4) throw malformed('the integrity block signature stack is not a CBOR array');
  if (stackHead.argument === 0)
    throw new PackageError('no-signature', 'the package carries no signature; sign it with `svc pack --key <file>`');
  if (stackHead.argument > MAX_SIGNATURES)
    throw malformed(
      `the integrity block says it holds ${stackHead.argument} signatures; a package holds at most ${MAX_SIGNATURES} (a key rotation needs 2): sign it with its id's key, and the new one after a rotation`,
    );
  const stack = inBlock(() => readCbor(block, attributes.end, 1));
  const entries = stack.value as CborValue[];
  // The whole stack's shape first, then each signature's key type and key, as PACKAGE.md orders check 5: a stack
  // whose second entry is not [map, bytes] is malformed even when the first entry's key is bad.
  for (const [i, entry] of entries.entries())
    if (!Array.isArray(entry) || entry.length !== 2 || !(entry[0] instanceof Map) || !(entry[1] instanceof Uint8Array))
      throw malformed(`signature ${i + 1} is not a CBOR array of [attributes map, signature bytes]`);
  const signatures: PackageSignature[] = [];
  // Walk the stack again by position: each signature's attributes are signed as the bytes they are in the file.
  let at = stackHead.end;
  for (const [i, entry] of entries.entries()) {
    const attrsStart = readHead(block, at).end;
    const attrs = readCbor(block, attrsStart, 3);
    at = readCbor(block, at, 2).end;
    const [map, signature] = entry as [Map<CborValue, CborValue>, Uint8Array];
    const names = [...map.keys()];
    const name = names[0];
    const known = typeof name === 'string' && Object.hasOwn(KEY_ATTRIBUTES, name);
    const type = known ? KEY_ATTRIBUTES[name as keyof typeof KEY_ATTRIBUTES] : undefined;
    const key = map.get(name as string);
    if (names.length !== 1 || !type || !(key instanceof Uint8Array))
      throw new PackageError(
        'unknown-signature-type',
        `signature ${i + 1} has the attributes ${JSON.stringify(names.map(String))}; a signature carries exactly one of ed25519PublicKey or ecdsaP256SHA256PublicKey (bytes)`,
      );
    const publicKey = spkiOfSigner(type, key);
    // One key signing twice adds nothing, and would let one signer stand for two (PACKAGE.md, check 5).
    const earlier = signatures.findIndex((s) => equalBytes(s.publicKey, publicKey));
    if (earlier >= 0)
      throw malformed(
        `signature ${i + 1} is by the key of signature ${earlier + 1}; each key signs a package once, so drop the repeated signature`,
      );
    signatures.push({ type, publicKey, signature, attributes: bytes.subarray(attrsStart, attrs.end) });
  }
  const unsignedBlock = new Uint8Array(attributes.end + 1);
  unsignedBlock.set(bytes.subarray(0, attributes.end));
  unsignedBlock[attributes.end] = 0x80;
  return { id, signatures, unsignedBlock, bundleStart: stack.end };
}

/**
 * Names Windows gives to devices in every folder, with any extension (`nul.txt` is `nul`): a file written there opens
 * the device instead. `conin$` and `conout$` are the console's.
 */
const WINDOWS_DEVICES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9]|conin\$|conout\$)(\.|$)/i;

/**
 * Why `path` is not a package path, or undefined when it is one: `/`, then segments of letters, digits and
 * `-._~!$&'()*+,;=@[]` separated by single slashes, none of them only dots, ending with a dot, or a Windows device
 * name. A host writes a package's files to disk: each rule keeps a path meaning one file on every file system.
 */
export function describePathProblem(path: string): string | undefined {
  if (!path.startsWith('/')) return 'it does not start with "/" (a package path is absolute from the package root)';
  if (path.includes('\\')) return 'it holds a backslash (a package path separates folders with "/")';
  const segments = path.slice(1).split('/');
  if (segments.some((s) => s === '.' || s === '..'))
    return 'it holds a "." or ".." segment (it would leave its folder)';
  if (segments.some((s) => s === '')) return 'it holds an empty segment ("//" or a trailing "/")';
  const odd = segments.join('/').match(/[^A-Za-z0-9\-._~!$&'()*+,;=@[\]/]/u)?.[0];
  if (odd === ':') return 'it holds ":" (Windows reads it as a drive, such as C:, or as a stream of a file)';
  if (odd !== undefined)
    return `it holds ${JSON.stringify(odd)} (${codePointName(odd)}), which is not an ASCII letter, digit or one of -._~!$&'()*+,;=@[] (no spaces, accents, :, %, ? or #)`;
  // Windows drops a name's trailing dots: "x.js." opens x.js, and "..." the folder itself.
  const dotted = segments.find((s) => s.endsWith('.'));
  if (dotted !== undefined)
    return /^\.+$/.test(dotted)
      ? `its segment ${JSON.stringify(dotted)} is only dots, which Windows reads as the folder itself`
      : `its segment ${JSON.stringify(dotted)} ends with ".", which Windows drops (it would open ${JSON.stringify(dotted.replace(/\.+$/, ''))})`;
  const device = segments.find((s) => WINDOWS_DEVICES.test(s));
  if (device !== undefined)
    return `its segment ${JSON.stringify(device)} is a Windows device name (con, prn, aux, nul, com0-9, lpt0-9, conin$, conout$, with any extension), which names no file there`;
  return undefined;
}

/**
 * The package path of a file the manifest names (its `entry`, an icon's `src`): the text before any `?` or `#`,
 * without one leading `./`, after `/`; undefined when that is not a package path (a leading `/`, a `..` segment,
 * `//`), which then names no file. `index.html` and `./index.html?v=2` are `/index.html`.
 */
export function packagePathOf(src: string): string | undefined {
  const path = `/${src.split(/[?#]/)[0]!.replace(/^\.\//, '')}`;
  return describePathProblem(path) ? undefined : path;
}

const bytesOf = (value: CborValue | undefined, what: string): Uint8Array => {
  if (value instanceof Uint8Array) return value;
  throw malformed(`${what} is not a CBOR byte string`);
};

/**
 * Checks the web bundle's own length, its last 8 bytes (big-endian), against the bytes that follow the integrity
 * block (PACKAGE.md, check 6): a file cut short or with bytes appended fails here, before any hashing.
 * @throws {@link PackageError} `truncated` when fewer bytes follow than it says, `malformed` when more do.
 */
export function checkBundleLength(bundle: Uint8Array): void {
  if (bundle.length < 8)
    throw new PackageError('truncated', 'the file ends before its web bundle: it was cut short; copy it again');
  const view = new DataView(bundle.buffer, bundle.byteOffset, bundle.byteLength);
  const declared = view.getBigUint64(bundle.length - 8);
  if (declared > BigInt(bundle.length))
    throw new PackageError(
      'truncated',
      // Bytes added after the end move the length out of the last 8 bytes too: what those then give is no length.
      `the web bundle's last 8 bytes give a length of ${declared} but ${bundle.length} bytes are there: the file was cut short, or bytes were added after its end; copy it again`,
    );
  if (declared !== BigInt(bundle.length))
    throw malformed(
      `the web bundle says it is ${declared} bytes, but ${bundle.length} bytes follow the integrity block`,
    );
}

/**
 * The most CBOR items the web bundle may hold, each counted (a map's key and value are two): 7 a file and 8 of the
 * bundle's own, so at most 28,570 files, and decoding the most it allows takes some tens of megabytes.
 * @internal
 */
export const MAX_BUNDLE_ITEMS = 200_000;

/**
 * The most files a package holds: the web bundle's items are 7 a file (its path, offset and length in the index; its
 * response and two byte strings) and 8 of its own, within {@link MAX_BUNDLE_ITEMS}.
 * @internal
 */
export const MAX_PACKAGE_FILES = Math.floor((MAX_BUNDLE_ITEMS - 8) / 7);

/**
 * The refusal of a package of `size` bytes over `max`, whether its size came from its bytes or from the file system.
 * @internal
 */
export const tooLarge = (size: number, max: number) =>
  new PackageError(
    'too-large',
    `the package is ${size} bytes, over the limit of ${max}; ship smaller assets (compress images, split lazy data to your backend)`,
  );

/**
 * {@link readCbor} inside the web bundle, whose length check 6 has confirmed: an item that runs past its end (an
 * array that says 6 items and holds 5) is a malformed bundle, not a file cut short.
 */
function readBundleItem(bytes: Uint8Array, offset: number, budget?: ItemBudget): CborItem {
  try {
    return readCbor(bytes, offset, 0, budget);
  } catch (error) {
    if (error instanceof PackageError && error.code === 'truncated')
      throw malformed('an item of the web bundle runs past the end of the bytes that hold it');
    throw error;
  }
}

/**
 * Reads the web bundle (version b2) that follows the integrity block (PACKAGE.md, check 9): its sections,
 * and every file of its index with the response it points to.
 * @throws {@link PackageError} naming the first check that fails.
 */
function readBundle(bundle: Uint8Array): ReadonlyMap<string, PackageFile> {
  checkBundleLength(bundle);
  const top = readBundleItem(bundle, 0, {
    left: MAX_BUNDLE_ITEMS,
    refusal: `the web bundle holds more than ${MAX_BUNDLE_ITEMS} CBOR items (7 a file and 8 more: at most ${MAX_PACKAGE_FILES} files)`,
  });
  if (top.end !== bundle.length) throw malformed('bytes follow the web bundle');
  const parts = top.value;
  if (!Array.isArray(parts) || parts.length !== 5) throw malformed('the web bundle is not a CBOR array of 5 items');
  // The magic and the version compare as whole items: any other item there (another type included) is not them.
  if (!(parts[0] instanceof Uint8Array) || !equalBytes(parts[0], BUNDLE_MAGIC))
    throw new PackageError('bad-magic', 'the web bundle does not start with its magic 🌐📦');
  if (!(parts[1] instanceof Uint8Array) || !equalBytes(parts[1], BUNDLE_VERSION))
    throw new PackageError('unsupported-version', 'the web bundle is not version b2; repack it with `svc pack`');
  // The length item is `bytes .size 8`; its value, the bundle's last 8 bytes, was checked above (check 6).
  if (!(parts[4] instanceof Uint8Array) || parts[4].length !== 8)
    throw malformed("the web bundle's last item is not its length as a byte string of 8");
  const lengthsBytes = bytesOf(parts[2], 'the section lengths');
  const lengths = readBundleItem(lengthsBytes, 0);
  const sections = parts[3];
  if (lengths.end !== lengthsBytes.length || !Array.isArray(lengths.value) || !Array.isArray(sections))
    throw malformed('the section lengths or the sections are not CBOR arrays');
  if (lengths.value.length !== sections.length * 2)
    throw malformed('the section lengths do not list one name and one length per section');
  // Where each section starts in the bundle, to check its declared length and to find the responses.
  let at = readHead(bundle, 0).end;
  for (let i = 0; i < 3; i++) at = readCbor(bundle, at).end; // the magic, the version, the section lengths
  at = readHead(bundle, at).end;
  const found = new Map<string, { value: CborValue; start: number }>();
  for (let i = 0; i < sections.length; i++) {
    const name = lengths.value[2 * i];
    const length = lengths.value[2 * i + 1];
    const end = readCbor(bundle, at).end;
    if (typeof name !== 'string' || found.has(name) || length !== end - at)
      throw malformed(`section ${i + 1} has a repeated name, or a length other than its size`);
    found.set(name, { value: sections[i]!, start: at });
    at = end;
  }
  const critical = found.get('critical')?.value;
  if (critical !== undefined) {
    const unknown = Array.isArray(critical) ? critical.find((n) => !KNOWN_SECTIONS.includes(String(n))) : critical;
    if (unknown !== undefined) throw malformed(`the section ${String(unknown)} is critical but unknown`);
  }
  const index = found.get('index');
  const responses = found.get('responses');
  if (!index || !responses || !(index.value instanceof Map) || !Array.isArray(responses.value))
    throw malformed('the web bundle has no index map or no responses array');
  // Each response by its offset from the start of the responses section, as the index gives it.
  const byOffset = new Map<number, { length: number; value: CborValue }>();
  let offset = readHead(bundle, responses.start).end;
  for (const value of responses.value) {
    const end = readCbor(bundle, offset).end;
    byOffset.set(offset - responses.start, { length: end - offset, value });
    offset = end;
  }
  const files = new Map<string, PackageFile>();
  // Paths by their ASCII lowercase: on a file system that ignores case, /Index.html and /index.html are one file, and
  // the one written last would replace the one verified.
  const byFolded = new Map<string, string>();
  for (const [path, location] of index.value) {
    if (typeof path !== 'string') throw malformed('an index key is not a text path');
    const problem = describePathProblem(path);
    if (problem) throw new PackageError('bad-path', `the file path ${JSON.stringify(path)} is refused: ${problem}`);
    const folded = path.toLowerCase(); // a valid path is ASCII: no other case mapping applies
    const twin = byFolded.get(folded);
    if (twin !== undefined)
      throw new PackageError(
        'duplicate-path',
        `the paths ${JSON.stringify(twin)} and ${JSON.stringify(path)} differ only in case: where case is ignored (Windows, macOS) they are one file; rename one`,
      );
    byFolded.set(folded, path);
    const [start, length] = Array.isArray(location) ? location : [];
    const response = typeof start === 'number' ? byOffset.get(start) : undefined;
    if (!Array.isArray(location) || location.length !== 2 || !response || response.length !== length)
      throw malformed(`the index entry of ${path} points to no response`);
    files.set(path, readResponse(path, response.value));
  }
  return files;
}

/** One response of the bundle: its headers must say status 200 and give a content type. */
function readResponse(path: string, value: CborValue): PackageFile {
  if (!Array.isArray(value) || value.length !== 2) throw malformed(`the response of ${path} is not [headers, body]`);
  const headerBytes = bytesOf(value[0], `the headers of ${path}`);
  const body = bytesOf(value[1], `the body of ${path}`);
  const headers = readBundleItem(headerBytes, 0);
  if (headers.end !== headerBytes.length || !(headers.value instanceof Map))
    throw malformed(`the headers of ${path} are not one CBOR map`);
  const decode = new TextDecoder();
  const field = new Map<string, string>();
  for (const [k, v] of headers.value) {
    const name = decode.decode(bytesOf(k, `a header name of ${path}`));
    // Lowercase names only, as Web Bundles write them: with Content-Type beside content-type, a host that folds case
    // would find two content types and keep either.
    if (name !== ':status' && !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name))
      throw malformed(
        `the response of ${path} has the header name ${printableText(name)}; header names are lowercase tokens`,
      );
    field.set(name, decode.decode(bytesOf(v, `a header of ${path}`)));
  }
  if (field.get(':status') !== '200') throw malformed(`the response of ${path} does not have status 200`);
  const contentType = field.get('content-type');
  if (contentType === undefined) throw malformed(`the response of ${path} has no content-type`);
  if (!isMediaType(contentType))
    throw new PackageError(
      'bad-content-type',
      `the content type of ${path}, ${printableText(contentType)}, is not a media type in lowercase, type/subtype with optional "; name=value" parameters in printable ASCII (such as text/html; charset=utf-8); repack it with \`svc pack\``,
    );
  return { path, contentType, body };
}

// RFC 9110's token (section 5.6.2), and a parameter value that is a token or a quoted string (5.6.4), printable ASCII
// only: no control character, CR or LF that a host could split a header on, and nothing outside ASCII.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const LOWER_TOKEN = "[!#$%&'*+.^_`|~0-9a-z-]+";
const TYPE = new RegExp(`${LOWER_TOKEN}/${LOWER_TOKEN}`, 'y');
const NAME = new RegExp(` *; *${TOKEN}=`, 'y');
const TOKEN_VALUE = new RegExp(TOKEN, 'y');

/** Where the quoted string at `at` ends (after its closing quote), or -1: printable ASCII, `\` escaping one of it. */
function quotedEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20 || code > 0x7e) return -1;
    if (code === 0x5c) {
      const next = text.charCodeAt(++i);
      if (!(next >= 0x20 && next <= 0x7e)) return -1;
    }
  }
  return -1;
}

/**
 * Whether `text` is a content type a package may give: `type/subtype` in lowercase (hosts compare them as bytes, so
 * `TEXT/HTML` cannot pass as another type than text/html), then `; name=value` parameters, spaces allowed around the
 * `;`. Read a piece at a time: one expression over the whole header overflowed its stack on a crafted value of
 * millions of characters, which a verifier must refuse like any other.
 */
function isMediaType(text: string): boolean {
  TYPE.lastIndex = 0;
  if (!TYPE.test(text)) return false;
  let at = TYPE.lastIndex;
  while (at < text.length) {
    NAME.lastIndex = at;
    if (!NAME.test(text)) return false;
    at = NAME.lastIndex;
    if (text[at] === '"') at = quotedEnd(text, at);
    else {
      TOKEN_VALUE.lastIndex = at;
      at = TOKEN_VALUE.test(text) ? TOKEN_VALUE.lastIndex : -1;
    }
    if (at === -1) return false;
  }
  return true;
}

/** `text` quoted for a message: what is not printable ASCII as an escape, and at most 100 characters. */
const printableText = (text: string) => {
  const quoted = JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
  return quoted.replace(/[^ -~]/g, (c) => (c === '…' ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
};

/**
 * Reads a signed package (`.swbn`) without checking its signatures: the id, each signature's type and key, and
 * every file. To decide whether to run a package, use `verifyPackage`, which also checks the signatures, the id and
 * the manifest.
 * @throws {@link PackageError} naming what is wrong (`code`) and what to do (`message`).
 * @example
 * ```ts
 * const { id, files } = readPackage(new Uint8Array(await (await fetch('app.swbn')).arrayBuffer()));
 * ```
 * @public
 */
export function readPackage(bytes: Uint8Array, options: ReadPackageOptions = {}): PackageContents {
  const block = readIntegrityBlock(bytes, options);
  const bundle = bytes.subarray(block.bundleStart);
  return {
    id: block.id,
    signatures: block.signatures,
    unsignedBlock: block.unsignedBlock,
    bundle,
    files: readIndexedBundle(bundle),
  };
}

/** {@link readBundle}, with a repeated path reported as such rather than as a repeated CBOR key. */
export function readIndexedBundle(bundle: Uint8Array): ReadonlyMap<string, PackageFile> {
  try {
    return readBundle(bundle);
  } catch (error) {
    // Index keys are the only text keys starting with "/" in a bundle.
    const key = error instanceof PackageError && 'duplicateKey' in error ? error.duplicateKey : undefined;
    if (typeof key === 'string' && key.startsWith('/'))
      throw new PackageError('duplicate-path', `the path ${JSON.stringify(key)} appears twice in the package`);
    throw error;
  }
}
