import type { IncomingMessage } from 'node:http';

/** A body read whole, or the fact that it was longer than allowed (its bytes were read and dropped). @internal */
export type ReadBody = { bytes: Buffer } | { tooLarge: number };

/**
 * Reads a request body as the exact bytes received, at most `limit` bytes kept.
 *
 * @remarks
 * Chunks are kept as bytes and joined once: decoding each chunk on its own would turn a character split between two
 * reads into two U+FFFD and break the signature. A body over the limit is read to its end and dropped (so the client
 * receives the 413 rather than a reset connection) and memory stays bounded by `limit`.
 * @internal
 */
export async function readRequestBody(req: IncomingMessage, limit: number): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size <= limit) chunks.push(bytes);
    else chunks.length = 0;
  }
  return size > limit ? { tooLarge: size } : { bytes: Buffer.concat(chunks, size) };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8, or returns undefined when the bytes are not valid UTF-8. @internal */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
