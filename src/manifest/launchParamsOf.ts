import { queryDecodes, RAW_IN_LINK, segmentKey } from './routeKey';

/**
 * The launch parameters (`launch_params`) a host gives an app opened by a deep link (a card's or notification's
 * `deep_link`), when the link matches one of the manifest's routes: `/poll/:id` matches `/poll/7?tab=votes` as
 * `{ tab: 'votes', id: '7', route: '/poll/:id' }`. `undefined` when no declared route matches, so a link can never
 * launch the app somewhere it did not declare.
 *
 * @remarks
 * The rule, which every host follows so an app sees the same parameters in each (PROTOCOL.md, section 2): the routes
 * are tried in the manifest's order and the first that matches wins; a route matches when it has as many segments
 * (empty ones ignored) and each literal segment equals the link's, both percent-decoded and in NFC (`/caf%C3%A9`
 * opens a declared `/café`), a `:name` segment matching any one. The parameters are the query's (form-decoded, `+`
 * a space, a repeated name keeping its last value), then each `:name` as its segment percent-decoded, then `route`,
 * the matched route's path as declared; a later one replaces an earlier one of the same name. A link that does not
 * start with a single `/`, that holds a character no URL library leaves as it is (a control character or a space),
 * whose percent-encoding is malformed, in its path or its query, or that has a fragment (`#…`), matches nothing (it
 * is never thrown on): the links the platform refuses to send are the links no host opens.
 * @param routes - the manifest's `routes`.
 * @param link - the deep link, a path inside the app with an optional query (`/poll/7?tab=votes`).
 * @public
 */
export function launchParamsOf(routes: { path: string }[], link: string): Record<string, string> | undefined {
  // A route has no fragment: one would end up inside a parameter or the query's last value. `//host` is another
  // site's address wherever a browser resolves it.
  if (link.includes('#') || link[0] !== '/' || link[1] === '/' || RAW_IN_LINK.test(link)) return undefined;
  const queryAt = link.indexOf('?');
  const path = queryAt < 0 ? link : link.slice(0, queryAt);
  const query = queryAt < 0 ? '' : link.slice(queryAt + 1);
  const parts = path.split('/').filter(Boolean);
  const keys = parts.map(segmentKey);
  if (keys.includes(undefined)) return undefined;
  // Such a query is refused as a malformed path is, never handed to the app changed.
  if (!queryDecodes(query)) return undefined;
  for (const route of routes) {
    const pattern = route.path.split('/').filter(Boolean);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const fits = pattern.every((p, i) => {
      // A route's own malformed escape is compared as written: the manifest's check names it.
      if (!p.startsWith(':')) return (segmentKey(p) ?? p) === keys[i];
      params[p.slice(1)] = decodeURIComponent(parts[i]!);
      return true;
    });
    if (fits) return { ...Object.fromEntries(new URLSearchParams(query)), ...params, route: route.path };
  }
  return undefined;
}
