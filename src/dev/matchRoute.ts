/**
 * The launch parameters of a deep link, when it matches one of the manifest's routes (`/poll/:id` matches
 * `/poll/7` as `{ route: '/poll/:id', id: '7' }`); `undefined` when no declared route matches, so a link can
 * never launch the app somewhere it did not declare.
 */
export function matchRoute(routes: { path: string }[], link: string): Record<string, string> | undefined {
  const [path = '', query = ''] = link.split('?');
  const parts = path.split('/').filter(Boolean);
  for (const route of routes) {
    const pattern = route.path.split('/').filter(Boolean);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = { route: route.path };
    const fits = pattern.every((p, i) => {
      if (!p.startsWith(':')) return p === parts[i];
      params[p.slice(1)] = decodeURIComponent(parts[i]!);
      return true;
    });
    if (fits) return { ...Object.fromEntries(new URLSearchParams(query)), ...params };
  }
  return undefined;
}
