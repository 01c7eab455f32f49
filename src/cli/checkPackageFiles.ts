import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ManifestIssue } from '../manifest';
import { packagePathOf } from '../package/readPackage';
import { listAppFiles, projectFolderWarning } from './listAppFiles';
import { packageOverLimit } from './packageOverLimit';

const isFile = (path: string) =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * Checks that the files a manifest names exist in its package folder: the `entry` document and each icon's `src`,
 * each a path from the folder's root as a host reads it in the package (`packagePathOf`: no leading `/`, no `..`).
 * Errors: a package without them cannot be installed or opened.
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
    const inPackage = packagePathOf(file);
    if (inPackage && (await isFile(join(root, inPackage)))) continue;
    issues.push({
      path,
      message: inPackage
        ? `${path} names ${file}, which is not in ${join(root)}; add ${what} to the package or fix the path`
        : `${path} names ${file}, which is no path inside the package folder (no leading "/", no ".." or "//"); write it from the folder's root, such as icons/icon-192.png`,
      severity: 'error',
      code: 'missing_file',
    });
  }
  return issues;
}

/**
 * Checks the package folder as `svc pack` will, without reading a file: names a package cannot hold, links, and the
 * package's limits (its files' count, their sizes from the file system, and the index and headers they add). An error
 * for each, so a build that `svc validate dist` checks fails there, not at `svc pack`.
 * @param dir - the package folder (where manifest.json is).
 */
export async function checkPackable(dir: string): Promise<ManifestIssue[]> {
  const root = resolve(dir);
  const listed = await listAppFiles(root);
  const overLimit = packageOverLimit(listed.files);
  // A name a package cannot hold, or a link: svc pack refuses the folder for each, so a build's check says so first.
  const refused = [...listed.problems, ...(overLimit ? [overLimit] : [])];
  const issues: ManifestIssue[] = refused.map((problem) => ({
    path: '$',
    message: `svc pack would refuse ${root}: ${problem}`,
    severity: 'error',
    code: problem === overLimit ? 'too_large' : 'bad_file',
  }));
  const projectFolder = projectFolderWarning(listed.files);
  if (projectFolder) issues.push({ path: '$', message: projectFolder, severity: 'warning', code: 'project_folder' });
  return issues;
}
