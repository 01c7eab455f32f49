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
      `parser runs (Express: express.raw({ type: 'application/json' }) on this route; Fastify: a route-scoped ` +
      `addContentTypeParser with parseAs 'buffer'; Fetch/Next.js: pass the Request, or await request.text()).`,
  );
}
