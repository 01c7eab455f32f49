import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { isPackageError, type PackageFile, type PackageSigner, verifyPackage } from '../../package';
import { type DevApp, DevAppError } from '../readAppDir';

/** The app of a signed package: its verified manifest, its files, and the keys that signed it. @public */
export interface DevPackageApp extends DevApp {
  /** The package's files by path (`/index.html`): the only ones the package server serves. */
  files: ReadonlyMap<string, PackageFile>;
  /** The package file (absolute). */
  file: string;
  /** The package's exact bytes (what the store records). */
  bytes: Uint8Array;
  /** The keys that signed it. */
  signers: PackageSigner[];
}

/**
 * Reads a signed package (`.swbn`) and runs every check a host runs before opening it (`verifyPackage`).
 * @throws {@link DevAppError} naming the file, the failed check's code and what to do, when it is unreadable or
 * invalid: a tampered package never starts.
 * @public
 */
export async function readAppPackage(file: string, trustedKeys: Uint8Array[] = []): Promise<DevPackageApp> {
  const path = resolve(file);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    throw new DevAppError(
      `${path}: cannot be read (${(error as NodeJS.ErrnoException).code}); pass the .swbn file \`svc pack\` wrote.`,
    );
  }
  try {
    const pkg = await verifyPackage(bytes, { trustedKeys });
    return { dir: dirname(path), file: path, manifest: pkg.manifest, files: pkg.files, bytes, signers: pkg.signers };
  } catch (error) {
    if (!isPackageError(error)) throw error;
    throw new DevAppError(`${path} is not a package a host would run (${error.code}): ${error.message}`);
  }
}
