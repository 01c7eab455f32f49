import type { LaunchSnapshot } from '../protocol/snapshot';

/**
 * The URL to load the app with: its own URL plus the launch snapshot in the fragment (`#svc=...`), which the
 * client reads synchronously at start-up and which never reaches a server.
 * @public
 */
export function launchUrl(appUrl: string, snapshot: LaunchSnapshot): string {
  const url = new URL(appUrl);
  const params = new URLSearchParams(url.hash.slice(1));
  params.set('svc', JSON.stringify(snapshot));
  url.hash = params.toString();
  return url.toString();
}
