import { SvcSignatureError } from './SvcSignatureError';

/**
 * The raw body of a request: the exact bytes received, or their text. A parsed object is refused.
 * @public
 */
export type RawBody = string | Uint8Array | ArrayBuffer;

const encoder = new TextEncoder();

/**
 * Returns the exact bytes of a raw body, refusing anything that is not raw.
 *
 * @remarks
 * The most reported webhook failure in every peer is a body parsed by a JSON middleware before the signature check:
 * re-serialising it changes key order, spacing or escaping, so the signature can never match. We refuse it with a
 * message that says how to get the raw body instead.
 * @throws {@link SvcSignatureError} with reason `parsed-body`.
 * @public
 */
export function toBytes(body: unknown): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return encoder.encode(body);
  // A view on a SharedArrayBuffer is copied: Web Crypto takes plain ArrayBuffers only.
  if (body instanceof Uint8Array)
    return body.buffer instanceof ArrayBuffer ? (body as Uint8Array<ArrayBuffer>) : body.slice();
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength).slice();
  const what =
    body === null || body === undefined
      ? String(body)
      : `a ${typeof body === 'object' ? 'parsed object' : typeof body}`;
  throw new SvcSignatureError(
    'parsed-body',
    `body is ${what}, not the raw body: the signature covers the exact bytes received, so pass them before any JSON ` +
      `parser runs (Express: this route before app.use(express.json()), with express.raw({ type: 'application/json' }), ` +
      `or keep the bytes with express.json({ verify: (req, _res, buf) => { req.rawBody = buf } }); Fastify: a ` +
      `route-scoped addContentTypeParser with parseAs 'buffer'; Fetch/Next.js: pass the Request, or await request.text()).`,
  );
}

/**
 * Refuses a Fetch `Request` whose body something already read (a middleware's `request.json()`, Hono's
 * `c.req.json()` or `c.req.text()`): its bytes are gone, and reading it again would throw a bare `TypeError`.
 * @throws {@link SvcSignatureError} with reason `parsed-body`.
 * @internal
 */
export function refuseReadRequest(request: Request): void {
  if (request.bodyUsed || request.body?.locked)
    throw new SvcSignatureError(
      'parsed-body',
      "the request's body was already read (a middleware called request.json(), or Hono's c.req.json() or " +
        'c.req.text(), before this handler), so its exact bytes are not here to verify: let the webhook route ' +
        'have the request first (register it before that middleware, or skip the middleware on its path), or pass ' +
        'the raw text a middleware kept to verifyWebhook({ body, headers }).',
    );
}
