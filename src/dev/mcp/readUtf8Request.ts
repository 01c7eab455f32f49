import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { decodeUtf8 } from '../decodeUtf8';

/** The MCP SDK's Node adapter's own cap on a body (4 MiB): past it, its 413 answers, so it is not read twice here. */
const ADAPTER_BODY_BYTES = 4 * 1024 * 1024;

/**
 * A POST's body read whole and checked to be UTF-8: the request again (method, URL, headers, `auth` and the same
 * bytes, as the SDK's Node adapter reads a request), or undefined when the body is not UTF-8.
 *
 * The adapter decodes the body leniently before any handler of ours sees it, so bytes that are not UTF-8 would reach
 * the app as U+FFFD, as if the agent had sent that character. A body over the adapter's cap is handed on unchecked,
 * for the adapter to refuse.
 * @internal
 */
export async function readUtf8Request(req: IncomingMessage): Promise<IncomingMessage | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  const source = req[Symbol.asyncIterator]();
  while (size <= ADAPTER_BODY_BYTES) {
    const next = await source.next();
    if (next.done) {
      if (decodeUtf8(Buffer.concat(chunks)) === undefined) return undefined;
      break;
    }
    chunks.push(next.value as Buffer);
    size += (next.value as Buffer).length;
  }
  // The adapter reads what was read here, then the rest (a body past the cap): duck-typed, as it takes Express's too.
  const body = Readable.from(
    (async function* () {
      yield* chunks;
      if (size > ADAPTER_BODY_BYTES) for await (const chunk of { [Symbol.asyncIterator]: () => source }) yield chunk;
    })(),
  );
  const { method, url, headers } = req;
  const auth = (req as { auth?: unknown }).auth;
  return Object.assign(body, {
    method,
    url,
    headers,
    ...(auth === undefined ? {} : { auth }),
  }) as unknown as IncomingMessage;
}
