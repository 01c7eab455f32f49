import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { PlatformEnv } from './PlatformEnv';
import { ProblemError } from './ProblemError';

/** How much of a refused body is read (and thrown away) before the refusal is answered, at most. */
const READ_REFUSED_BYTES = 64 * 1024 * 1024;
/** How long the rest of a refused body is waited for, at most. */
const READ_REFUSED_MS = 2000;

/**
 * Hono's `bodyLimit`, on a request it can copy, and with a refusal that leaves the connection usable.
 *
 * A body of unknown length (`Transfer-Encoding: chunked`, as Go's `http.Client` sends a streamed body, or Node's
 * `fetch` a `ReadableStream`) is read to count it, and `bodyLimit` then makes the request again with
 * `new Request(c.req.raw, …)`. The platform leaves the process's `Request` alone (`overrideGlobalObjects: false`),
 * so `c.req.raw` is @hono/node-server's own light request, which Node's `Request` cannot copy: it threw, and every
 * such request was answered 500. Here that request is first made a real one, of the same method, URL, headers and
 * abort signal, whose body is read from the original; a body of known length is left as it is.
 *
 * The refusal (413) is answered only once the rest of the body has been read, up to 64 MiB and 2 s. A client that
 * keeps its connection open for the next request (Java's HttpClient, Go's, `fetch`) would otherwise send that request
 * on a socket the server closes when the unread body is thrown away, and get no answer. A body that is larger, or
 * slower, gets its 413 with `Connection: close`, so no client reuses that connection.
 * @internal
 */
export function limitBody(options: Parameters<typeof bodyLimit>[0]): MiddlewareHandler<PlatformEnv> {
  return (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    let source: ReadableStreamDefaultReader<Uint8Array> | undefined;
    if (!raw.headers.has('content-length') || raw.headers.has('transfer-encoding')) {
      const reader = raw.body.getReader();
      source = reader;
      c.req.raw = new Request(raw.url, {
        method: raw.method,
        headers: raw.headers,
        body: new ReadableStream<Uint8Array>({
          async pull(controller) {
            const { done, value } = await reader.read();
            if (done) controller.close();
            else controller.enqueue(value);
          },
          cancel: (reason) => reader.cancel(reason),
        }),
        signal: raw.signal,
        duplex: 'half',
      } as RequestInit);
    }
    const limit = bodyLimit({
      maxSize: options.maxSize,
      onError: async (refused: Context) => {
        // A body of known length was not read at all; one of unknown length was read past the limit.
        const read = await readToEnd(source ?? raw.body!.getReader());
        try {
          return closeUnless(read, await options.onError!(refused));
        } catch (error) {
          throw closeUnless(read, error);
        }
      },
    });
    return limit(c, next);
  };
}

/** Reads and drops what is left of a body: true when it ended within the bounds. */
async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<boolean> {
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), READ_REFUSED_MS);
  });
  try {
    while (bytes <= READ_REFUSED_BYTES) {
      const next = await Promise.race([reader.read(), late]);
      if (next === 'late') return false;
      if (next.done) return true;
      bytes += next.value.byteLength;
    }
    return false;
  } catch {
    // The client went away: there is no connection left to keep.
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** The refusal (an answer, or a thrown {@link ProblemError}), told to close the connection unless the body was read. */
function closeUnless<T>(read: boolean, refusal: T): T {
  if (read) return refusal;
  if (refusal instanceof Response) refusal.headers.set('connection', 'close');
  else if (refusal instanceof ProblemError) refusal.headers.connection = 'close';
  return refusal;
}
