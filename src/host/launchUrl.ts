import type { LaunchSnapshot } from '../protocol/snapshot';

/**
 * The URL to load the app with: its own URL plus the launch snapshot in the fragment,
 * `#svc=<encodeURIComponent(JSON)>`, which the client reads synchronously at start-up and which never reaches a
 * server. The fragment the URL had is kept as it was, the snapshot after it (`#/polls/7&svc=…`); a `svc=` in it is
 * replaced.
 * @public
 */
export function launchUrl(appUrl: string, snapshot: LaunchSnapshot): string {
  const url = new URL(appUrl);
  // Written as the protocol says, not as a form (URLSearchParams writes a space as `+`, which a reader following
  // the protocol's decodeURIComponent would keep as a plus), and without re-encoding what the fragment held.
  const kept = url.hash
    .slice(1)
    .split('&')
    .filter((part) => part !== '' && !part.startsWith('svc='));
  url.hash = [...kept, `svc=${encodeURIComponent(JSON.stringify(snapshot))}`].join('&');
  return url.toString();
}
