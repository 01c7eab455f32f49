import { redactSecrets } from './redactSecrets';

/**
 * A request path as a problem's `instance` and the terminal may show it: anything token-shaped and each of `secrets`
 * redacted, also where percent-encoding hid it (a token with an encoded zero-width space or line break, `%E2%80%8B`,
 * `%0A`, that only its decoding joins up): then the decoded path, redacted, is shown.
 * @internal
 */
export function redactPath(path: string, secrets: readonly string[] = []): string {
  const said = redactSecrets(path, secrets);
  if (!path.includes('%')) return said;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return said;
  }
  const decodedSaid = redactSecrets(decoded, secrets);
  return decodedSaid === decoded ? said : decodedSaid;
}
