import { type Manifest, validateManifest } from '../manifest';
import { derivePackageId, spkiOf } from './derivePackageId';
import { describeJsonProblem } from './findJsonProblem';
import type { WebCryptoKey } from '../protocol/WebCryptoKey';
import { ownBytes, type SignatureType, verifySignature } from './packageKeys';
import { PackageError } from './PackageError';
import {
  checkBundleLength,
  packagePathOf,
  type PackageFile,
  type PackageSignature,
  type ReadPackageOptions,
  readIndexedBundle,
  readIntegrityBlock,
} from './readPackage';

/** A key that signed a package, with the id derived from it. @public */
export interface PackageSigner {
  type: SignatureType;
  /** The public key, SPKI DER. */
  publicKey: Uint8Array;
  /** The id derived from it (see `derivePackageId`). */
  id: string;
  /** Whether it is one of the `trustedKeys` the caller passed. */
  trusted: boolean;
}

/** A package whose every check passed. @public */
export interface VerifiedPackage {
  /** The svc id (the integrity block's `webBundleId`, equal to the manifest's `id`). */
  id: string;
  /** The manifest's `version`. */
  version: string;
  /** Every key that signed it, in the order of the signatures. */
  signers: PackageSigner[];
  /** The validated `/manifest.json`. */
  manifest: Manifest;
  /** Every file, by path (`/manifest.json`, `/index.html`, ...). */
  files: ReadonlyMap<string, PackageFile>;
}

/** Options of {@link verifyPackage}. @public */
export interface VerifyPackageOptions extends ReadPackageOptions {
  /**
   * Public keys bound to the package's id although the id is not derived from them (after a key rotation, the store's
   * record of the id's key): a package signed by one of them passes the id check. Extractable `CryptoKey`s, or the
   * SPKI DER bytes of Ed25519 or P-256 keys; anything else is a TypeError naming it, not a key silently ignored.
   */
  trustedKeys?: readonly (WebCryptoKey | Uint8Array)[];
}

const lengthPrefixed = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + 8 + p.length, 0));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const part of parts) {
    view.setBigUint64(at, BigInt(part.length));
    out.set(part, at + 8);
    at += 8 + part.length;
  }
  return out;
};

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

async function checkSignature(signature: PackageSignature, index: number, message: Uint8Array): Promise<void> {
  let valid: boolean;
  try {
    valid = await verifySignature(signature.type, signature.publicKey, signature.signature, message);
  } catch (error) {
    if (error instanceof PackageError) throw error;
    throw new PackageError(
      'bad-key',
      `signature ${index + 1}'s ${signature.type} public key cannot be used (${(error as Error).message})`,
    );
  }
  if (!valid)
    throw new PackageError(
      'bad-signature',
      `signature ${index + 1} (${signature.type}) does not match the package: its bytes changed after signing, or it was signed over other bytes; get the file again, or repack and sign it with \`svc pack\``,
    );
}

/**
 * Verifies a signed package (`.swbn`) as a host must before it runs it: the integrity block, every signature (Ed25519
 * or ECDSA P-256, WebCrypto), that the id is derived from a signing key (or a signer is one of `trustedKeys`), the
 * file paths, and that `/manifest.json` is a valid manifest whose `id` is the package's and whose entry and icons
 * are inside. Runs in browsers and Node (no Node-only API). PACKAGE.md describes each check, in this order.
 * @param given - the package's bytes: a Uint8Array (a Node Buffer too) or an ArrayBuffer (`response.arrayBuffer()`).
 * @throws {@link PackageError} with the `code` of the first check that fails and a message saying what to do;
 * TypeError for arguments that are no bytes or no keys.
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import { verifyPackage } from 'svc-sdk/package';
 *
 * const pkg = await verifyPackage(new Uint8Array(await readFile('polls-1.2.0.swbn')));
 * console.log(pkg.id, pkg.version, pkg.signers.map((s) => s.id));
 * ```
 * @public
 */
