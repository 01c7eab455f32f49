/**
 * The parts of a Node `IncomingMessage` (or Express request) the adapters read. Typed structurally, so this file
 * imports nothing from Node and the entry still loads in Deno and Workers.
 * @public
 */
export interface NodeRequestLike {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  /** Set by platforms that buffer the body themselves (Google Cloud Functions), or by `express.raw()`. */
  rawBody?: Uint8Array | string;
  /** A body parser's result: a Buffer or string is accepted; a parsed object is refused. */
  body?: unknown;
  on(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: 'end' | 'error', listener: (arg?: unknown) => void): unknown;
  readableEnded?: boolean;
}

/** The parts of a Node `ServerResponse` the adapters write. @public */
export interface NodeResponseLike {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body?: string | Uint8Array): unknown;
  headersSent?: boolean;
}

/** Node/Express middleware. @public */
export type NodeMiddleware = (
  req: NodeRequestLike,
  res: NodeResponseLike,
  next?: (error?: unknown) => void,
) => Promise<void>;

const PARSED =
  'the request body was already parsed by a JSON body parser, so its raw bytes are gone and no signature can match: ' +
  "mount this middleware before express.json(), or use express.raw({ type: 'application/json' }) on this route.";

/** Reads the raw body of a Node request: `rawBody`, a Buffer/string `body`, or the stream itself. */
async function readNodeBody(req: NodeRequestLike): Promise<Uint8Array | string> {
  if (req.rawBody !== undefined) return req.rawBody;
  if (typeof req.body === 'string' || req.body instanceof Uint8Array) return req.body;
  // Anything else in `body`, or a stream already read to its end, means a parser consumed the bytes.
  if (req.body !== undefined || req.readableEnded) throw new TypeError(PARSED);
  const chunks: Uint8Array[] = [];
  await new Promise<void>((resolve, reject) => {
    req.on('data', (chunk) => chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk));
    req.on('end', () => resolve());
    req.on('error', (e) => reject(e));
  });
  const size = chunks.reduce((n, c) => n + c.length, 0);
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
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
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readNodeBody(req);
  return new Request(url, { method, headers, body: body as BodyInit | undefined });
}

/** Writes a Fetch `Response` to a Node response. */
export async function writeNodeResponse(res: NodeResponseLike, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  res.end(new Uint8Array(await response.arrayBuffer()));
}

/** Adapts a Fetch handler to Node `http` / Express. A parsed body is answered 500 with the fix, and reported. */
export function handleNode(handle: (request: Request) => Promise<Response>): NodeMiddleware {
  return async (req, res, next) => {
    try {
      const response = await handle(await toFetchRequest(req));
      await writeNodeResponse(res, response);
    } catch (error) {
      if (next) return next(error);
      res.statusCode = 500;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          error: 'server-misconfigured',
          message: error instanceof Error ? error.message : 'internal error',
        }),
      );
    }
  };
}
