// A second verifier, written from PACKAGE.md alone (a minimal CBOR reader and node:crypto), not from src/package: it
// must accept our packages and refuse every tampered vector with the code PACKAGE.md gives. If the page leaves out
// something our verifier does, the two disagree here.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(import.meta.dirname, '../../vectors/package');

class Refused extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}
const refuse = (code: string): never => {
  throw new Refused(code);
};

type Item = number | string | Buffer | Item[] | Map<Item, Item>;

/** One string per value, whatever its encoding: a map's entries sorted, so that their order does not count. */
const valueKey = (v: Item): string =>
  Buffer.isBuffer(v)
    ? `b${v.toString('hex')}`
    : Array.isArray(v)
      ? `[${v.map(valueKey).join(',')}]`
      : v instanceof Map
        ? `{${[...v]
            .map(([k, x]) => `${valueKey(k)}:${valueKey(x)}`)
            .sort()
            .join(',')}}`
        : JSON.stringify(v);

/**
 * PACKAGE.md section 1: definite-length uints, bytes, text, arrays and maps, at most 16 deep and each number below
 * 2^53; a repeated key is refused. `depth` is the item's: 0 for the outermost.
 */
function cbor(b: Buffer, at: number, depth = 0): [Item, number] {
  if (depth > 16) refuse('malformed');
  if (at >= b.length) refuse('truncated');
  const major = b[at]! >> 5;
  const info = b[at]! & 31;
  let n = info;
  let p = at + 1;
  if (info >= 24) {
    if (info > 27) refuse('malformed');
    const size = 2 ** (info - 24);
    if (p + size > b.length) refuse('truncated');
    n = Number(b.readUIntBE(p, Math.min(size, 6)));
    if (size === 8) {
      const big = b.readBigUInt64BE(p);
      if (big >= 2n ** 53n) refuse('malformed');
      n = Number(big);
    }
    p += size;
  }
  if (major === 0) return [n, p];
  if (major === 2 || major === 3) {
    if (p + n > b.length) refuse('truncated');
    const s = b.subarray(p, p + n);
    return [major === 2 ? s : s.toString('utf8'), p + n];
  }
  // Each item takes a byte at least: a count the bytes left cannot hold is refused before any item is read.
  if ((major === 4 && n > b.length - p) || (major === 5 && 2 * n > b.length - p)) refuse('truncated');
  if (major === 4) {
    const a: Item[] = [];
    for (let i = 0; i < n; i++) {
      const [v, q] = cbor(b, p, depth + 1);
      a.push(v);
      p = q;
    }
    return [a, p];
  }
  if (major === 5) {
    const m = new Map<Item, Item>();
    const keys = new Set<string>();
    for (let i = 0; i < n; i++) {
      const [k, q] = cbor(b, p, depth + 1);
      // Compared by value: heads need not be minimal, and a map's entries may come in any order.
      const raw = valueKey(k);
      if (keys.has(raw)) refuse(typeof k === 'string' && k.startsWith('/') ? 'duplicate-path' : 'malformed');
      keys.add(raw);
      const [v, r] = cbor(b, q, depth + 1);
      m.set(k, v);
      p = r;
    }
    return [m, p];
  }
  return refuse('malformed');
}

const ED_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const P256_PREFIX = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d03010703420004', 'hex');
const P = 2n ** 256n - 2n ** 224n + 2n ** 192n + 2n ** 96n - 1n;
const B = BigInt('0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b');
const modPow = (x: bigint, e: bigint): bigint => {
  let r = 1n;
  for (x %= P; e > 0n; e >>= 1n, x = (x * x) % P) if (e & 1n) r = (r * x) % P;
  return r;
};
const hex32 = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');

/** PACKAGE.md section 2: the SPKI DER of a signer's raw key. */
function spki(name: string, raw: Buffer): Buffer {
  if (name === 'ed25519PublicKey') return raw.length === 32 ? Buffer.concat([ED_PREFIX, raw]) : refuse('bad-key');
  if (raw.length !== 33 || (raw[0] !== 2 && raw[0] !== 3)) refuse('bad-key');
  const x = BigInt(`0x${raw.subarray(1).toString('hex')}`);
  const rhs = (((x ** 3n - 3n * x + B) % P) + P) % P;
  let y = modPow(rhs, (P + 1n) / 4n);
  if ((y * y) % P !== rhs) refuse('bad-key');
  if (Number(y & 1n) !== (raw[0]! & 1)) y = P - y;
  return Buffer.concat([P256_PREFIX, hex32(x), hex32(y)]);
}

