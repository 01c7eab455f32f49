/**
 * `svc-sdk/package`: signed packages (`.swbn`, a Signed Web Bundle with a version 2 integrity block) for hosts and
 * tools: read one, verify one before running it, and derive an id from a developer key. WebCrypto only, so it runs
 * in browsers and Node. PACKAGE.md describes the format and every check.
 * @packageDocumentation
 */
export { derivePackageId } from './derivePackageId';
export { readPackage, MAX_PACKAGE_BYTES } from './readPackage';
export type { PackageContents, PackageFile, PackageSignature, ReadPackageOptions } from './readPackage';
export { verifyPackage } from './verifyPackage';
export type { PackageSigner, VerifiedPackage, VerifyPackageOptions } from './verifyPackage';
export { PackageError, isPackageError, type PackageErrorCode } from './PackageError';
export type { SignatureType } from './packageKeys';
export type { WebCryptoKey } from '../protocol/WebCryptoKey';