export async function verifyPackage(
  given: Uint8Array | ArrayBuffer,
  options: VerifyPackageOptions = {},
): Promise<VerifiedPackage> {
  // What fetch's arrayBuffer() gives is taken as it is. By their tags, not instanceof: a test environment (Jest's
  // jsdom) gives Node's Buffer a Uint8Array of another realm.
  const tag = Object.prototype.toString.call(given);
  const bytes = tag === '[object ArrayBuffer]' ? new Uint8Array(given as ArrayBuffer) : (given as Uint8Array);
  if (tag !== '[object ArrayBuffer]' && tag !== '[object Uint8Array]')
    throw new TypeError(
      "verifyPackage(): pass the package's bytes, a Uint8Array or an ArrayBuffer (such as a Node Buffer, or new Uint8Array(await response.arrayBuffer()))",
    );
  // The caller's keys first: a wrong argument is the caller's to fix whatever the package holds.
  const keys = options.trustedKeys ?? [];
  if (!Array.isArray(keys)) throw new TypeError('trustedKeys: pass an array of keys (one key goes in [ ])');
  const trusted = await Promise.all(keys.map((key, i) => spkiOf(key, `trustedKeys[${i}]`)));
  const block = readIntegrityBlock(bytes, options);
  const bundle = bytes.subarray(block.bundleStart);
  checkBundleLength(bundle);
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-512', ownBytes(bundle)));
  for (const [i, signature] of block.signatures.entries())
    await checkSignature(signature, i, lengthPrefixed([hash, block.unsignedBlock, signature.attributes]));

  const signers: PackageSigner[] = [];
  for (const signature of block.signatures)
    signers.push({
      type: signature.type,
      publicKey: signature.publicKey,
      id: await derivePackageId(signature.publicKey),
      trusted: trusted.some((key) => sameBytes(key, signature.publicKey)),
    });
  if (!signers.some((s) => s.id === block.id || s.trusted))
    throw new PackageError(
      'untrusted-key',
      `the package id ${block.id} is derived from none of its signing keys (ids ${signers.map((s) => s.id).join(', ')}), and no signer is a trusted key: sign with the key of ${block.id}, or, after a key rotation, trust the key the id is bound to`,
    );

  const files = readIndexedBundle(bundle);
  const manifestFile = files.get('/manifest.json');
  if (!manifestFile)
    throw new PackageError('missing-file', 'the package has no /manifest.json; pack the folder that holds it');
  let json: unknown;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(manifestFile.body);
    json = JSON.parse(text);
  } catch (error) {
    throw new PackageError('invalid-manifest', `/manifest.json is not UTF-8 JSON (${(error as Error).message})`);
  }
  // Before validation, which recurses: a text nested thousands deep would overflow its stack.
  const jsonProblem = describeJsonProblem(text);
  if (jsonProblem) throw new PackageError('invalid-manifest', `/manifest.json is refused: ${jsonProblem}`);
  const result = validateManifest(json);
  if (!result.ok)
    throw new PackageError(
      'invalid-manifest',
      `/manifest.json is not a valid manifest:\n${result.issues.map((issue) => `  ${issue.message}`).join('\n')}`,
    );
  const { manifest } = result;
  if (manifest.id !== block.id)
    throw new PackageError(
      'id-mismatch',
      `the manifest's id ${manifest.id} differs from the package's ${block.id}: write ${block.id} in manifest.json, or sign with the key of ${manifest.id}`,
    );
  const named = [
    { src: manifest.entry, what: '$.entry' },
    ...manifest.icons.map((icon, i) => ({ src: icon.src, what: `$.icons[${i}].src` })),
  ];
  for (const { src, what } of named) {
    const path = packagePathOf(src);
    if (!path)
      throw new PackageError(
        'missing-file',
        `${what} names ${src}, which is no path inside the package; write it from the package's root, such as icons/icon-192.png`,
      );
    if (!files.has(path))
      throw new PackageError('missing-file', `${what} names ${src}, which is not in the package; add it and repack`);
  }
  return { id: block.id, version: manifest.version, signers, manifest, files };
}
