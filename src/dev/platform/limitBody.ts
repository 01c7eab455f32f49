import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { PlatformEnv } from './PlatformEnv';

/**
 * Hono's `bodyLimit`, on a request it can copy. A body of unknown length (`Transfer-Encoding: chunked`, as Go's
 * `http.Client` sends a streamed body, or Node's `fetch` a `ReadableStream`) is read to count it, and `bodyLimit`
 * then makes the request again with `new Request(c.req.raw, …)`. The platform leaves the process's `Request` alone
 * (`overrideGlobalObjects: false`), so `c.req.raw` is @hono/node-server's own light request, which Node's `Request`
 * cannot copy: it threw, and every such request was answered 500. Here that request is first made a real one, of
 * the same method, URL, headers, body stream and abort signal; a body of known length is left as it is.
 * @internal
 */
export function limitBody(options: Parameters<typeof bodyLimit>[0]): MiddlewareHandler<PlatformEnv> {
  const limit = bodyLimit(options);
  return (c, next) => {
    const raw = c.req.raw;
    if (raw.body && (!raw.headers.has('content-length') || raw.headers.has('transfer-encoding')))
      c.req.raw = new Request(raw.url, {
        method: raw.method,
        headers: raw.headers,
        body: raw.body,
        signal: raw.signal,
        duplex: 'half',
      } as RequestInit);
    return limit(c, next);
  };
}
