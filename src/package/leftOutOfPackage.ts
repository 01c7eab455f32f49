/**
 * Why `svc pack` leaves a file of the app folder out of the package, from its path's segments below the folder: a
 * dotfile or a file in a dot-folder (.git, .env), or an earlier package (.swbn); undefined for a file it packs.
 * `svc dev` serves the folder by the same rule, so an app does not load here what it would miss once packed.
 * @internal
 */
export function leftOutOfPackage(segments: readonly string[]): 'dotfile' | 'package' | undefined {
  if (segments.some((segment) => segment.startsWith('.'))) return 'dotfile';
  if (segments.at(-1)?.endsWith('.swbn')) return 'package';
  return undefined;
}
