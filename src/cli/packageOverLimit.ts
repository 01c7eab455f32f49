import { contentTypeOf } from '../package/contentTypeOf';
import { MAX_BUNDLE_ITEMS, MAX_PACKAGE_BYTES, MAX_PACKAGE_FILES } from '../package/readPackage';
import { largestFiles } from './listAppFiles';

type ListedFile = { readonly path: string; readonly size: number };

/**
 * Why a package of these files would be over a package's limits, said as `svc pack` refuses it, or undefined: more
 * files than a bundle holds, files whose sizes add up to more than the limit, or files under it whose package is over
 * it once each file's index entry and headers and the signature are added. Only the files' paths and sizes are
 * used: nothing is read, so `svc validate <folder>` and `svc dev` say what `svc pack` would, before it runs.
 * @param files - the files `listAppFiles` lists, with their sizes.
 */
export function packageOverLimit(files: readonly ListedFile[]): string | undefined {
  // Both limits at once are said at once, so that fixing one does not reveal the other.
  const count =
    files.length > MAX_PACKAGE_FILES
      ? `the folder holds ${files.length} files, more than the ${MAX_PACKAGE_FILES} a package holds (its web bundle holds at most ${MAX_BUNDLE_ITEMS} CBOR items, 7 a file); merge small files (one JSON per locale rather than one per namespace) or fetch them from your backend`
      : undefined;
  const size = files.reduce((sum, f) => sum + f.size, 0);
  const bytes =
    size > MAX_PACKAGE_BYTES
      ? `the files add up to ${size} bytes, ${size - MAX_PACKAGE_BYTES} over the package limit of ${MAX_PACKAGE_BYTES}; the largest: ${largestFiles(files)}; ship smaller assets (compress images, leave source maps out, fetch large data from your backend)`
      : undefined;
  if (count || bytes) return [count, bytes].filter(Boolean).join('; and ');
  return packageTooLarge(files, packedSizeOf(files));
}

/**
 * The refusal of a package of `bytes` bytes over the limit, saying how much of it its files' index, headers and
 * signature take, or undefined when it is within the limit.
 */
export function packageTooLarge(files: readonly ListedFile[], bytes: number): string | undefined {
  if (bytes <= MAX_PACKAGE_BYTES) return undefined;
  const size = files.reduce((sum, f) => sum + f.size, 0);
  return `the package is ${bytes} bytes, ${bytes - MAX_PACKAGE_BYTES} over the limit of ${MAX_PACKAGE_BYTES}: the files add up to ${size} bytes, and the index, headers and signature of ${files.length} files take ${bytes - size} more; the largest: ${largestFiles(files)}; ship smaller assets or fewer files`;
}

/** The bytes of a CBOR item's head: its major type and its length or value (RFC 8949, section 3). */
const head = (n: number) => (n < 24 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : n < 0x100000000 ? 5 : 9);
/** The bytes of a CBOR byte or text string of `n` bytes. */
const string = (n: number) => head(n) + n;

/**
 * The size of the package `svc pack` writes for these files when one Ed25519 key (what `svc keygen` makes) signs it,
 * counted from their paths and sizes alone as PACKAGE.md lays the package out (a test compares it with packages
 * built): nothing is read, and `svc validate` needs no bundle builder.
 * @internal
 */
export function packedSizeOf(files: readonly ListedFile[]): number {
  let responses = head(files.length);
  let index = head(files.length);
  for (const { path, size } of files) {
    // A response is [headers, body], its headers a map of byte strings {":status": "200", "content-type": …}.
    const headers = 1 + string(7) + string(3) + string(12) + string(Buffer.byteLength(contentTypeOf(path)));
    const response = 1 + string(headers) + string(size);
    // The index maps the path to [the response's offset in the responses section, its length].
    index += string(Buffer.byteLength(path)) + 1 + head(responses) + head(response);
    responses += response;
  }
  // The section lengths, ["index", its length, "responses", theirs], are a byte string of their CBOR.
  const sectionLengths = 1 + string(5) + head(index) + string(9) + head(responses);
  // [magic, version, section lengths, [index, responses], the bundle's length in 8 bytes]
  const bundle = 1 + string(8) + string(4) + string(sectionLengths) + 1 + index + responses + string(8);
  // The integrity block: [magic, version, {"webBundleId": the app's id}, [[{"ed25519PublicKey": key}, signature]]].
  const integrityBlock =
    1 + string(8) + string(4) + 1 + string(11) + string(16) + 1 + 1 + 1 + string(16) + string(32) + string(64);
  return integrityBlock + bundle;
}
