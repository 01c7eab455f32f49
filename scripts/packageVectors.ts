// The test vectors of the signed package format (PACKAGE.md): small packages, each with the outcome a verifier must
// give, written to vectors/package/ and shipped in the npm package. `npm run vectors:package` rewrites them;
// test/package/vectors.test.ts fails when they drift from what this script makes. Deterministic: fixed Ed25519 keys
// (seeds from fixed labels) sign the same bytes the same way. An ECDSA P-256 signature is randomized, so the P-256
// vector is kept as it is while it still verifies over the same bundle with the same key.
import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign as signBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BundleBuilder } from 'wbn';
import { IntegrityBlockSigner, NodeCryptoSigningStrategy } from 'wbn-sign';
import { createStarterManifest } from '../src/cli/starterManifest';
import { readPackage, verifyPackage } from '../src/package';
import { readCbor, readHead } from '../src/package/readCbor';

/** What a verifier must answer for one vector. */
export interface PackageVector {
  file: string;
  description: string;
  /** Public keys (PEM files in the same folder) the verifier trusts for the id, beside the id's own. */
  trust?: string[];
  /** `valid`, or the error code the verifier must give. */
  expect: string;
  id?: string;
  version?: string;
  signers?: { type: string; id: string }[];
  files?: string[];
}

const seedKey = (label: string) =>
  createPrivateKey({
    key: Buffer.concat([
      Buffer.from('302e020100300506032b657004220420', 'hex'),
      createHash('sha256').update(`svc-sdk package vector ${label}`).digest(),
    ]),
    format: 'der',
    type: 'pkcs8',
  });
const idOf = (key: KeyObject) =>
  createHash('sha256')
    .update(createPublicKey(key).export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);

/** A 1×1 PNG's bytes are enough: a verifier checks that icons are present, not what they show. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

function bundleOf(files: Record<string, string | Uint8Array>, types: Record<string, string> = {}): Uint8Array {
  const builder = new BundleBuilder('b2');
  for (const path of Object.keys(files).sort()) {
    const type = path.endsWith('.json') ? 'application/json' : path.endsWith('.png') ? 'image/png' : 'text/html';
    builder.addExchange(path, 200, { 'content-type': types[path] ?? type }, files[path]!);
  }
  return builder.createBundle();
}

function appFiles(id: string, change: (m: Record<string, unknown>) => void = () => {}) {
  const manifest = createStarterManifest({ id, name: 'Vector App' }) as Record<string, unknown>;
  change(manifest);
  return {
    '/manifest.json': `${JSON.stringify(manifest, null, 2)}\n`,
    '/index.html': '<!doctype html><title>Vector App</title><h1>Hello</h1>\n',
    '/icons/icon-192.png': PNG,
    '/icons/icon-512.png': PNG,
  } as Record<string, string | Uint8Array>;
}

async function sign(bundle: Uint8Array, id: string, keys: KeyObject[]): Promise<Uint8Array> {
  const signer = new IntegrityBlockSigner(
    bundle,
    id,
    keys.map((k) => new NodeCryptoSigningStrategy(k)),
  );
  return (await signer.sign()).signedWebBundle;
}

const cborText = (s: string) => Buffer.concat([head(3, Buffer.byteLength(s)), Buffer.from(s)]);

/**
 * Signs `bundle` with Ed25519 `keys` under integrity block attributes given as CBOR bytes, as PACKAGE.md section 3
 * says: for attributes wbn-sign does not write (an extra attribute).
 */
function signWithAttributes(bundle: Uint8Array, attributes: Uint8Array, keys: KeyObject[]): Uint8Array {
  const start = Buffer.from('8448f09f968bf09f93a64432620000', 'hex');
  const u64 = (n: number) => {
    const out = Buffer.alloc(8);
    out.writeBigUInt64BE(BigInt(n));
    return out;
  };
  const unsigned = Buffer.concat([start, attributes, Buffer.of(0x80)]);
  const hash = createHash('sha512').update(bundle).digest();
  const entries = keys.map((key) => {
    const raw = (createPublicKey(key).export({ type: 'spki', format: 'der' }) as Buffer).subarray(-32);
    const attrs = Buffer.concat([head(5, 1), cborText('ed25519PublicKey'), head(2, 32), raw]);
    const message = Buffer.concat([u64(64), hash, u64(unsigned.length), unsigned, u64(attrs.length), attrs]);
    return Buffer.concat([head(4, 2), attrs, head(2, 64), signBytes(null, message, key)]);
  });
  return Buffer.concat([start, attributes, head(4, keys.length), ...entries, bundle]);
}

/**
 * `bundle` under an integrity block of one Ed25519 signature whose key is the 32 bytes `raw` and whose signature is the
 * identity R and S = 0, given, not computed: for keys no private key makes.
 */
