// svc-sdk/package against the shipped vectors (and their drift from scripts/packageVectors.ts), against wbn-sign's
// and wbn's own reading of the same packages, and against every single-byte change of a package.
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Bundle, BundleBuilder } from 'wbn';
import { getBundleId } from 'wbn-sign';
import { describe, expect, it } from 'vitest';
import { buildPackageVectors, type PackageVector, VECTORS_DIR } from '../../scripts/packageVectors';
import { derivePackageId, isPackageError, PackageError, readPackage, verifyPackage } from '../../src/package';
import { MAX_MANIFEST_DEPTH } from '../../src/manifest/validateManifest';
import { describeJsonProblem } from '../../src/package/findJsonProblem';
import { readCbor } from '../../src/package/readCbor';
import { MAX_BUNDLE_ITEMS, MAX_INTEGRITY_BLOCK_BYTES, MAX_SIGNATURES } from '../../src/package/readPackage';

const read = (file: string) => new Uint8Array(readFileSync(join(VECTORS_DIR, file)));
const vectors: PackageVector[] = JSON.parse(readFileSync(join(VECTORS_DIR, 'vectors.json'), 'utf8'));
const trustOf = (vector: PackageVector) =>
  (vector.trust ?? []).map(
    (f) => new Uint8Array(createPublicKey(readFileSync(join(VECTORS_DIR, f))).export({ type: 'spki', format: 'der' })),
  );
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'valid',
    (error) => (isPackageError(error) ? error.code : `not a PackageError: ${error}`),
  );

describe('the test vectors', () => {
  it('are what scripts/packageVectors.ts makes (run `npm run vectors:package` after changing it)', async () => {
    const { files, vectors: made } = await buildPackageVectors((file) => read(file));
    expect(made).toEqual(vectors);
    const shipped = readdirSync(VECTORS_DIR).filter((f) => f !== 'vectors.json');
    expect(shipped.sort()).toEqual([...files.keys()].sort());
    for (const [file, bytes] of files)
      expect(Buffer.from(read(file)).equals(Buffer.from(bytes)), `${file} drifted`).toBe(true);
  });

  it.each(vectors.map((v) => [`${v.file}${v.trust ? ' (trusted key)' : ''}`, v] as const))(
    '%s: verifyPackage gives what vectors.json says',
    async (_, vector) => {
      const bytes = read(vector.file);
      if (vector.expect !== 'valid')
        return expect(await codeOf(verifyPackage(bytes, { trustedKeys: trustOf(vector) }))).toBe(vector.expect);
      const pkg = await verifyPackage(bytes, { trustedKeys: trustOf(vector) });
      expect({
        id: pkg.id,
        version: pkg.version,
        signers: pkg.signers.map((s) => ({ type: s.type, id: s.id })),
        files: [...pkg.files.keys()],
      }).toEqual({ id: vector.id, version: vector.version, signers: vector.signers, files: vector.files });
      expect(pkg.manifest.id).toBe(vector.id);
    },
  );
});