const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};
const PATH = /^\/([A-Za-z0-9\-._~!$&'()*+,;=@[\]]+\/)*[A-Za-z0-9\-._~!$&'()*+,;=@[\]]+$/;
const DEVICE = /^(con|prn|aux|nul|com\d|lpt\d|conin\$|conout\$)(\.|$)/i;
const badPath = (path: string) =>
  !PATH.test(path) ||
  path
    .split('/')
    .slice(1)
    .some((s) => s.endsWith('.') || DEVICE.test(s));
// PACKAGE.md section 1's content-type grammar.
const TCHARS = "!#$%&'*+\\-.^_`|~0-9a-z";
const CONTENT_TYPE = new RegExp(
  `^[${TCHARS}]+/[${TCHARS}]+( *; *[${TCHARS}A-Z]+=([${TCHARS}A-Z]+|"([\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*"))*$`,
);

/** Check 10's JSON rules, without recursion: the depth of arrays and objects, and a key repeated in one object. */
function jsonRefused(text: string): boolean {
  const open: { keys: Set<string> | undefined }[] = [];
  const tokens = text.match(/"(?:[^"\\]|\\.)*"|[{}[\]:]/g) ?? [];
  for (const [i, token] of tokens.entries()) {
    if (token === '{' || token === '[') {
      open.push({ keys: token === '{' ? new Set() : undefined });
      if (open.length > 64) return true;
    } else if (token === '}' || token === ']') open.pop();
    else if (token.startsWith('"') && tokens[i + 1] === ':') {
      const keys = open.at(-1)!.keys!;
      const key = JSON.parse(token) as string;
      if (keys.has(key)) return true;
      keys.add(key);
    }
  }
  return false;
}

/** `read()`, with a `truncated` inside the web bundle made `malformed`. */
function inBundle<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw error instanceof Refused && error.code === 'truncated' ? new Refused('malformed') : error;
  }
}