function withFixedSignature(bundle: Uint8Array, id: string, raw: Uint8Array): Uint8Array {
  const start = Buffer.from('8448f09f968bf09f93a64432620000', 'hex');
  const attributes = Buffer.concat([head(5, 1), cborText('webBundleId'), cborText(id)]);
  const keyAttributes = Buffer.concat([head(5, 1), cborText('ed25519PublicKey'), head(2, 32), raw]);
  const signature = Buffer.concat([Buffer.of(1), Buffer.alloc(63)]);
  const entry = Buffer.concat([head(4, 2), keyAttributes, head(2, 64), signature]);
  return Buffer.concat([start, attributes, head(4, 1), entry, bundle]);
}

const replaceOnce = (bytes: Uint8Array, from: string, to: string) => {
  const out = Buffer.from(bytes);
  const at = out.indexOf(from, 0, 'latin1');
  if (at < 0 || from.length !== to.length) throw new Error(`cannot replace ${from}`);
  out.write(to, at, 'latin1');
  return new Uint8Array(out);
};

/** A CBOR head: major type and argument, in the shortest form. */
function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(n, 1);
  return out;
}

/** A web bundle's length item: a byte string of 8 holding `n`, big-endian. */
const lengthItem = (n: number) => {
  const out = Buffer.alloc(9);
  out[0] = 0x48;
  out.writeBigUInt64BE(BigInt(n), 1);
  return out;
};

/**
 * `bundle` (as wbn writes it) with one more section, `name`, holding the CBOR bytes `raw`, after the others: the
 * index's offsets count from the responses section, so they stay right.
 */
function withSection(bundle: Uint8Array, name: string, raw: Uint8Array): Uint8Array {
  const bytes = Buffer.from(bundle);
  const start = readHead(bundle, 0).end;
  const versionEnd = readCbor(bundle, readCbor(bundle, start).end).end;
  const magicAndVersion = bytes.subarray(start, versionEnd);
  const lengthsItem = readCbor(bundle, versionEnd);
  const lengths = readCbor(lengthsItem.value as Uint8Array, 0).value as (string | number)[];
  const sectionsHead = readHead(bundle, lengthsItem.end);
  const sectionsEnd = readCbor(bundle, lengthsItem.end).end;
  const newLengths = Buffer.concat([
    head(4, lengths.length + 2),
    ...lengths.map((x) => (typeof x === 'number' ? head(0, x) : Buffer.concat([head(3, x.length), Buffer.from(x)]))),
    head(3, name.length),
    Buffer.from(name),
    head(0, raw.length),
  ]);
  const body = Buffer.concat([
    head(4, 5),
    magicAndVersion,
    head(2, newLengths.length),
    newLengths,
    head(4, sectionsHead.argument + 1),
    bytes.subarray(sectionsHead.end, sectionsEnd),
    raw,
  ]);
  return Buffer.concat([body, lengthItem(body.length + 9)]);
}

