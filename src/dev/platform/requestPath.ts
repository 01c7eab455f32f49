import type { Context } from 'hono';
import type { PlatformEnv } from './PlatformEnv';

/**
 * The request's path as the client sent it (still percent-encoded, no query): a problem's `instance`, and what the
 * server API decodes segment by segment itself. Under node the request line as received; in-process, the URL's.
 * @internal
 */
export function requestPath(c: Context<PlatformEnv>): string {
  const sent = c.env?.incoming?.url;
  return sent?.startsWith('/') ? (sent.split('?')[0] ?? sent) : new URL(c.req.url).pathname;
}
