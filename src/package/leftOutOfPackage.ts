/**
 * Why `svc pack` leaves a file of the app folder out of the package, from its path's segments below the folder: a
 * dotfile or a file in a dot-folder (.git, .env), an earlier package (.swbn), or TypeScript declarations (.d.ts,
 * which the editor reads and no page loads: `svc types` writes svc-actions.d.ts beside a manifest in the app's own
 * folder); undefined for a file it packs. `svc dev` serves the folder by the same rule, so an app does not load here
 * what it would miss once packed.
 * @internal
 */
export function leftOutOfPackage(segments: readonly string[]): 'dotfile' | 'package' | 'declarations' | undefined {
  if (segments.some((segment) => segment.startsWith('.'))) return 'dotfile';
  const name = segments.at(-1) ?? '';
  if (name.endsWith('.swbn')) return 'package';
  if (/\.d\.[cm]?ts$/.test(name)) return 'declarations';
  return undefined;
}
