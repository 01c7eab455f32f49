import { stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { ManifestIssue } from '../manifest';

const isFile = (path: string) =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * Checks that the files a manifest names exist in its package folder: the `entry` document and each icon's `src`
 * (relative to the folder, never outside it). Errors: a package without them cannot be installed or opened.
 * @param dir - the package folder (where manifest.json is).
 */
export async function checkPackageFiles(
  dir: string,
  manifest: { entry?: unknown; icons?: unknown },
): Promise<ManifestIssue[]> {
  const root = resolve(dir);
  const wanted: { path: string; file: string; what: string }[] = [];
  if (typeof manifest.entry === 'string')
    wanted.push({ path: '$.entry', file: manifest.entry, what: 'the entry document' });
  if (Array.isArray(manifest.icons))
    manifest.icons.forEach((icon: { src?: unknown }, i) => {
      if (typeof icon?.src === 'string') wanted.push({ path: `$.icons[${i}].src`, file: icon.src, what: 'this icon' });
    });
  const issues: ManifestIssue[] = [];
  for (const { path, file, what } of wanted) {
    const full = resolve(root, file.split('?')[0]!.split('#')[0]!);
    const inside = full.startsWith(root + sep);
    if (inside && (await isFile(full))) continue;
    issues.push({
      path,
      message: inside
        ? `${path} names ${file}, which is not in ${join(root)}; add ${what} to the package or fix the path`
        : `${path} names ${file}, outside the package folder; keep every file inside it`,
      severity: 'error',
      code: 'missing_file',
    });
  }
  return issues;
}