/** Builds every vector: its bytes by file name, the public keys to trust, and the expectations. */
export async function buildPackageVectors(existing?: (file: string) => Uint8Array | undefined) {
  const a = seedKey('A');
  const b = seedKey('B');
  const idA = idOf(a);
  const idB = idOf(b);
  const out = new Map<string, Uint8Array | string>();
  const vectors: PackageVector[] = [];
  const add = (file: string, bytes: Uint8Array, vector: Omit<PackageVector, 'file'>) => {
    out.set(file, bytes);
    vectors.push({ file, ...vector });
  };
  const valid = await sign(bundleOf(appFiles(idA)), idA, [a]);
  const files = ['/index.html', '/manifest.json', '/icons/icon-192.png', '/icons/icon-512.png'];
  /** What a verifier answers for a valid package of the app's files signed by key A alone, at version 0.1.0. */
  const validA = (description: string): Omit<PackageVector, 'file'> => ({
    description,
    expect: 'valid',
    id: idA,
    version: '0.1.0',
    signers: [{ type: 'ed25519', id: idA }],
    files,
  });
  add('valid.swbn', valid, validA('A valid package signed by one Ed25519 key; the id is derived from it.'));

  // P-256: an ECDSA signature is randomized, so a stored vector is reused while it still verifies over the same
  // bundle, under the same id, with the same keys in the same order.
  const pKey = p256PrivateKey();
  const idP = idOf(pKey);
  const spkiOf = (key: KeyObject) =>
    new Uint8Array(createPublicKey(key).export({ type: 'spki', format: 'der' }) as Buffer);
  const stable = async (file: string, bundle: Uint8Array, id: string, keys: KeyObject[]) => {
    const stored = existing?.(file);
    const same =
      stored &&
      (await verifyPackage(stored, { trustedKeys: keys.map(spkiOf) }).then(
        (p) =>
          p.id === id &&
          Buffer.from(readPackage(stored).bundle).equals(Buffer.from(bundle)) &&
          readPackage(stored).signatures.every((s, i) => Buffer.from(s.publicKey).equals(spkiOf(keys[i]!))) &&
          readPackage(stored).signatures.length === keys.length,
        () => false,
      ));
    return same ? stored : sign(bundle, id, keys);
  };
  const pBundle = bundleOf(appFiles(idP));
  add('valid-p256.swbn', await stable('valid-p256.swbn', pBundle, idP, [pKey]), {
    description: 'A valid package signed by one ECDSA P-256 key (DER signature, compressed key in the block).',
    expect: 'valid',
    id: idP,
    version: '0.1.0',
    signers: [{ type: 'ecdsa-p256', id: idP }],
    files,
  });

  add('rotation.swbn', await sign(bundleOf(appFiles(idA, (m) => (m.version = '0.2.0'))), idA, [a, b]), {
    description: 'A key rotation: id of key A, signed by key A and key B; each signature covers the block without any.',
    expect: 'valid',
    id: idA,
    version: '0.2.0',
    signers: [
      { type: 'ed25519', id: idA },
      { type: 'ed25519', id: idB },
    ],
    files,
  });
  const rotated = await sign(bundleOf(appFiles(idA, (m) => (m.version = '0.3.0'))), idA, [b]);
  out.set('key-b.pub.pem', createPublicKey(b).export({ type: 'spki', format: 'pem' }) as string);
  add('rotated.swbn', rotated, {
    description: 'After the rotation: id of key A, signed by key B alone. Valid only when key B is trusted for the id.',
    expect: 'untrusted-key',
  });
  add('rotated.swbn', rotated, {
    description: 'The same package, with key B (key-b.pub.pem) trusted for the id.',
    trust: ['key-b.pub.pem'],
    expect: 'valid',
    id: idA,
    version: '0.3.0',
    signers: [{ type: 'ed25519', id: idB }],
    files,
  });

  // A rotation between key types, and a P-256 key trusted as a compressed point (PACKAGE.md, section 2).
  const p256Rotation = bundleOf(appFiles(idA, (m) => (m.version = '0.2.0')));
  add('rotation-p256.swbn', await stable('rotation-p256.swbn', p256Rotation, idA, [a, pKey]), {
    description: 'A rotation from an Ed25519 key to a P-256 one: id of key A, signed by key A and key P.',
    expect: 'valid',
    id: idA,
    version: '0.2.0',
    signers: [
      { type: 'ed25519', id: idA },
      { type: 'ecdsa-p256', id: idP },
    ],
    files,
  });
  const p256Rotated = bundleOf(appFiles(idA, (m) => (m.version = '0.3.0')));
  const rotatedToP = await stable('rotated-p256.swbn', p256Rotated, idA, [pKey]);
  out.set('key-p-compressed.pub.pem', compressedSpkiPem(pKey));
  add('rotated-p256.swbn', rotatedToP, {
    description: 'After that rotation: id of key A, signed by key P alone. Valid only when key P is trusted.',
    expect: 'untrusted-key',
  });
  add('rotated-p256.swbn', rotatedToP, {
    description:
      'The same package, with key P trusted as SPKI DER of its compressed point (key-p-compressed.pub.pem): the same key.',
    trust: ['key-p-compressed.pub.pem'],
    expect: 'valid',
    id: idA,
    version: '0.3.0',
    signers: [{ type: 'ecdsa-p256', id: idP }],
    files,
  });

  const flipped = (bytes: Uint8Array, at: number) => {
    const copy = bytes.slice();
    copy[at]! ^= 0x01;
    return copy;
  };
  add('tampered-file.swbn', flipped(valid, Buffer.from(valid).indexOf('Hello')), {
    description: 'valid.swbn with one bit changed in /index.html.',
    expect: 'bad-signature',
  });
  const block = readPackage(valid);
  add('tampered-signature.swbn', flipped(valid, valid.length - block.bundle.length - 1), {
    description: 'valid.swbn with one bit changed in the signature.',
    expect: 'bad-signature',
  });
  add('tampered-id.swbn', replaceOnce(valid, idA, idB), {
    description: 'valid.swbn with the webBundleId replaced by another id: the signed block changed.',
    expect: 'bad-signature',
  });
  add('empty.swbn', new Uint8Array(0), { description: 'An empty file.', expect: 'empty' });
  add('truncated.swbn', valid.subarray(0, Math.floor(valid.length / 2)), {
    description: 'valid.swbn cut in half.',
    expect: 'truncated',
  });
  add('bad-magic.swbn', flipped(valid, 2), {
    description: 'valid.swbn with its magic changed.',
    expect: 'bad-magic',
  });
  add('no-signature.swbn', Buffer.concat([block.unsignedBlock, block.bundle]), {
    description: 'An integrity block with an empty signature stack.',
    expect: 'no-signature',
  });
  add('unknown-signature-type.swbn', replaceOnce(valid, 'ed25519PublicKey', 'rsa2048PublicKey'), {
    description: 'A signature whose attribute names no known key type.',
    expect: 'unknown-signature-type',
  });
  // The first key's byte string made one byte longer (0x58 0x20 -> 0x58 0x21): that key is no Ed25519 key, and the
  // stack's second entry is no longer [map, bytes]. The whole stack's shape is checked before any key.
  const rotation = out.get('rotation.swbn') as Uint8Array;
  const keyLength = Buffer.from(rotation).indexOf(Buffer.from('ed25519PublicKey')) + 'ed25519PublicKey'.length + 1;
  add('stack-shape-before-key.swbn', flipped(rotation, keyLength), {
    description:
      'rotation.swbn with its first key one byte longer: that key is bad, and the stack is no longer [map, bytes] pairs; the shape of the whole stack is checked first.',
    expect: 'malformed',
  });
  add('id-of-other-key.swbn', await sign(bundleOf(appFiles(idB)), idB, [a]), {
    description: 'The id of key B, signed by key A alone.',
    expect: 'untrusted-key',
  });
  add('manifest-id-differs.swbn', await sign(bundleOf(appFiles(idB)), idA, [a]), {
    description: "Signed by key A under A's id, but manifest.json says B's id.",
    expect: 'id-mismatch',
  });
  for (const [name, path, what] of [
    ['dot-dot', '/icons/../x.js', 'a ".." segment'],
    ['backslash', '/icons\\x.js', 'a backslash'],
    ['absolute-url', 'https://example.com/x.js', 'an absolute URL'],
  ] as const)
    add(`bad-path-${name}.swbn`, await sign(bundleOf({ ...appFiles(idA), [path]: 'x' }), idA, [a]), {
      description: `A file path with ${what}.`,
      expect: 'bad-path',
    });
  // wbn's builder keeps one entry per path: the repeat is made by renaming /a.txt's twin after building.
  const twins = bundleOf({ ...appFiles(idA), '/a.txt': 'first', '/b.txt': 'second' });
  add('duplicate-path.swbn', await sign(replaceOnce(twins, '/b.txt', '/a.txt'), idA, [a]), {
    description: 'The path /a.txt twice in the index.',
    expect: 'duplicate-path',
  });
  const noEntry = appFiles(idA);
  delete noEntry['/index.html'];
  add('missing-entry.swbn', await sign(bundleOf(noEntry), idA, [a]), {
    description: "The manifest's entry document is not in the package.",
    expect: 'missing-file',
  });
  add(
    'entry-dot-slash.swbn',
    await sign(bundleOf(appFiles(idA, (m) => (m.entry = './index.html?v=2#top'))), idA, [a]),
    validA(
      'An entry written ./index.html?v=2#top: the file /index.html (one leading ./ and the ? and # parts dropped).',
    ),
  );
  add('entry-absolute.swbn', await sign(bundleOf(appFiles(idA, (m) => (m.entry = '/index.html'))), idA, [a]), {
    description: 'An entry written /index.html, which names the path //index.html: no file (write index.html).',
    expect: 'missing-file',
  });
  const noManifest = appFiles(idA);
  delete noManifest['/manifest.json'];
  add('missing-manifest.swbn', await sign(bundleOf(noManifest), idA, [a]), {
    description: 'No /manifest.json.',
    expect: 'missing-file',
  });
  add('invalid-manifest.swbn', await sign(bundleOf(appFiles(idA, (m) => (m.version = '1.0'))), idA, [a]), {
    description: 'A manifest whose version is not three integers.',
    expect: 'invalid-manifest',
  });
  // Check 9 reads the web bundle whose length check 6 confirmed: what runs past its items' ends is malformed there, not
  // a file cut short; and its last item is the length as a byte string of exactly 8.
  const plain = bundleOf(appFiles(idA));
  const sixItems = Buffer.from(plain);
  sixItems[0] = 0x86;
  add('bundle-array-too-short.swbn', await sign(sixItems, idA, [a]), {
    description: 'A web bundle whose head says an array of 6 items, though 5 follow (the bundle has its right length).',
    expect: 'malformed',
  });
  const withNine = Buffer.concat([plain.subarray(0, plain.length - 9), Buffer.from([0x49, 0]), Buffer.alloc(8)]);
  withNine.writeBigUInt64BE(BigInt(withNine.length), withNine.length - 8);
  add('bundle-length-nine-bytes.swbn', await sign(withNine, idA, [a]), {
    description:
      'A web bundle whose last item is a byte string of 9 (a zero, then the right length), not of 8: its last 8 bytes are right.',
    expect: 'malformed',
  });
  // A map's keys compare by value: [1] written 0x81 0x01 and 0x81 0x18 0x01 is one key, repeated. In a section a
  // verifier ignores, so only the CBOR rule refuses it.
  add(
    'repeated-key-two-ways.swbn',
    await sign(withSection(plain, 'x', Buffer.from('a281010181180102', 'hex')), idA, [a]),
    {
      description:
        'A web bundle with an extra section x, { [1]: 1, [1]: 2 }, its second key written with a longer head: a repeated key, compared by value.',
      expect: 'malformed',
    },
  );
  const extraSection = withSection(plain, 'x', Buffer.from('a2810102810203', 'hex'));
  add(
    'extra-section.swbn',
    await sign(extraSection, idA, [a]),
    validA('A web bundle with an extra section x, { [1]: 2, [2]: 3 }, which a verifier ignores.'),
  );

  // Limits of the integrity block (PACKAGE.md, section 1): each refused however well signed.
  const [c, d, e] = ['C', 'D', 'E'].map(seedKey) as [KeyObject, KeyObject, KeyObject];
  add('five-signatures.swbn', await sign(plain, idA, [a, b, c, d, e]), {
    description: 'Signed by five keys, each signature valid: a stack holds at most 4, refused from its head.',
    expect: 'malformed',
  });
  add('repeated-signer.swbn', await sign(plain, idA, [a, a]), {
    description: 'Signed twice by key A: no two signatures are by the same key.',
    expect: 'malformed',
  });
  const bigAttributes = Buffer.concat([
    head(5, 2),
    cborText('webBundleId'),
    cborText(idA),
    cborText('x'),
    head(2, 4096),
    Buffer.alloc(4096),
  ]);
  add('block-over-4096-bytes.swbn', signWithAttributes(plain, bigAttributes, [a]), {
    description:
      'An integrity block whose attributes hold one more attribute, x, of 4096 zero bytes (signed): the block is over 4096 bytes.',
    expect: 'malformed',
  });

  // Paths a host could not write as one file on every file system (PACKAGE.md, section 1).
  for (const [name, path, what] of [
    ['colon', '/C:/x.js', 'a ":"'],
    ['dots-only', '/.../x.js', 'a segment of three dots'],
    ['trailing-dot', '/x.js.', 'a segment ending with "."'],
    ['device', '/assets/Aux.js', 'the Windows device name aux (with an extension, in another case)'],
  ] as const)
    add(`bad-path-${name}.swbn`, await sign(bundleOf({ ...appFiles(idA), [path]: 'x' }), idA, [a]), {
      description: `A file path with ${what}.`,
      expect: 'bad-path',
    });
  const bracketed = '/_next/static/chunks/pages/posts/[id]-8f3c1a2b.js';
  add('path-brackets.swbn', await sign(bundleOf({ ...appFiles(idA), [bracketed]: 'x' }), idA, [a]), {
    ...validA("A file path with [ and ], as Next.js names a dynamic route's code: valid."),
    files: [...files, bracketed],
  });
  add('duplicate-path-case.swbn', await sign(bundleOf({ ...appFiles(idA), '/Index.html': 'other' }), idA, [a]), {
    description: '/Index.html beside /index.html: one file where case is ignored.',
    expect: 'duplicate-path',
  });
  add(
    'duplicate-path-case-manifest.swbn',
    await sign(bundleOf({ ...appFiles(idA), '/MANIFEST.JSON': '{}' }), idA, [a]),
    {
      description: '/MANIFEST.JSON beside /manifest.json: written last, it would replace the manifest verified.',
      expect: 'duplicate-path',
    },
  );

  // Content types (PACKAGE.md, section 1): each made by replacing image/png's bytes with as many others.
  const withPngType = (type: string) => replaceOnce(bundleOf(appFiles(idA)), 'image/png', type);
  add('content-type-crlf.swbn', await sign(withPngType('image/\r\nx'), idA, [a]), {
    description: 'An icon whose content type holds CR and LF ("image/\\r\\nx"): a host could split a header on it.',
    expect: 'bad-content-type',
  });
  add('content-type-uppercase.swbn', await sign(withPngType('IMAGE/PNG'), idA, [a]), {
    description: 'An icon whose content type is IMAGE/PNG: type and subtype are lowercase.',
    expect: 'bad-content-type',
  });
  const parameters = bundleOf(appFiles(idA), { '/index.html': 'text/html ;charset="utf-8"; q="a\\"b"' });
  add(
    'content-type-parameters.swbn',
    await sign(parameters, idA, [a]),
    validA('An entry document whose content type has a quoted parameter value and spaces around ";" (valid).'),
  );

  // wbn folds header names to lowercase: a header content-typf, renamed Content-Type after building.
  const twoTypes = new BundleBuilder('b2');
  for (const [path, body] of Object.entries(appFiles(idA)).sort(([x], [y]) => (x < y ? -1 : 1))) {
    const type = path.endsWith('.json') ? 'application/json' : path.endsWith('.png') ? 'image/png' : 'text/html';
    const headers: Record<string, string> = { 'content-type': type };
    if (path === '/index.html') headers['content-typf'] = 'text/plain';
    twoTypes.addExchange(path, 200, headers, body);
  }
  add(
    'header-name-uppercase.swbn',
    await sign(replaceOnce(twoTypes.createBundle(), 'content-typf', 'Content-Type'), idA, [a]),
    {
      description:
        'The entry document with a Content-Type header (text/plain) beside its content-type: header names are lowercase.',
      expect: 'malformed',
    },
  );

  // The manifest's JSON (PACKAGE.md, check 10).
  const twice = appFiles(idA);
  twice['/manifest.json'] = (twice['/manifest.json'] as string).replace('{', `{\n  "id": "${idB}",`);
  add('manifest-repeated-key.swbn', await sign(bundleOf(twice), idA, [a]), {
    description: `A manifest with "id" twice, first "${idB}", then "${idA}": parsers differ on which one counts.`,
    expect: 'invalid-manifest',
  });
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < 32; i++)
    schema = { type: 'object', properties: { a: schema }, required: ['a'], additionalProperties: false };
  const deep = appFiles(idA, (m) => {
    m.actions = [
      {
        name: 'deep',
        title: 'Deep',
        description: 'An action whose input schema nests 32 objects, each inside the properties of the one before.',
        input_schema: schema,
        annotations: { read_only: true, destructive: false, idempotent: true, open_world: false },
        confirm: 'never',
      },
    ];
  });
  add('manifest-too-deep.swbn', await sign(bundleOf(deep), idA, [a]), {
    description:
      "A manifest whose action's input_schema nests 32 objects in properties: objects and arrays 68 deep, over 64.",
    expect: 'invalid-manifest',
  });

  // The rules of check 10 a host in another language checks itself (PACKAGE.md, "Check 10's manifest rules").
  const manifestText = (change: (text: string) => string) => {
    const files = appFiles(idA);
    files['/manifest.json'] = change(files['/manifest.json'] as string);
    return bundleOf(files);
  };
  for (const [name, change, what] of [
    [
      'csp-line-break',
      (t: string) => t.replace(`object-src 'none';`, `object-src 'none';\\n`),
      'a csp holding a line break',
    ],
    ['version-ten-digits', (t: string) => t.replace('"0.1.0"', '"1234567890.0.0"'), 'a version part of 10 digits'],
    [
      'lone-surrogate',
      (t: string) => t.replace('"Vector App"', '"Vector \\ud800App"'),
      'a name holding a lone surrogate',
    ],
    [
      'network-url',
      (t: string) => t.replace('"connect": []', '"connect": ["https://api.example.com"]'),
      'a network host written as a URL',
    ],
  ] as const)
    add(`manifest-${name}.swbn`, await sign(manifestText(change), idA, [a]), {
      description: `A manifest with ${what}.`,
      expect: 'invalid-manifest',
    });
  add(
    'manifest-csp-tab.swbn',
    await sign(
      manifestText((t) => t.replace(`object-src 'none'`, `object-src\\t'none'`)),
      idA,
      [a],
    ),
    validA("A manifest whose csp separates object-src from 'none' by a tab, which a policy may hold (valid)."),
  );
  add(
    'manifest-version-float.swbn',
    await sign(
      manifestText((t) => t.replace('"manifest_version": 1', '"manifest_version": 1.0')),
      idA,
      [a],
    ),
    validA('A manifest whose manifest_version is written 1.0: the integer 1 in JSON (valid).'),
  );
  add(
    'section-repeated-path.swbn',
    await sign(withSection(plain, 'x', Buffer.from('a2622f610162 2f6102'.replace(' ', ''), 'hex')), idA, [a]),
    {
      description:
        'An extra section x, { "/a": 1, "/a": 2 }: a repeated key that is a text starting with "/" is a repeated path wherever it is.',
      expect: 'duplicate-path',
    },
  );

  // A response's headers are CBOR inside a byte string, read by the same rule: two text keys "/a" take the bytes of a
  // longer content type, so every length around them stays right.
  const headed = bundleOf({ ...appFiles(idA), '/x.txt': 'x' }, { '/x.txt': 'text/plain;a=12345678' });
  add(
    'headers-repeated-path.swbn',
    await sign(
      replaceOnce(
        headed,
        '\xa2\x47:status\x43200\x4ccontent-type\x55text/plain;a=12345678',
        '\xa4\x47:status\x43200\x4ccontent-type\x4dtext/html;a=b\x62/a\x40\x62/a\x40',
      ),
      idA,
      [a],
    ),
    {
      description:
        'The headers of /x.txt hold the text key "/a" twice beside their byte string names: a repeated key that is a text starting with "/" is a repeated path in a response\'s headers too.',
      expect: 'duplicate-path',
    },
  );

  // The depth limit (PACKAGE.md, section 1): the block and the bundle are each the outermost item, at depth 0, so an
  // attribute's value and an extra section are at depth 2; inside 14 arrays an item is at depth 16, inside 15 at 17.
  const nested = (arrays: number) => Buffer.concat([...Array.from({ length: arrays }, () => head(4, 1)), head(0, 1)]);
  const withAttribute = (value: Buffer) =>
    Buffer.concat([head(5, 2), cborText('webBundleId'), cborText(idA), cborText('x'), value]);
  add(
    'attribute-depth-16.swbn',
    signWithAttributes(plain, withAttribute(nested(14)), [a]),
    validA('An integrity block attribute x holding 14 nested arrays around 1: the 1 is at depth 16 (valid).'),
  );
  add('attribute-depth-17.swbn', signWithAttributes(plain, withAttribute(nested(15)), [a]), {
    description: 'An integrity block attribute x holding 15 nested arrays around 1: the 1 is at depth 17.',
    expect: 'malformed',
  });
  add(
    'section-depth-16.swbn',
    await sign(withSection(plain, 'x', nested(14)), idA, [a]),
    validA('An extra section x holding 14 nested arrays around 1: the 1 is at depth 16 of the bundle (valid).'),
  );
  add('section-depth-17.swbn', await sign(withSection(plain, 'x', nested(15)), idA, [a]), {
    description: 'An extra section x holding 15 nested arrays around 1: the 1 is at depth 17 of the bundle.',
    expect: 'malformed',
  });
  // What CBOR a package never holds, each in an extra section a verifier would otherwise ignore.
  for (const [name, raw, what] of [
    ['float', 'f93c00', 'the half-precision float 1.0'],
    ['tag', 'c11a5f5e1000', 'a tagged item (tag 1, a date)'],
    ['indefinite', '9f01ff', 'an array of indefinite length'],
    ['integer-2-53', '1b0020000000000000', 'the integer 2^53'],
    ['count-past-end', '9a7fffffff', 'an array whose head counts 2^31 - 1 items, more than the bytes left'],
  ] as const)
    add(`cbor-${name}.swbn`, await sign(withSection(plain, 'x', Buffer.from(raw, 'hex')), idA, [a]), {
      description: `An extra section x holding ${what}.`,
      expect: 'malformed',
    });

  // The integrity block's other codes.
  const cutAt4096 = signWithAttributes(plain, bigAttributes, [a]).subarray(0, 4096);
  add('block-cut-at-4096.swbn', cutAt4096, {
    description:
      'block-over-4096-bytes.swbn cut to its first 4096 bytes: the attribute runs past the end of a file of at most 4096 bytes.',
    expect: 'truncated',
  });
  const version3 = Buffer.from(valid);
  version3[11] = 0x33;
  add('block-version.swbn', version3, {
    description: 'valid.swbn with the integrity block version "3b" instead of "2b".',
    expect: 'unsupported-version',
  });
  const shortId = Buffer.concat([head(5, 1), cborText('webBundleId'), cborText(idA.slice(1))]);
  add('bad-id.swbn', signWithAttributes(plain, shortId, [a]), {
    description: 'A webBundleId of 15 hex characters.',
    expect: 'bad-id',
  });
  const p256Package = out.get('valid-p256.swbn') as Uint8Array;
  const p256Signature = readPackage(p256Package).signatures[0]!;
  const badKey = Buffer.from(p256Package);
  const keyAt = badKey.indexOf(Buffer.from('ecdsaP256SHA256PublicKey')) + 'ecdsaP256SHA256PublicKey'.length + 2;
  badKey.fill(0xff, keyAt + 1, keyAt + 33);
  add('bad-key-p256.swbn', badKey, {
    description: "valid-p256.swbn with its key's x all 0xFF: more than the field prime p, so no point.",
    expect: 'bad-key',
  });
  // The web bundle's own magic and version (check 9), each signed.
  const otherMagic = Buffer.from(plain);
  otherMagic.write('WEBBUNDL', otherMagic.indexOf(Buffer.from('f09f8c90f09f93a6', 'hex')), 'latin1');
  add('bundle-magic.swbn', await sign(otherMagic, idA, [a]), {
    description: 'A web bundle whose magic is the text WEBBUNDL instead of the bytes of 🌐📦.',
    expect: 'bad-magic',
  });
  add('bundle-version.swbn', await sign(replaceOnce(plain, 'b2\u0000\u0000', 'b3\u0000\u0000'), idA, [a]), {
    description: 'A web bundle of version b3.',
    expect: 'unsupported-version',
  });
  add('bundle-seven-bytes.swbn', Buffer.concat([readIntegrityBytes(valid), Buffer.alloc(7)]), {
    description: "valid.swbn's integrity block followed by 7 bytes: fewer than the web bundle's length item takes.",
    expect: 'truncated',
  });

  // Signatures as crypto libraries differ on them (PACKAGE.md, section 3): each made from a valid one.
  const withSignature = (pkg: Uint8Array, signature: Uint8Array) => {
    const { unsignedBlock, bundle, signatures } = readPackage(pkg);
    const entry = Buffer.concat([head(4, 2), signatures[0]!.attributes, head(2, signature.length), signature]);
    return Buffer.concat([unsignedBlock.subarray(0, -1), head(4, 1), entry, bundle]);
  };
  const [r, s] = derIntegers(p256Signature.signature);
  const N = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');
  add('p256-high-s.swbn', withSignature(p256Package, derSignature(r, N - s)), {
    description: 'valid-p256.swbn with s replaced by n - s (the same signature in its high-S form): accepted.',
    expect: 'valid',
    id: idP,
    version: '0.1.0',
    signers: [{ type: 'ecdsa-p256', id: idP }],
    files,
  });
  const padded = (n: bigint) => Buffer.concat([Buffer.of(0), integerBytes(n)]);
  add('p256-der-padded.swbn', withSignature(p256Package, derOf(padded(r), integerBytes(s))), {
    description: 'valid-p256.swbn with r written with one more leading zero byte: not DER (minimal integers).',
    expect: 'bad-signature',
  });
  add(
    'p256-der-trailing-byte.swbn',
    withSignature(p256Package, Buffer.concat([p256Signature.signature, Buffer.of(0)])),
    {
      description: 'valid-p256.swbn with a zero byte after the DER sequence of its signature.',
      expect: 'bad-signature',
    },
  );
  const raw32 = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
  add('p256-raw-r-s.swbn', withSignature(p256Package, Buffer.concat([raw32(r), raw32(s)])), {
    description: 'valid-p256.swbn with its signature as raw r || s (64 bytes) instead of DER.',
    expect: 'bad-signature',
  });
  const edSignature = Buffer.from(readPackage(valid).signatures[0]!.signature);
  const L = 2n ** 252n + 27742317777372353535851937790883648493n;
  const sPlusL = BigInt(`0x${Buffer.from(edSignature.subarray(32)).reverse().toString('hex')}`) + L;
  const nonCanonical = Buffer.concat([
    edSignature.subarray(0, 32),
    Buffer.from(sPlusL.toString(16).padStart(64, '0'), 'hex').reverse(),
  ]);
  add('ed25519-s-plus-l.swbn', withSignature(valid, nonCanonical), {
    description: 'valid.swbn with S replaced by S + L: the same equation holds, but RFC 8032 requires S < L.',
    expect: 'bad-signature',
  });
  // The identity point written with y = p + 1 (no canonical encoding), R the identity, S = 0: the equation holds for
  // any message, and OpenSSL, reading y mod p, accepts it; RFC 8032 decodes no point from it. Nobody's private key.
  const oddKey = Buffer.concat([Buffer.of(0xee), Buffer.alloc(30, 0xff), Buffer.of(0x7f)]);
  const oddId = createHash('sha256')
    .update(Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), oddKey]))
    .digest('hex')
    .slice(0, 16);
  add('ed25519-key-non-canonical.swbn', withFixedSignature(bundleOf(appFiles(oddId)), oddId, oddKey), {
    description:
      'Signed with an Ed25519 key whose y is p + 1 (the identity point, not canonically encoded), R the identity and S = 0: RFC 8032 decodes no point from that key.',
    expect: 'bad-signature',
  });
  return { files: out, vectors };
}

