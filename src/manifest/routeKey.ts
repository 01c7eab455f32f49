/**
 * A route path as routes are told apart and links matched to them: each segment percent-decoded and the whole in
 * NFC, so `/café`, `/caf%C3%A9` (how a URL library writes it) and `/cafe\u0301` (the decomposed spelling some
 * editors save) are one route. An encoded `/` stays encoded: `/a%2Fb` is one segment, not two.
 * @internal
 */
export function routeKey(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment).replaceAll('/', '%2F');
      } catch {
        // A malformed escape (`%E0`) is kept as written: the route's own rules refuse it where it matters.
        return segment;
      }
    })
    .join('/')
    .normalize('NFC');
}
