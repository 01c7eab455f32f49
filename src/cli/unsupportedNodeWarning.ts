/** The Node releases svc-sdk and svc-sdk-dev support: both package.json files' `engines` (a test keeps them equal). */
export const SUPPORTED_NODE = '^20.19.0 || >=22.12.0';

/**
 * The line the bins print first on a Node older than {@link SUPPORTED_NODE}, or undefined on a supported one. npm
 * only warns about `engines` (and npx not even that), and on an older Node some commands fail with errors that do not
 * say why: `svc pack` (it reads `Dirent.parentPath`, Node 20.12), and `require()` of svc-sdk/server (jose is an ES
 * module, which `require()` loads from 20.19 and 22.12). The command still runs: most work there.
 */
export function unsupportedNodeWarning(bin: string, version: string = process.versions.node): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if ((major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 23) return undefined;
  return `${bin}: Node ${version} is older than this package supports (${SUPPORTED_NODE}), and some commands fail on it: install Node 20.19 or later.\n`;
}
