import { brandedError, hasErrorBrand } from '../protocol/errorBrand';

/**
 * Why a package was refused; PACKAGE.md lists the check behind each code, in the order they run.
 * @public
 */
export type PackageErrorCode =
  | 'empty'
  | 'too-large'
  | 'truncated'
  | 'bad-magic'
  | 'unsupported-version'
  | 'malformed'
  | 'bad-id'
  | 'no-signature'
  | 'unknown-signature-type'
  | 'bad-key'
  | 'bad-signature'
  | 'untrusted-key'
  | 'bad-path'
  | 'duplicate-path'
  | 'bad-content-type'
  | 'missing-file'
  | 'invalid-manifest'
  | 'id-mismatch';

/**
 * A package could not be read or failed a check. The message says what is wrong and what to do; it never holds a
 * private key.
 * @public
 */
export class PackageError extends brandedError('PackageError') {
  /** The machine-readable reason, stable across versions (the test vectors name them). */
  readonly code: PackageErrorCode;

  constructor(code: PackageErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * Whether `value` is a {@link PackageError}, across bundles and realms.
 * @public
 */
export function isPackageError(value: unknown): value is PackageError {
  return hasErrorBrand(value, 'PackageError');
}
