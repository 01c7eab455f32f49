// biome-ignore-all lint/suspicious/noExplicitAny: the client reads globals and wire values of foreign shape and checks each where it is used; typing them would add guards the 4,000-byte budget cannot afford
import { parseSnapshot, type LaunchSnapshot } from '../protocol/snapshot';
import { takeGlobal } from './takeGlobal';

/**
 * Reads the launch snapshot once: the one a native host injected as `__svc_launch`, else `#svc=` in the URL
 * fragment (web hosts). Anything missing or malformed falls back to a default, so the synchronous members of `svc`
 * always answer.
 */
export function readSnapshot(): LaunchSnapshot {
  const g: any = globalThis;
  let input: unknown = takeGlobal(g, '__svc_launch');
  try {
    input ??= JSON.parse(new URLSearchParams(g.location.hash.slice(1)).get('svc')!);
  } catch {
    // No location (SSR) or a broken fragment: the defaults apply.
  }
  return parseSnapshot(input, g.navigator?.language);
}
