import { segmentKey } from './routeKey';

/**
 * The launch parameters of a deep link, when it matches one of the manifest's routes (`/poll/:id` matches
 * `/poll/7` as `{ route: '/poll/:id', id: '7' }`); `undefined` when no declared route matches, so a link can
 * never launch the app somewhere it did not declare. Segments are compared percent-decoded and in NFC on both sides
 * (`/caf%C3%A9` opens a declared `/café`); a `:name` parameter is its segment percent-decoded, as sent. A link whose
 * percent-encoding is malformed, or that has a fragment (`#…`), matches nothing (it is never thrown on).
 * @internal
 */
export function matchRoute(routes: { path: string }[], link: string): Record<string, string> | undefined {
  // A route has no fragment: one would end up inside a parameter or the query's last value.
  if (link.includes('#')) return undefined;
  const queryAt = link.indexOf('?');
  const path = queryAt < 0 ? link : link.slice(0, queryAt);
  const query = queryAt < 0 ? '' : link.slice(queryAt + 1);
  const parts = path.split('/').filter(Boolean);
  const keys = parts.map(segmentKey);
  if (keys.includes(undefined)) return undefined;
  for (const route of routes) {
    const pattern = route.path.split('/').filter(Boolean);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = { route: route.path };
    const fits = pattern.every((p, i) => {
      // A route's own malformed escape is compared as written: the manifest's check names it.
      if (!p.startsWith(':')) return (segmentKey(p) ?? p) === keys[i];
      params[p.slice(1)] = decodeURIComponent(parts[i]!);
      return true;
    });
    if (fits) return { ...Object.fromEntries(new URLSearchParams(query)), ...params };
  }
  return undefined;
}