describe('verifyPackage against wbn-sign and wbn', () => {
  it.each(['valid.swbn', 'valid-p256.swbn', 'rotation.swbn'])(
    '%s: wbn-sign reads the same id, wbn the same files, and the ids are derived from the signing keys',
    async (file) => {
      const bytes = read(file);
      const pkg = await verifyPackage(bytes);
      expect(getBundleId(bytes)).toBe(pkg.id);
      const bundle = new Bundle(Buffer.from(readPackage(bytes).bundle));
      expect(bundle.urls.sort()).toEqual([...pkg.files.keys()].sort());
      for (const url of bundle.urls) {
        expect(Buffer.from(bundle.getResponse(url).body).equals(Buffer.from(pkg.files.get(url)!.body))).toBe(true);
        expect(bundle.getResponse(url).headers['content-type']).toBe(pkg.files.get(url)!.contentType);
      }
      for (const signer of pkg.signers) expect(await derivePackageId(signer.publicKey)).toBe(signer.id);
    },
  );

  it.each(['valid.swbn', 'valid-p256.swbn'])('%s: a change of any one byte is refused', async (file) => {
    const bytes = read(file);
    const refused = new Set<string>();
    for (let at = 0; at < bytes.length; at++) {
      const copy = bytes.slice();
      copy[at]! ^= 0x01;
      const code = await codeOf(verifyPackage(copy));
      expect(code, `byte ${at}`).not.toBe('valid');
      expect(code, `byte ${at}`).not.toMatch(/^not a PackageError/);
      refused.add(code);
    }
    expect([...refused]).toContain('bad-signature');
  });

  it('refuses a map that repeats a key written two ways (heads need not be minimal): readers would differ on the id', async () => {
    const text = (s: string, head: number[]) => [...head, ...Buffer.from(s)];
    const block = new Uint8Array([
      ...[0x84, 0x48, 0xf0, 0x9f, 0x96, 0x8b, 0xf0, 0x9f, 0x93, 0xa6, 0x44, 0x32, 0x62, 0x00, 0x00],
      0xa2,
      ...text('webBundleId', [0x6b]),
      ...text('0123456789abcdef', [0x70]),
      ...text('webBundleId', [0x78, 0x0b]), // the same key, its length in a one-byte argument
      ...text('fedcba9876543210', [0x70]),
      0x80,
    ]);
    const refused = await verifyPackage(block).catch((error: PackageError) => error);
    expect(refused).toMatchObject({ code: 'malformed', message: 'a CBOR map repeats the key "webBundleId"' });
  });

  it('compares keys that are maps by value: the same entries in another order are the same key', () => {
    // { {a: 1, b: 2}: 1, {b: 2, a: 1}: 2 }
    const map = Buffer.from('a2a2616101616202 01 a2616202616101 02'.replaceAll(' ', ''), 'hex');
    expect(() => readCbor(new Uint8Array(map), 0)).toThrow('a CBOR map repeats the key {…} (a map of 2)');
    // { {a: 1}: 1, {a: 2}: 2 }: two keys
    const twoKeys = Buffer.from('a2a16161010 1a161610202'.replaceAll(' ', ''), 'hex');
    expect(readCbor(new Uint8Array(twoKeys), 0).value).toBeInstanceOf(Map);
  });

  it('reads an item 16 arrays deep and refuses one 17 deep, as PACKAGE.md says', () => {
    // [[[…[0]…]]]: n arrays of one around a 0, which sits at depth n.
    const nested = (n: number) => new Uint8Array([...Array(n).fill(0x81), 0x00]);
    expect(() => readCbor(nested(16), 0)).not.toThrow();
    expect(() => readCbor(nested(17), 0)).toThrow('CBOR nested deeper than 16 levels');
  });

  it('says what trustedKeys takes when it is given something else, before reading the package', async () => {
    const bytes = read('valid.swbn');
    const pem = readFileSync(join(VECTORS_DIR, vectors.find((v) => v.trust)!.trust![0]!), 'utf8');
    const { privateKey } = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign'])) as CryptoKeyPair;
    const [spki] = trustOf(vectors.find((v) => v.trust)!);
    // A public key imported as not extractable: its bytes cannot be compared with a signer's.
    const sealed = await crypto.subtle.importKey('spki', spki!, { name: 'Ed25519' }, false, ['verify']);
    for (const [keys, message] of [
      [[pem], 'trustedKeys[0]: pass a public CryptoKey or its SPKI DER bytes (a Uint8Array); for a PEM file, decode'],
      [[spki, privateKey], 'trustedKeys[1]: pass a public key; got a private key'],
      [pem, 'trustedKeys: pass an array of keys'],
      // A corrupt key store's entry, and a package's bytes where a key belongs: refused, not ignored.
      [[new Uint8Array([1, 2, 3])], 'trustedKeys[0]: these 3 bytes are no SPKI DER encoding of an Ed25519 or P-256'],
      [[spki, read('valid.swbn')], 'trustedKeys[1]: these'],
      [[sealed], 'trustedKeys[0]: the key cannot be exported ('],
    ] as const) {
      const error = await verifyPackage(new Uint8Array(0), { trustedKeys: keys as never }).catch((e) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toContain(message);
    }
    // A good key list and an empty file: the package's own error.
    expect(await codeOf(verifyPackage(new Uint8Array(0), { trustedKeys: [] }))).toBe('empty');
    // What fetch's arrayBuffer() gives is a package too; a file name is not.
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    expect(await codeOf(verifyPackage(buffer))).toBe('valid');
    await expect(verifyPackage('valid.swbn' as never)).rejects.toThrow(
      "verifyPackage(): pass the package's bytes, a Uint8Array or an ArrayBuffer",
    );
    expect(await codeOf(verifyPackage(bytes, { trustedKeys: trustOf(vectors.find((v) => v.trust)!) }))).toBe('valid');
  });

  it('refuses a package over the size limit before reading it, and derives ids from CryptoKeys', async () => {
    const bytes = read('valid.swbn');
    const error = await verifyPackage(bytes, { maxBytes: bytes.length - 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(PackageError);
    expect(error.code).toBe('too-large');
    expect(error.message).toContain(`over the limit of ${bytes.length - 1}`);
    const { publicKey } = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    const spki = new Uint8Array(await crypto.subtle.exportKey('spki', publicKey));
    expect(await derivePackageId(publicKey)).toBe(await derivePackageId(spki));
    expect(await derivePackageId(publicKey)).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('a P-256 key given with its point compressed', () => {
  it('is the same key: the same id, and a trusted key that names its signer', async () => {
    const bytes = read('valid-p256.swbn');
    const [signer] = (await verifyPackage(bytes)).signers;
    // The SPKI that `openssl ec -pubin -conv_form compressed -outform DER` writes for the signer's key: the 26 bytes
    // of its prefix, then 02 or 03 (y even or odd) and x.
    const uncompressed = Buffer.from(signer!.publicKey);
    const point = uncompressed.subarray(-65);
    const compressed = Buffer.concat([
      Buffer.from('3039301306072a8648ce3d020106082a8648ce3d030107032200', 'hex'),
      Buffer.of(2 + (point[64]! & 1)),
      point.subarray(1, 33),
    ]);
    expect(createPublicKey({ key: compressed, format: 'der', type: 'spki' }).asymmetricKeyType).toBe('ec');
    expect(await derivePackageId(new Uint8Array(compressed))).toBe(signer!.id);
    const trusted = await verifyPackage(bytes, { trustedKeys: [new Uint8Array(compressed)] });
    expect(trusted.signers[0]!.trusted).toBe(true);
    // A compressed point that is no point of the curve is a bad key, said as such.
    const offCurve = Buffer.from(compressed);
    offCurve.fill(0xff, offCurve.length - 32);
    await expect(verifyPackage(bytes, { trustedKeys: [new Uint8Array(offCurve)] })).rejects.toMatchObject({
      code: 'bad-key',
    });
  });
});

describe('PACKAGE.md', () => {
  it('lists every PackageError code in its table of checks, and no other', () => {
    const root = join(VECTORS_DIR, '../..');
    const source = readFileSync(join(root, 'src/package/PackageError.ts'), 'utf8');
    const union = source.slice(
      source.indexOf('export type PackageErrorCode'),
      source.indexOf(';', source.indexOf('export type PackageErrorCode')),
    );
    const codes = [...union.matchAll(/'([a-z-]+)'/g)].map((m) => m[1]).sort();
    const doc = readFileSync(join(root, 'PACKAGE.md'), 'utf8');
    const table = doc.slice(doc.indexOf('## 4. Checks, in order'), doc.indexOf('## 5. Test vectors'));
    const rows = table.split('\n').filter((line) => /^\| \d+ \|/.test(line));
    const documented = [
      ...new Set(
        rows.flatMap((row) =>
          [
            ...row
              .split('|')
              .at(-2)!
              .matchAll(/`([a-z-]+)`/g),
          ].map((m) => m[1]),
        ),
      ),
    ].sort();
    expect(documented).toEqual(codes);
    // Every code a vector expects is one of them.
    for (const vector of vectors) expect(['valid', ...codes]).toContain(vector.expect);
  });
});

// What an unsigned file may make a verifier do: each limit is decided from a head or a byte count, so these inputs
// are built so that reading one item past the limit would give another error than the one asserted.
const BLOCK_START = Buffer.from('8448f09f968bf09f93a64432620000', 'hex');
const cborHead = (major: number, n: number) => {
  if (n < 24) return Buffer.of((major << 5) | n);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(n, 1);
  return out;
};
const cborText = (s: string) => Buffer.concat([cborHead(3, Buffer.byteLength(s)), Buffer.from(s)]);
const attributesOf = (id: string) => Buffer.concat([cborHead(5, 1), cborText('webBundleId'), cborText(id)]);
const u64 = (n: number) => {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(n));
  return out;
};
/** A fresh Ed25519 key and the id derived from it. */
async function newKey(): Promise<{ key: KeyObject; id: string }> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const spki = new Uint8Array(createPublicKey(privateKey).export({ type: 'spki', format: 'der' }));
  return { key: privateKey, id: await derivePackageId(spki) };
}
/** One signature entry of the stack, `[{ ed25519PublicKey }, signature]`, valid over `bundle` under `id`. */
function signatureEntry(bundle: Uint8Array, id: string, key: KeyObject): Buffer {
  const unsigned = Buffer.concat([BLOCK_START, attributesOf(id), Buffer.of(0x80)]);
  const raw = (createPublicKey(key).export({ type: 'spki', format: 'der' }) as Buffer).subarray(-32);
  const attrs = Buffer.concat([cborHead(5, 1), cborText('ed25519PublicKey'), cborHead(2, 32), raw]);
  const hash = createHash('sha512').update(bundle).digest();
  const message = Buffer.concat([u64(64), hash, u64(unsigned.length), unsigned, u64(attrs.length), attrs]);
  return Buffer.concat([cborHead(4, 2), attrs, cborHead(2, 64), sign(null, message, key)]);
}
/** A package of `bundle` under `id` whose stack says `count` signatures and holds `entries`. */
const packageOf = (id: string, count: number, entries: Buffer, bundle: Uint8Array) =>
  new Uint8Array(Buffer.concat([BLOCK_START, attributesOf(id), cborHead(4, count), entries, bundle]));
/** A web bundle of `files`, each path's content type by its extension unless `types` gives it. */
function bundleOf(files: Record<string, string | Uint8Array>, types: Record<string, string> = {}): Uint8Array {
  const builder = new BundleBuilder('b2');
  for (const path of Object.keys(files).sort()) {
    const type = types[path] ?? (path.endsWith('.json') ? 'application/json' : 'text/html');
    builder.addExchange(path, 200, { 'content-type': type }, files[path]!);
  }
  return builder.createBundle();
}
/** valid.swbn's manifest, as an object. */
const validManifest = () =>
  JSON.parse(new TextDecoder().decode(readPackage(read('valid.swbn')).files.get('/manifest.json')!.body));
/** valid.swbn's files, with `manifest` as the text of /manifest.json. */
const appFiles = (manifest: string) =>
  Object.fromEntries(
    [...readPackage(read('valid.swbn')).files].map(([path, file]) => [
      path,
      path === '/manifest.json' ? manifest : file.body,
    ]),
  ) as Record<string, string | Uint8Array>;
/** A package signed by a fresh key, of valid.swbn's files under its id, with `extra` files and content `types`. */
async function signedApp(
  extra: Record<string, string> = {},
  types: Record<string, string> = {},
  manifestOf = (id: string) => JSON.stringify({ ...validManifest(), id }),
): Promise<Uint8Array> {
  const { key, id } = await newKey();
  const bundle = bundleOf({ ...appFiles(manifestOf(id)), ...extra }, types);
  return packageOf(id, 1, signatureEntry(bundle, id, key), bundle);
}

describe('limits that keep an unsigned file cheap (F3)', () => {
  it(`refuses a stack of more than ${MAX_SIGNATURES} signatures from its head, naming the count once`, async () => {
    const p256 = read('valid-p256.swbn');
    const { bundle, id } = readPackage(p256);
    // 416,666 copies of one P-256 signer with an 8-byte garbage signature (30 MB), as the review sent: refused from the
    // stack's head, before any key is decompressed.
    const name = Buffer.from(p256).indexOf('ecdsaP256SHA256PublicKey');
    const point = Buffer.from(p256.subarray(name + 26, name + 26 + 33));
    const one = Buffer.concat([
      cborHead(4, 2),
      cborHead(5, 1),
      cborText('ecdsaP256SHA256PublicKey'),
      Buffer.of(0x58, 33),
      point,
      cborHead(2, 8),
      Buffer.alloc(8, 0x30),
    ]);
    const copies = Buffer.alloc(one.length * 416_666);
    for (let at = 0; at < copies.length; at += one.length) one.copy(copies, at);
    const flood = await verifyPackage(packageOf(id, 416_666, copies, bundle)).catch((e: PackageError) => e);
    expect(flood).toMatchObject({
      code: 'malformed',
      message: `the integrity block says it holds 416666 signatures; a package holds at most ${MAX_SIGNATURES} (a key rotation needs 2): sign it with its id's key, and the new one after a rotation`,
    });
    // By construction: the entries after the head are bytes no CBOR reader accepts (0xff, a break), so an entry read
    // would have given another message.
    const garbage = await verifyPackage(packageOf(id, 5, Buffer.alloc(64, 0xff), bundle)).catch((e) => e);
    expect(garbage).toMatchObject({ code: 'malformed', message: expect.stringContaining('holds 5 signatures') });
  });

  it("refuses 150,000 valid signatures by the id's own key, and two, as one key signing twice", async () => {
    const { key, id } = await newKey();
    const { bundle } = readPackage(read('valid.swbn'));
    const entry = signatureEntry(bundle, id, key);
    const many = await verifyPackage(packageOf(id, 150_000, Buffer.concat(Array(150_000).fill(entry)), bundle)).catch(
      (e) => e,
    );
    expect(many).toMatchObject({ code: 'malformed', message: expect.stringContaining('holds 150000 signatures') });
    // Within the cap, a repeat is refused by its key; the message names the two signatures, not the key many times.
    const twice = await verifyPackage(packageOf(id, 2, Buffer.concat([entry, entry]), bundle)).catch((e) => e);
    expect(twice).toMatchObject({
      code: 'malformed',
      message:
        'signature 2 is by the key of signature 1; each key signs a package once, so drop the repeated signature',
    });
  });

  it(`refuses an integrity block over ${MAX_INTEGRITY_BLOCK_BYTES} bytes, and a count no bytes could hold, from its head`, async () => {
    const { bundle, id } = readPackage(read('valid.swbn'));
    // The attributes hold a 30,000,000-item array of 0x00 (30 MB): the block is refused at byte 4096.
    const attributes = Buffer.concat([
      cborHead(5, 2),
      cborText('webBundleId'),
      cborText(id),
      cborText('x'),
      cborHead(4, 30_000_000),
    ]);
    const huge = Buffer.concat([BLOCK_START, attributes, Buffer.alloc(30_000_000), Buffer.of(0x80), bundle]);
    expect(await verifyPackage(new Uint8Array(huge)).catch((e) => e)).toMatchObject({
      code: 'malformed',
      message: `the integrity block runs past byte ${MAX_INTEGRITY_BLOCK_BYTES}, the most it may take (an id and at most ${MAX_SIGNATURES} signatures); sign the package again with \`svc pack\``,
    });
    // A file shorter than the limit whose array says more items than bytes follow: refused from the array's head
    // (an item-by-item reader would say the file ends at its end, inside the first missing item).
    const short = Buffer.concat([BLOCK_START, attributes, Buffer.alloc(10)]);
    expect(await verifyPackage(new Uint8Array(short)).catch((e) => e)).toMatchObject({
      code: 'truncated',
      message: `the file ends at byte ${short.length}, before the 30000000 items of the CBOR array at ${BLOCK_START.length + attributes.length - 5}`,
    });
    // The same count inside the web bundle, whose length check 6 confirmed, is malformed.
    const map = Buffer.concat([cborHead(5, 2_000_000), Buffer.alloc(10)]);
    expect(() => readCbor(new Uint8Array(map), 0)).toThrow('before the 2000000 entries of the CBOR map at 0');
  });
});

describe('the web bundle, signed by anyone for their own id (security re-check N1)', () => {
  it(`refuses more than ${MAX_BUNDLE_ITEMS} CBOR items, and takes a package of 10,000 files`, async () => {
    const files = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`/f${i}.js`, 'x']));
    // 30,000 files are about 210,000 items: refused as they are counted, before they are all values.
    await expect(verifyPackage(await signedApp(files(30_000)))).rejects.toMatchObject({
      code: 'malformed',
      message: expect.stringContaining(`the web bundle holds more than ${MAX_BUNDLE_ITEMS} CBOR items`),
    });
    expect((await verifyPackage(await signedApp(files(10_000)))).files.size).toBeGreaterThan(10_000);
  }, 60_000);
});

describe('the manifest JSON (F5, F7)', () => {
  it('refuses a manifest nested 20,000 levels as invalid-manifest, naming the limit, before validation recurses', async () => {
    let schema = '{"type":"string"}';
    for (let i = 0; i < 10_000; i++)
      schema = `{"type":"object","properties":{"a":${schema}},"additionalProperties":false}`;
    const deep = (id: string) =>
      JSON.stringify({ ...validManifest(), id, actions: ['SCHEMA'] }).replace('"SCHEMA"', schema);
    const refused = await verifyPackage(await signedApp({}, {}, deep)).catch((e) => e);
    expect(refused).toBeInstanceOf(PackageError);
    expect(refused).toMatchObject({
      code: 'invalid-manifest',
      message: expect.stringContaining(
        `/manifest.json is refused: it nests arrays and objects more than ${MAX_MANIFEST_DEPTH} deep (at $.actions[0].properties.a.properties`,
      ),
    });
  });

  it('refuses a key repeated in any object, compared unescaped, and reads a text as deep as the limit', async () => {
    expect(describeJsonProblem('{"a": 1, "b": {"a": 2}, "c": "a"}')).toBeUndefined();
    expect(describeJsonProblem('{"a": 1, "\\u0061": 2}')).toBe(
      'it repeats the key "a" in $ (parsers differ on which one counts); keep one',
    );
    expect(describeJsonProblem('{"x": [{"k": "\\"{,"}, {"k": 1, "k": 2}]}')).toBe(
      'it repeats the key "k" in $.x[1] (parsers differ on which one counts); keep one',
    );
    const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(describeJsonProblem(nested(MAX_MANIFEST_DEPTH))).toBeUndefined();
    expect(describeJsonProblem(nested(MAX_MANIFEST_DEPTH + 1))).toContain('more than 64 deep (at $[0][0][0]');
    // Through verifyPackage: the icons' second "src" would win in JavaScript, the first in other parsers.
    const twice = (id: string) =>
      JSON.stringify({ ...validManifest(), id }).replace('"src":', '"src":"icons/none.png","src":');
    expect(await verifyPackage(await signedApp({}, {}, twice)).catch((e) => e)).toMatchObject({
      code: 'invalid-manifest',
      message:
        '/manifest.json is refused: it repeats the key "src" in $.icons[0] (parsers differ on which one counts); keep one',
    });
  });
});

describe('paths and content types a host in another language could read otherwise (F4, F7)', () => {
  it.each([
    ['/C:/x.js', 'it holds ":" (Windows reads it as a drive, such as C:, or as a stream of a file)'],
    ['/a/.../x.js', 'its segment "..." is only dots, which Windows reads as the folder itself'],
    ['/x.js.', 'its segment "x.js." ends with ".", which Windows drops (it would open "x.js")'],
    ['/NUL', 'its segment "NUL" is a Windows device name'],
    ['/a/com1.tar.gz', 'its segment "com1.tar.gz" is a Windows device name'],
    ['/conout$.txt', 'its segment "conout$.txt" is a Windows device name'],
  ])('refuses the path %s', async (path, problem) => {
    const refused = await verifyPackage(await signedApp({ [path]: 'x' })).catch((e) => e);
    expect(refused).toMatchObject({ code: 'bad-path', message: expect.stringContaining(problem) });
  });

  it('accepts names that only look like those: a device name inside a longer one, dots inside, a leading dot', async () => {
    const extra = { '/console.js': 'x', '/nul-x.js': 'x', '/com10.js': 'x', '/a..b.js': 'x', '/.well-known/x': 'x' };
    const pkg = await verifyPackage(await signedApp(extra));
    expect([...pkg.files.keys()]).toEqual(expect.arrayContaining(Object.keys(extra)));
  });

  it('refuses two paths equal but for case, naming both once', async () => {
    const refused = await verifyPackage(await signedApp({ '/icons/ICON-192.PNG': 'x' })).catch((e) => e);
    expect(refused).toMatchObject({
      code: 'duplicate-path',
      message:
        'the paths "/icons/ICON-192.PNG" and "/icons/icon-192.png" differ only in case: where case is ignored (Windows, macOS) they are one file; rename one',
    });
  });

  it.each([
    ['text/html; charset=utf-8', 'valid'],
    ['application/vnd.api+json', 'valid'],
    ['text/html;charset="a b; c"', 'valid'],
    ['text/html; Charset=UTF-8', 'valid'],
    ['Text/html', 'bad-content-type'],
    ['text/html\u001b[31m', 'bad-content-type'],
    ['text/html\r\nx-frame-options: allow', 'bad-content-type'],
    ['text/html; charset=utf-8\n', 'bad-content-type'],
    ['text/html;', 'bad-content-type'],
    ['text/html; charset', 'bad-content-type'],
    ['text/html; charset="utf-8', 'bad-content-type'],
    ['text/htmlé', 'bad-content-type'],
    ['text', 'bad-content-type'],
    [' text/html', 'bad-content-type'],
    ['', 'bad-content-type'],
    ['text/html; a="x\\"y"; b=c', 'valid'],
    ['text/html; a="x\\', 'bad-content-type'],
    ['text/html; a="x\\\u0001"', 'bad-content-type'],
    ['text/html; a=b c', 'bad-content-type'],
    // Millions of characters in one value or of escapes (once past the stack of one expression over the header).
    [`text/html; a="${'x'.repeat(8 << 20)}"`, 'valid'],
    [`text/html; a="${'\\x'.repeat(4 << 20)}"`, 'valid'],
    [`text/html; a="${'x'.repeat(4 << 20)}`, 'bad-content-type'],
  ])('gives the content type %j of the entry document: %s', async (type, code) => {
    expect(await codeOf(verifyPackage(await signedApp({}, { '/index.html': type })))).toBe(code);
  });

  it('names a content type with its control characters escaped', async () => {
    const refused = await verifyPackage(await signedApp({}, { '/index.html': 'text/html\r\n\u001b\u202e' })).catch(
      (e) => e,
    );
    expect(refused.message).toContain('the content type of /index.html, "text/html\\r\\n\\u001b\\u202e", is not');
  });
});
