import { SvcSignatureError } from './SvcSignatureError';

/**
 * The parts of a Node `IncomingMessage` (or Express request) the adapters read. Typed structurally, so this file
 * imports nothing from Node and the entry still loads in Deno and Workers.
 * @public
 */
export interface NodeRequestLike {
  // `| undefined` throughout: Node's IncomingMessage types them so, and under `exactOptionalPropertyTypes` a plain
  // optional property would refuse it.
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  /**
   * The exact bytes, set by platforms that buffer the body themselves (Google Cloud Functions), or by
   * `express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })` where a JSON parser runs app-wide.
   * (`express.raw()` puts its Buffer in `body`, which is read too.)
   */
  rawBody?: Uint8Array | string | undefined;
  /** A body parser's result: a Buffer or string is accepted; a parsed object is refused. */
  body?: unknown;
  on(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: 'end' | 'error', listener: (arg?: unknown) => void): unknown;
  readableEnded?: boolean | undefined;
}

/** The parts of a Node `ServerResponse` the adapters write. @public */
export interface NodeResponseLike {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body?: string | Uint8Array): unknown;
  headersSent?: boolean | undefined;
}

/** Node/Express middleware. @public */
export type NodeMiddleware = (
  req: NodeRequestLike,
  res: NodeResponseLike,
  next?: (error?: unknown) => void,
) => Promise<void>;

// express.raw() on the route cannot help once an app-wide express.json() ran: the body is parsed before the route.
// Each framework's own fix, since the same middleware serves Express, Koa and Fastify's raw request.
const PARSED =
  'the request body was already read by a body parser and its raw bytes are not on the request, so no signature can ' +
  'match: hand them on. Express: register the webhook route before app.use(express.json()), or have the parser keep ' +
  'the bytes: app.use(express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })). ' +
  'Koa with @koa/bodyparser: ctx.req.rawBody = ctx.request.rawBody before webhooks.node(ctx.req, ctx.res). ' +
  "Fastify: a content type parser with parseAs: 'buffer' scoped to the webhook route, then req.raw.rawBody = " +
  'req.body before webhooks.node(req.raw, reply.raw), or the Fetch handler (docs/backend.md).';

/**
 * The raw body of a Node request: `rawBody`, a Buffer/string `body`, or the stream itself as a `ReadableStream`, read
 * as the handler reads it: a handler that refuses the request on its headers, or stops at a size or a deadline, does
 * not wait for a body it will not use.
 */
function nodeBody(req: NodeRequestLike): Uint8Array | string | ReadableStream<Uint8Array> {
  if (req.rawBody !== undefined) return req.rawBody;
  if (typeof req.body === 'string' || req.body instanceof Uint8Array) return req.body;
  // Anything else in `body`, or a stream already read to its end, means a parser consumed the bytes.
  if (req.body !== undefined || req.readableEnded) throw new SvcSignatureError('parsed-body', PARSED);
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // Once the reader has stopped (cancel), what the socket still brings is dropped, not pushed into a stream
      // that would throw on it.
      const settle = (step: () => void) => {
        if (!open) return;
        open = false;
        step();
      };
      req.on('data', (chunk) => {
        if (open) controller.enqueue(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
      });
      req.on('end', () => settle(() => controller.close()));
      req.on('error', (e) => settle(() => controller.error(e)));
    },
    cancel() {
      open = false;
    },
  });
}

/** Turns a Node request into a Fetch `Request` with its raw body. */
export async function toFetchRequest(req: NodeRequestLike): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const url = `http://${headers.get('host') ?? 'localhost'}${req.url ?? '/'}`;
  const body = method === 'GET' || method === 'HEAD' ? undefined : nodeBody(req);
  // `duplex: 'half'`: what a Request with a stream body needs (Node's fetch refuses one without it).
  return new Request(url, { method, headers, body: body as BodyInit | undefined, duplex: 'half' } as RequestInit);
}

/** Writes a Fetch `Response` to a Node response. */
export async function writeNodeResponse(res: NodeResponseLike, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  res.end(new Uint8Array(await response.arrayBuffer()));
}

/**
 * Adapts a Fetch handler to Node `http` / Express. A parsed body is answered 500 with the fix, and reported: to
 * `onError` when given, and to Express's error handling (`next`) when there is one.
 */
export function handleNode(
  handle: (request: Request) => Promise<Response>,
  onError?: (error: unknown) => void,
): NodeMiddleware {
  return async (req, res, next) => {
    try {
      const response = await handle(await toFetchRequest(req));
      await writeNodeResponse(res, response);
    } catch (error) {
      onError?.(error);
      if (next) return next(error);
      res.statusCode = 500;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          error: error instanceof SvcSignatureError ? error.reason : 'server-misconfigured',
          message: error instanceof Error ? error.message : 'internal error',
        }),
      );
    }
  };
}
