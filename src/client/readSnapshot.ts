// biome-ignore-all lint/suspicious/noExplicitAny: the client reads globals and wire values of foreign shape and checks each where it is used; typing them would add guards the 4,000-byte budget cannot afford
import { parseSnapshot, type LaunchSnapshot } from '../protocol/snapshot';
import { takeGlobal } from './takeGlobal';

/**
 * Reads the launch snapshot once: the one a native host injected as `__svc_launch`, else `#svc=` in the fragment of
 * the URL the page was loaded with (web hosts). Anything missing or malformed falls back to a default, so the
 * synchronous members of `svc` always answer.
 */
export function readSnapshot(): LaunchSnapshot {
  const g: any = globalThis;
  let input: unknown = takeGlobal(g, '__svc_launch');
  try {
    // The URL as the page was loaded (its navigation entry), not as it is now: a hash router may already have
    // replaced the fragment (Vue Router's hash history does so when it is made). `location` where there is no
    // entry (jsdom). The host's fragment has no `#` after the first: launchUrl() encodes every parameter.
    const text = new URLSearchParams(
      (g.performance.getEntriesByType?.('navigation')[0]?.name ?? g.location.href).split('#')[1],
    ).get('svc');
    input ??= JSON.parse(text!);
  } catch {
    // No location (SSR) or a broken fragment: the defaults apply.
  }
  return parseSnapshot(input, g.navigator?.language);
}
