import { readFile } from 'node:fs/promises';

/**
 * svc-sdk's own version, read from the package.json beside dist/ or src/: the new project's dependency, and the
 * svc-sdk-dev to install beside it. The two packages are released together at one version, so svc-sdk-dev's
 * package.json answers too (its bin runs `svc init` as well).
 */
export async function sdkVersion(): Promise<string> {
  for (const candidate of ['../package.json', '../../package.json']) {
    const text = await readFile(new URL(candidate, import.meta.url), 'utf8').catch(() => '');
    const json = text ? (JSON.parse(text) as { name?: string; version?: string }) : {};
    if ((json.name === 'svc-sdk' || json.name === 'svc-sdk-dev') && json.version) return json.version;
  }
  return '0.1.0';
}
