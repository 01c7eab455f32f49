/**
 * A path segment as routes and links are compared: percent-decoded and in NFC, so `caf%C3%A9` (how a URL library
 * writes it), `café` and `cafe\u0301` (the decomposed spelling some editors save) are one segment; undefined when its
 * percent-encoding is malformed (`%E0`).
 * @internal
 */
export function segmentKey(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment).normalize('NFC');
  } catch {
    return undefined;
  }
}

/**
 * A route path as routes are told apart: each segment as {@link segmentKey} has it, so `/café`, `/caf%C3%A9` and
 * `/cafe\u0301` are one route. An encoded `/` stays encoded (`/a%2Fb` is one segment, not two), and a malformed
 * escape is kept as written: the route's own rules refuse it where it matters.
 * @internal
 */
export function routeKey(path: string): string {
  return path
    .split('/')
    .map((segment) => (segmentKey(segment) ?? segment).replaceAll('/', '%2F'))
    .join('/');
}

/**
 * Whether a link's query (the text after `?`) decodes to text: each name and value form-decoded (`+` a space) with
 * no malformed escape. URLSearchParams reads `%ZZ` or the half character `%C3` as U+FFFD without a word.
 * @internal
 */
export const queryDecodes = (query: string): boolean =>
  query.split('&').every((pair) => segmentKey(pair.replaceAll('+', ' ')) !== undefined);

/**
 * A character no URL library leaves as it is in a link (a control character, a space of any kind, a line or
 * paragraph separator): `new URL`, Go's `url.URL` and Java's `URI` percent-encode it, so a link holding one was never
 * written by one, and opens nothing.
 * @internal
 */
export const RAW_IN_LINK: RegExp = /[\p{Cc}\p{Zs}\u2028\u2029]/u;
