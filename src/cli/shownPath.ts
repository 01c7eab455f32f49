import { isAbsolute, relative, sep } from 'node:path';

/**
 * A path as a message shows it: from the working folder when it is inside it (`app/manifest.json`, `.` for the folder
 * itself), else whole (`/dev/zero`, not `../../dev/zero`).
 */
export function shownPath(cwd: string, path: string): string {
  const from = relative(cwd, path);
  if (!from) return '.';
  return from === '..' || from.startsWith(`..${sep}`) || isAbsolute(from) ? path : from;
}