/** PACKAGE.md section 4, checks 1 to 10 (check 10 with the manifest fields it names, not every manifest rule). */
function verifyFromTheSpec(file: Buffer, trusted: Buffer[] = []) {
  if (file.length === 0) refuse('empty');
  if (!file.subarray(0, 10).equals(Buffer.from('8448f09f968bf09f93a6', 'hex'))) refuse('bad-magic');
  if (!file.subarray(10, 15).equals(Buffer.from('4432620000', 'hex'))) refuse('unsupported-version');
  // Checks 4 and 5 read the first 4096 bytes: an item past them makes the block too long.
  const block = file.subarray(0, 4096);
  const inBlock = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      const past = error instanceof Refused && error.code === 'truncated' && block.length < file.length;
      throw past ? new Refused('malformed') : error;
    }
  };
  // The block is the outermost item: its attributes and its stack are at depth 1.
  const [attributes, attributesEnd] = inBlock(() => cbor(block, 15, 1));
  const id = attributes instanceof Map ? attributes.get('webBundleId') : refuse('malformed');
  if (typeof id !== 'string' || !/^[0-9a-f]{16}$/.test(id)) refuse('bad-id');
  // The stack's head alone: an array, of 1 to 4 signatures.
  if (attributesEnd >= block.length) inBlock(() => refuse('truncated'));
  if (block[attributesEnd]! >> 5 !== 4) refuse('malformed');
  const count = block[attributesEnd]! & 31;
  if (count === 0) refuse('no-signature');
  if (count > 4) refuse('malformed');
  const [stack, blockEnd] = inBlock(() => cbor(block, attributesEnd, 1));
  // Check 5 looks at the shape of every entry before any entry's key.
  for (const entry of stack as Item[])
    if (!Array.isArray(entry) || entry.length !== 2 || !(entry[0] instanceof Map) || !Buffer.isBuffer(entry[1]))
      refuse('malformed');
  // Each signature's attribute bytes, by walking the stack: its head, then per entry the entry head and two items.
  let p = (file[attributesEnd]! & 31) < 24 ? attributesEnd + 1 : refuse('malformed');
  const seen = new Set<string>();
  const signers = (stack as Item[]).map((entry) => {
    const attrStart = p + 1;
    const [attrs, attrEnd] = cbor(file, attrStart);
    const [, entryEnd] = cbor(file, p);
    p = entryEnd;
    const [name, raw] = [...(attrs as Map<Item, Item>)][0] ?? [];
    if ((attrs as Map<Item, Item>).size !== 1 || !Buffer.isBuffer(raw)) refuse('unknown-signature-type');
    if (name !== 'ed25519PublicKey' && name !== 'ecdsaP256SHA256PublicKey') refuse('unknown-signature-type');
    const key = spki(name as string, raw as Buffer);
    if (seen.has(key.toString('hex'))) refuse('malformed');
    seen.add(key.toString('hex'));
    return {
      name: name as string,
      key,
      sig: (entry as Item[])[1] as Buffer,
      attrs: file.subarray(attrStart, attrEnd),
    };
  });
  const bundle = file.subarray(blockEnd);
  if (bundle.length < 8) refuse('truncated');
  const declared = bundle.readBigUInt64BE(bundle.length - 8);
  if (declared > BigInt(bundle.length)) refuse('truncated');
  if (declared !== BigInt(bundle.length)) refuse('malformed');
  const unsigned = Buffer.concat([Buffer.from([0x84]), file.subarray(1, attributesEnd), Buffer.from([0x80])]);
  const hash = createHash('sha512').update(bundle).digest();
  for (const s of signers) {
    const message = Buffer.concat([u64(64), hash, u64(unsigned.length), unsigned, u64(s.attrs.length), s.attrs]);
    const key = createPublicKey({ key: s.key, format: 'der', type: 'spki' });
    // y >= p: bytes 1 to 30 all FF, byte 31 7F or FF, byte 0 ED or more; Node (OpenSSL) would read it modulo p.
    const raw = s.key.subarray(-32);
    const nonCanonical = raw.subarray(1, 31).every((b) => b === 0xff) && (raw[31]! & 0x7f) === 0x7f && raw[0]! >= 0xed;
    const ok =
      s.name === 'ed25519PublicKey'
        ? !nonCanonical && verify(null, message, key, s.sig)
        : verify('sha256', message, { key, dsaEncoding: 'der' }, s.sig);
    if (!ok) refuse('bad-signature');
  }
  const ids = signers.map((s) => createHash('sha256').update(s.key).digest('hex').slice(0, 16));
  if (!ids.includes(id as string) && !signers.some((s) => trusted.some((t) => t.equals(s.key))))
    refuse('untrusted-key');

  // Check 6 confirmed the bundle's length: an item that runs past the end of what holds it is malformed, not cut short.
  const [top, topEnd] = inBundle(() => cbor(bundle, 0));
  if (topEnd !== bundle.length || !Array.isArray(top) || top.length !== 5) refuse('malformed');
  const [magic, version, lengthsBytes, sections, length] = top as Item[];
  if (!Buffer.isBuffer(magic) || !magic.equals(Buffer.from('f09f8c90f09f93a6', 'hex'))) refuse('bad-magic');
  if (!Buffer.isBuffer(version) || !version.equals(Buffer.from('62320000', 'hex'))) refuse('unsupported-version');
  if (!Buffer.isBuffer(length) || length.length !== 8) refuse('malformed');
  const lengths = inBundle(() => cbor(lengthsBytes as Buffer, 0))[0] as Item[];
  // Where each section starts: after the top head, the magic, the version, the lengths and the sections' head.
  let q = 1;
  for (let i = 0; i < 3; i++) q = cbor(bundle, q)[1];
  q += 1;
  const starts = new Map<string, number>();
  (sections as Item[]).forEach((_, i) => {
    const end = cbor(bundle, q)[1];
    if (lengths[2 * i + 1] !== end - q) refuse('malformed');
    starts.set(lengths[2 * i] as string, q);
    q = end;
  });
  const index = (sections as Item[])[(lengths as Item[]).indexOf('index') / 2] as Map<string, number[]>;
  const responsesStart = starts.get('responses') ?? refuse('malformed');
  const files = new Map<string, Buffer>();
  const lowercase = new Set<string>();
  for (const [path, [offset, length]] of index as Map<string, [number, number]>) {
    if (badPath(path)) refuse('bad-path');
    if (lowercase.has(path.toLowerCase())) refuse('duplicate-path');
    lowercase.add(path.toLowerCase());
    const at = (responsesStart as number) + offset;
    const [response, end] = cbor(bundle, at);
    if (end - at !== length) refuse('malformed');
    const headers = inBundle(() => cbor((response as Buffer[])[0]!, 0))[0] as Map<Buffer, Buffer>;
    const status = [...headers].find(([k]) => k.toString() === ':status')?.[1].toString();
    if (status !== '200') refuse('malformed');
    if ([...headers.keys()].some((k) => k.toString() !== ':status' && !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(k.toString())))
      refuse('malformed');
    const type = [...headers].find(([k]) => k.toString() === 'content-type')?.[1].toString('latin1');
    if (!CONTENT_TYPE.test(type ?? '')) refuse('bad-content-type');
    files.set(path, (response as Buffer[])[1]!);
  }
  const manifestBytes = files.get('/manifest.json') ?? refuse('missing-file');
  let manifest: {
    id?: string;
    version?: string;
    entry?: string;
    icons?: { src: string }[];
    csp?: unknown;
    network?: { connect?: string[]; socket?: string[] };
  };
  try {
    manifest = JSON.parse((manifestBytes as Buffer).toString('utf8'));
  } catch {
    return refuse('invalid-manifest');
  }
  if (jsonRefused((manifestBytes as Buffer).toString('utf8'))) refuse('invalid-manifest');
  // The closed set of check 10 a host checks itself: the version's parts at most 9 digits, the csp printable ASCII
  // with tabs, network hosts bare lowercase names, and no lone surrogate in any string.
  const part = '(0|[1-9]\\d{0,8})';
  if (!new RegExp(`^${part}\\.${part}\\.${part}$`).test(manifest.version ?? '')) refuse('invalid-manifest');
  if (typeof manifest.csp !== 'string' || /[^\x20-\x7e\t]/.test(manifest.csp)) refuse('invalid-manifest');
  const HOST = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.(?!\d+$)[a-z0-9-]{1,63}(?<!-)$/;
  for (const host of [...(manifest.network?.connect ?? []), ...(manifest.network?.socket ?? [])])
    if (!HOST.test(host)) refuse('invalid-manifest');
  // In a u-mode pattern a pair is one character: \p{Cs} finds a surrogate alone.
  let lone = false;
  JSON.parse((manifestBytes as Buffer).toString('utf8'), (key, value) => {
    if (/\p{Cs}/u.test(key) || (typeof value === 'string' && /\p{Cs}/u.test(value))) lone = true;
    return value;
  });
  if (lone) refuse('invalid-manifest');
  if (manifest.id !== id) refuse('id-mismatch');
  // Check 10: without its ? and # parts and one leading ./, after /, a path of the package.
  for (const src of [manifest.entry ?? '', ...(manifest.icons ?? []).map((i) => i.src)])
    if (!files.has(`/${src.split(/[?#]/)[0]!.replace(/^\.\//, '')}`)) refuse('missing-file');
  return { id, version: manifest.version, signers: ids, files: [...files.keys()] };
}