/** A P-256 public key as PEM of the SPKI DER of its compressed point (59 bytes), as `openssl ec -conv_form compressed` writes it. */
function compressedSpkiPem(key: KeyObject): string {
  const uncompressed = (createPublicKey(key).export({ type: 'spki', format: 'der' }) as Buffer).subarray(-65);
  const point = Buffer.concat([Buffer.of(2 + (uncompressed[64]! & 1)), uncompressed.subarray(1, 33)]);
  const der = Buffer.concat([Buffer.from('3039301306072a8648ce3d020106082a8648ce3d030107032200', 'hex'), point]);
  const lines = der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n');
  return `-----BEGIN PUBLIC KEY-----\n${lines}\n-----END PUBLIC KEY-----\n`;
}

/** The integrity block of a package: its bytes before the web bundle. */
function readIntegrityBytes(pkg: Uint8Array): Uint8Array {
  return pkg.subarray(0, pkg.length - readPackage(pkg).bundle.length);
}

/** An INTEGER's content bytes in DER: big-endian, minimal, with a zero byte before a set high bit. */
function integerBytes(n: bigint): Buffer {
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const bytes = Buffer.from(hex, 'hex');
  return bytes[0]! & 0x80 ? Buffer.concat([Buffer.of(0), bytes]) : bytes;
}

