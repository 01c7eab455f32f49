// svc-sdk/package against the shipped vectors (and their drift from scripts/packageVectors.ts), against wbn-sign's
// and wbn's own reading of the same packages, and against every single-byte change of a package.
import { createPublicKey } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Bundle } from 'wbn';
import { getBundleId } from 'wbn-sign';
import { describe, expect, it } from 'vitest';
import { buildPackageVectors, type PackageVector, VECTORS_DIR } from '../../scripts/packageVectors';
import { derivePackageId, isPackageError, PackageError, readPackage, verifyPackage } from '../../src/package';
import { readCbor } from '../../src/package/readCbor';

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
    for (const [keys, message] of [
      [[pem], 'trustedKeys[0]: pass a public CryptoKey or its SPKI DER bytes (a Uint8Array); for a PEM file, decode'],
      [[read('valid.swbn'), privateKey], 'trustedKeys[1]: pass a public key; got a private key'],
      [pem, 'trustedKeys: pass an array of keys'],
    ] as const) {
      const error = await verifyPackage(new Uint8Array(0), { trustedKeys: keys as never }).catch((e) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toContain(message);
    }
    // A good key list and an empty file: the package's own error.
    expect(await codeOf(verifyPackage(new Uint8Array(0), { trustedKeys: [] }))).toBe('empty');
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