interface Vector {
  file: string;
  trust?: string[];
  expect: string;
  id?: string;
  version?: string;
  signers?: { id: string }[];
  files?: string[];
}
const vectors: Vector[] = JSON.parse(readFileSync(join(dir, 'vectors.json'), 'utf8'));

describe('a verifier written from PACKAGE.md alone', () => {
  it.each(vectors.map((v) => [`${v.file}${v.trust ? ' (trusted key)' : ''}`, v] as const))(
    '%s: gives what vectors.json says',
    (_, vector) => {
      // PACKAGE.md section 2: a P-256 key given with its compressed point (59 bytes of SPKI) is decompressed first.
      const trusted = (vector.trust ?? []).map((f) => {
        const der = createPublicKey(readFileSync(join(dir, f))).export({ type: 'spki', format: 'der' });
        return der.length === 59 ? spki('ecdsaP256SHA256PublicKey', der.subarray(26)) : der;
      });
      const outcome = (() => {
        try {
          return verifyFromTheSpec(readFileSync(join(dir, vector.file)), trusted);
        } catch (error) {
          if (error instanceof Refused) return error.code;
          throw error;
        }
      })();
      if (vector.expect !== 'valid') return expect(outcome).toBe(vector.expect);
      expect(outcome).toEqual({
        id: vector.id,
        version: vector.version,
        signers: vector.signers!.map((s) => s.id),
        files: vector.files,
      });
    },
  );
});
