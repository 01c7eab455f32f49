import { dirname, resolve } from 'node:path';
import { isPackageError, type PackageFile, type PackageSigner, verifyPackage } from '../../../package';
import { readIntegrityBlock } from '../../../package/readPackage';
import { readPackageFile } from '../../../package/readPackageFile';
import { type DevApp, DevAppError } from '../readAppDir';

/** The app of a signed package: its verified manifest, its files, and the keys that signed it. */
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

const refusal = (path: string, error: unknown) => {
  if (!isPackageError(error)) return error;
  // svc dev and svc mcp trust no key given by hand: the store's record in the state file is theirs.
  const hint =
    error.code === 'untrusted-key' ? ' (svc dev and svc mcp trust the key the store of their --state file binds)' : '';
  return new DevAppError(`${path} is not a package a host would run (${error.code}): ${error.message}${hint}`);
};

/**
 * Reads a signed package (`.swbn`) and its id, and returns `verify`, which runs every check a host runs before it
 * opens it (`verifyPackage`), trusting the given keys for the id (the store's record after a key rotation).
 * @throws {@link DevAppError} naming the file, the failed check's code and what to do, when it is unreadable or
 * invalid: a tampered package never starts.
 */
export async function openAppPackage(file: string) {
  const path = resolve(file);
  let bytes: Uint8Array;
  try {
    bytes = await readPackageFile(path);
  } catch (error) {
    if (isPackageError(error)) throw refusal(path, error);
    throw new DevAppError(
      `${path}: cannot be read (${(error as NodeJS.ErrnoException).code}); pass the .swbn file \`svc pack\` wrote.`,
      { unreadable: true },
    );
  }
  let id: string;
  try {
    // The integrity block only: nothing of the bundle is parsed before its signatures are checked.
    id = readIntegrityBlock(bytes).id;
  } catch (error) {
    throw refusal(path, error);
  }
  return {
    id,
    async verify(trustedKeys: Uint8Array[]): Promise<DevPackageApp> {
      try {
        const pkg = await verifyPackage(bytes, { trustedKeys });
        const { manifest, files, signers } = pkg;
        return { dir: dirname(path), file: path, manifest, files, bytes, signers };
      } catch (error) {
        throw refusal(path, error);
      }
    },
  };
}
