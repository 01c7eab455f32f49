import { characterAt, codePointName } from './helpers';
import { jsonQuote } from './jsonQuote';
import { launchParamsOf } from './launchParamsOf';
import { queryDecodes, RAW_IN_LINK } from './routeKey';

/**
 * What makes `link` a deep link no person could open, as a sentence that follows the field's name and says what to
 * send, or undefined: one no URL library writes (a space or a control character as it is, which `new URL`, Go's
 * `url.URL` and Java's `URI` percent-encode; malformed percent-encoding, which decodes to no text), one with a
 * fragment (`#…`, which no route holds), one that is no path inside the app (a URL, `//host`, no leading `/`), or one
 * that is no route the manifest declares. The same rule for a card the app sends through its host and one its backend
 * posts to the server API, and the links {@link launchParamsOf} opens.
 * @internal
 */
export function deepLinkProblem(link: string, routes: readonly { path: string }[] | undefined): string | undefined {
  const quoted = jsonQuote(link.slice(0, 100));
  const raw = RAW_IN_LINK.exec(link);
  if (raw) {
    const character = raw[0];
    const kind = /\p{Cc}/u.test(character) ? 'a control character' : 'a space';
    return `${quoted} holds ${kind} (${codePointName(character)}) at character ${characterAt(link, raw.index)}: percent-encode it (${encodeURIComponent(character)}), as encodeURIComponent does.`;
  }
  // A fragment would reach the app inside a parameter or the query's last value (`/poll/7#votes` opens poll
  // `7#votes`): a deep link is a route, its parameters and its query, which the host hands to the app as launch
  // parameters; the app's address keeps its fragment for the host.
  const fragmentAt = link.indexOf('#');
  if (fragmentAt >= 0)
    return `${quoted} has a fragment (${jsonQuote(link.slice(fragmentAt, fragmentAt + 40))}), which no route holds: drop it, or send what it says as a query parameter (?section=…), or percent-encode a # that belongs to a value (%23).`;
  const queryAt = link.indexOf('?');
  const path = queryAt < 0 ? link : link.slice(0, queryAt);
  try {
    for (const segment of path.split('/')) decodeURIComponent(segment);
  } catch {
    return `${quoted} has malformed percent-encoding: encode each segment of its path with encodeURIComponent.`;
  }
  // A query's malformed escape would reach the app as U+FFFD.
  if (queryAt >= 0 && !queryDecodes(link.slice(queryAt + 1)))
    return `${quoted} has malformed percent-encoding in its query: encode each name and value with encodeURIComponent.`;
  // `//host/…` and `https://…` are addresses of a site; `polls/7` and `?tab=votes` lack the path's leading `/`.
  if (link.startsWith('//') || /^[a-z][\w+.-]*:/i.test(link))
    return `${quoted} is a URL, not a path inside the app: send the path of a route manifest.json declares, such as ${jsonQuote(routes?.[0]?.path ?? '/')}.`;
  if (!link.startsWith('/'))
    return `${quoted} does not start with "/": a deep link is a path inside the app; send ${jsonQuote(`/${link}`.slice(0, 100))}.`;
  if (!routes || launchParamsOf([...routes], link)) return undefined;
  return `${quoted} is not a route manifest.json declares, so no person could open it: send a path that matches one of ${routes.map((r) => jsonQuote(r.path)).join(', ')} (each segment is compared percent-decoded).`;
}
