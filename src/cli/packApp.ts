import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BundleBuilder } from 'wbn';
import { IntegrityBlockSigner, NodeCryptoSigningStrategy } from 'wbn-sign';
import { checkPlaceholders, type Manifest, validateManifest } from '../manifest';
import { PackageError, verifyPackage } from '../package';
import { secretIn } from '../package/secretIn';
import { checkPackageFiles } from './checkPackageFiles';
import { hostOriginsTagIn } from './hostOriginsTagIn';
import { listAppFiles, projectFolderWarning, vanished } from './listAppFiles';
import { packageOverLimit, packageTooLarge } from './packageOverLimit';
import { type DeveloperKey, privateKeyForms } from './developerKeys';
import { contentTypeOf } from '../package/contentTypeOf';
import { readJsonFile } from './readJsonFile';

/** What {@link packApp} made, or every reason it refused. */
export type PackResult =
  | { ok: true; bytes: Uint8Array; manifest: Manifest; files: string[]; skipped: string[]; warnings: string[] }
  | { ok: false; problems: string[] };

/**
 * Packs an app folder into a signed package: validates it as `svc validate <folder>` does, refuses a manifest `id`
 * derived from none of the keys (unless `rotated`), bundles every file at its path (wbn) and signs the bundle with
 * every key (wbn-sign). The same folder and Ed25519 keys give the same bytes. The package is verified before it is
 * returned, with the checks a host runs.
 */
export async function packApp(options: { dir: string; keys: DeveloperKey[]; rotated?: boolean }): Promise<PackResult> {
  const { dir, keys } = options;
  const read = await readJsonFile(join(dir, 'manifest.json'), join(dir, 'manifest.json'));
  if (!read.ok) return { ok: false, problems: [read.message] };
  const result = validateManifest(read.value);
  const missing = await checkPackageFiles(dir, read.value as object);
  const errors = [...(result.ok ? [] : result.issues), ...missing].filter((i) => i.severity === 'error');
  const ids = keys.map((key) => key.id);
  // Every problem the manifest, the keys and the file names have, at once, as `svc validate <folder>` lists them: a
  // CI run should not fix them one at a time.
  const problems = errors.map((issue) => `manifest.json: ${issue.message}`);
  if (result.ok && !options.rotated && !ids.includes(result.manifest.id))
    problems.push(
      `manifest.json: $.id ${result.manifest.id} is derived from none of the signing keys (${keys.map((k) => `${k.id} from ${k.file}`).join(', ')}); ` +
        `sign with the key of ${result.manifest.id}, or write "id": "${ids[0]}" in manifest.json for a new app` +
        ` (after the store moved ${result.manifest.id} to a new key, pass --rotated)`,
    );
  const listed = await listAppFiles(dir);
  problems.push(...listed.problems);
  // More files than a bundle holds, or more bytes than a package holds with the files' index and headers: refused
  // from the file system's sizes before anything is read or built (a video in the folder is not read whole first).
  const overLimit = packageOverLimit(listed.files);
  if (overLimit) problems.push(overLimit);
  if (!result.ok || problems.length > 0) return { ok: false, problems };
  const { manifest } = result;
  const warnings = [...result.warnings, ...checkPlaceholders(read.value)].map((i) => `manifest.json: ${i.message}`);
  const builder = new BundleBuilder('b2');
  // Exported once per pack, not per file.
  const keyForms = keys.flatMap(({ privateKey }) => privateKeyForms(privateKey));
  for (const { path, full } of listed.files) {
    const body = await readFile(full).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      problems.push(vanished(path.slice(1)));
      return undefined;
    });
    if (!body) continue;
    const secret = secretIn(body, keyForms);
    if (secret) problems.push(`${path.slice(1)} ${secret.what}; ${secret.advice} (move it, then pack again)`);
    const tag = hostOriginsTagIn(path, body);
    if (tag) warnings.push(tag);
    builder.addExchange(path, 200, { 'content-type': contentTypeOf(path) }, body);
  }
  if (problems.length > 0) return { ok: false, problems };
  const bundle = builder.createBundle();
  const signer = new IntegrityBlockSigner(
    bundle,
    manifest.id,
    keys.map((key) => new NodeCryptoSigningStrategy(key.privateKey)),
  );
  const { signedWebBundle } = await signer.sign();
  const trustedKeys = keys.map((key) => new Uint8Array(key.publicKey.export({ type: 'spki', format: 'der' })));
  // What the package is checked for before it is written: a refusal is a problem of the folder's, said as one (a file
  // replaced while it was read, a rule the folder's own checks above missed), never a stack trace.
  const refused = await verifyPackage(signedWebBundle, { trustedKeys, maxBytes: Number.MAX_SAFE_INTEGER }).then(
    () => undefined,
    (error: unknown) => {
      if (!(error instanceof PackageError)) throw error;
      return `the package built from it does not verify (${error.code}): ${error.message}`;
    },
  );
  if (refused) return { ok: false, problems: [refused] };
  // Another kind of key, or more than one, signs with more bytes than the check above counted.
  const tooLarge = packageTooLarge(listed.files, signedWebBundle.length);
  if (tooLarge) return { ok: false, problems: [tooLarge] };
  warnings.push(...contentWarnings(listed.files));
  return {
    ok: true,
    bytes: signedWebBundle,
    manifest,
    files: listed.files.map((f) => f.path),
    skipped: listed.skipped,
    warnings,
  };
}

/** A few names of `files`, and how many more. */
const someOf = (files: readonly { path: string }[]) =>
  `${files
    .slice(0, 3)
    .map((f) => f.path.slice(1))
    .join(', ')}${files.length > 3 ? `, ${files.length - 3} more` : ''}`;

/**
 * What in a package's files will not work as its author expects, said before it ships: WebAssembly (compiled under
 * no mini app's policy), a build's compressed copies of its files, a project's node_modules/.
 */
function contentWarnings(files: readonly { path: string; size: number }[]): string[] {
  const warnings: string[] = [];
  const wasm = files.filter((f) => f.path.toLowerCase().endsWith('.wasm'));
  if (wasm.length)
    warnings.push(
      `the package holds WebAssembly (${someOf(wasm)}), which no mini app can run: its csp's script-src is 'self' only, and 'wasm-unsafe-eval' is refused (it would let an app compile code fetched from any host it reaches); ship that code as JavaScript`,
    );
  // vite-plugin-compression's copies: a host serves each as a file of its own, never as the other's encoding.
  const paths = new Set(files.map((f) => f.path));
  const copies = files.filter((f) => /\.(?:gz|br)$/.test(f.path) && paths.has(f.path.replace(/\.(?:gz|br)$/, '')));
  if (copies.length)
    warnings.push(
      `the package holds ${copies.length} compressed copies of its files (${someOf(copies)}, ${copies.reduce((n, f) => n + f.size, 0)} bytes): a host serves each as a file of its own, never as the other's encoding; turn the build's compression off`,
    );
  const projectFolder = projectFolderWarning(files);
  if (projectFolder) warnings.push(projectFolder);
  return warnings;
}