/** A DER `SEQUENCE { INTEGER, INTEGER }` of two INTEGERs' content bytes, written as given. */
const derOf = (r: Buffer, s: Buffer) =>
  Buffer.concat([Buffer.of(0x30, r.length + s.length + 4, 0x02, r.length), r, Buffer.of(0x02, s.length), s]);
const derSignature = (r: bigint, s: bigint) => derOf(integerBytes(r), integerBytes(s));

/** The r and s of a DER ECDSA signature (short form lengths, as a P-256 signature has). */
function derIntegers(der: Uint8Array): [bigint, bigint] {
  const rLength = der[3]!;
  const r = Buffer.from(der.subarray(4, 4 + rLength));
  const s = Buffer.from(der.subarray(6 + rLength, 6 + rLength + der[5 + rLength]!));
  return [BigInt(`0x${r.toString('hex')}`), BigInt(`0x${s.toString('hex')}`)];
}

/** A fixed P-256 key: its private scalar from a fixed label (below the group order, as almost every hash is). */
function p256PrivateKey(): KeyObject {
  const d = createHash('sha256').update('svc-sdk package vector P').digest();
  // SEC1 ECPrivateKey without its public point: Node derives the point from the scalar.
  const sec1 = Buffer.concat([Buffer.from('30310201010420', 'hex'), d, Buffer.from('a00a06082a8648ce3d030107', 'hex')]);
  return createPrivateKey({ key: sec1, format: 'der', type: 'sec1' });
}

/** The folder the vectors ship in. */
export const VECTORS_DIR = resolve(import.meta.dirname, '../vectors/package');

if (process.argv[1]?.endsWith('packageVectors.mjs')) {
  const read = (file: string) => {
    try {
      return new Uint8Array(readFileSync(join(VECTORS_DIR, file)));
    } catch {
      return undefined;
    }
  };
  const { files, vectors } = await buildPackageVectors(read);
  mkdirSync(VECTORS_DIR, { recursive: true });
  for (const [file, bytes] of files) writeFileSync(join(VECTORS_DIR, file), bytes);
  writeFileSync(join(VECTORS_DIR, 'vectors.json'), `${JSON.stringify(vectors, null, 2)}\n`);
  console.log(`wrote ${files.size} files and vectors.json (${vectors.length} cases) in ${VECTORS_DIR}`);
}
