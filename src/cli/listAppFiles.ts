import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { printable } from '../manifest/printable';
import { leftOutOfPackage } from '../package/leftOutOfPackage';
import { describePathProblem } from '../package/readPackage';

/**
 * Every file under `dir` by its package path, with its size from the file system (so that the package's limits are
 * checked before any file is read), and what is left out (dot-files, packages) or refused (links,
 * names a package cannot hold): what `svc pack` packs, and what `svc validate <folder>` sums.
 */
export async function listAppFiles(dir: string) {
  const files: { path: string; full: string; size: number }[] = [];
  const skipped: string[] = [];
  const problems: string[] = [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    // A folder a build empties and writes again (vite build --watch) may lose a subfolder while it is walked.
    if (error.code !== 'ENOENT' || error.path === dir) throw error;
    problems.push(vanished(relative(dir, error.path ?? dir)));
    return [];
  });
  for (const entry of entries) {
    const full = join(entry.parentPath, entry.name);
    const rel = relative(dir, full);
    const parts = rel.split(sep);
    // Dot-files (.git, .vscode, .env) and earlier packages are never part of the app.
    if (leftOutOfPackage(parts)) {
      if (!parts.slice(0, -1).some((part) => part.startsWith('.'))) skipped.push(rel);
      continue;
    }
    if (entry.isSymbolicLink()) {
      problems.push(
        `${printable(rel)} is a symbolic link; a package holds files only: copy the file in, or remove the link`,
      );
      continue;
    }
    // A folder is carried by its files; a pipe, socket or device is not a file a page can load: named, not packed.
    if (entry.isDirectory()) continue;
    if (!entry.isFile()) {
      skipped.push(`${rel} (not a file)`);
      continue;
    }
    const path = `/${parts.join('/')}`;
    const problem = describePathProblem(path);
    // The whole sentence shown printable: the problem quotes the name's odd character too.
    if (problem) problems.push(printable(`${rel} cannot be packed: ${problem}; rename it`));
    else files.push({ path, full, size: 0 });
  }
  // Each file's size from the file system, so that the limit is checked before any is read.
  const sized = await Promise.all(
    files.map(async (f) => {
      const size = await stat(f.full).then(
        (info) => info.size,
        (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
          problems.push(vanished(relative(dir, f.full)));
          return undefined;
        },
      );
      return size === undefined ? [] : [{ ...f, size }];
    }),
  );
  const listed = sized.flat();
  // A byte-wise order, so the same folder always gives the same bundle.
  listed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  problems.push(...caseTwins(listed));
  return { files: listed, skipped: skipped.sort(), problems };
}

/**
 * What `svc pack`, `svc validate` and `svc dev` say of a folder holding `node_modules/`: the project's folder, not
 * the app's build; undefined for another.
 * @internal
 */
export function projectFolderWarning(files: readonly { path: string }[]): string | undefined {
  const dependencies = files.filter((f) => f.path.startsWith('/node_modules/')).length;
  return dependencies
    ? `the package holds node_modules/ (${dependencies} files): this looks like the project's folder, not the app's; pack the folder your build writes (such as dist), which holds the app's own files`
    : undefined;
}

/** What is said of a file that was listed and then was gone: a build is writing the folder. @internal */
export const vanished = (rel: string) =>
  `${printable(rel)} disappeared while the folder was read (is a build writing it?); run again once the build has finished`;

/**
 * Paths equal but for case, each set said once (`Logo.png and logo.png`, `LOGO.png, Logo.png and logo.png`): a package
 * cannot hold two (PACKAGE.md, check 9), since where case is ignored (Windows, macOS) they are one file, and the one
 * written last would replace the other.
 */
function caseTwins(files: readonly { path: string }[]): string[] {
  const byFolded = new Map<string, string[]>();
  for (const { path } of files) {
    // A path a package holds is ASCII: its lowercase is the folding Windows and macOS do.
    const folded = path.toLowerCase();
    const same = byFolded.get(folded);
    if (same) same.push(path);
    else byFolded.set(folded, [path]);
  }
  return [...byFolded.values()]
    .filter((paths) => paths.length > 1)
    .map((paths) => {
      const names = paths.map((path) => path.slice(1));
      const listed = `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
      return printable(
        `${listed} differ only in case: where case is ignored (Windows, macOS) they are one file, so a package cannot hold ${names.length > 2 ? 'more than one' : 'both'}; rename ${names.length > 2 ? 'all but one' : 'one'}`,
      );
    });
}

/** The three largest files, with their sizes, for a refusal over the size limit. */
export const largestFiles = (files: readonly { path: string; size: number }[]) =>
  [...files]
    .sort((a, b) => b.size - a.size)
    .slice(0, 3)
    .map((f) => `${printable(f.path.slice(1))} (${f.size} bytes)`)
    .join(', ');
