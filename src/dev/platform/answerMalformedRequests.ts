import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { createProblem } from '../../server/problems';

/**
 * What to send instead, by the code of Node's HTTP parser, for a request that is not HTTP/1.1 as written: a backend
 * in another language whose client sends a raw non-ASCII path, or two Content-Length headers, learns what to change.
 */
const FIXES: Record<string, string> = {
  HPE_INVALID_URL:
    'percent-encode each path segment and query value as UTF-8 (encodeURIComponent, urllib.parse.quote, url.PathEscape): a request target holds no space, control character or byte beyond ASCII',
  HPE_INVALID_HEADER_TOKEN:
    "send each header name as a token (letters, digits and !#$%&'*+-.^_`|~) and each value as visible ASCII, spaces and tabs, with no control character",
  HPE_LF_EXPECTED: 'end each line of the head with CRLF',
  HPE_CR_EXPECTED: 'end each line of the head with CRLF',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'send one Content-Length header',
  HPE_INVALID_CONTENT_LENGTH:
    'send a Content-Length of digits alone, and either Content-Length or Transfer-Encoding: chunked, not both',
  HPE_INVALID_TRANSFER_ENCODING: 'send Transfer-Encoding: chunked alone, or a Content-Length',
  HPE_INVALID_CHUNK_SIZE: 'send each chunk size in hexadecimal digits, then CRLF',
  HPE_INVALID_METHOD: 'send a method in upper case (GET, POST, PATCH, DELETE)',
  HPE_INVALID_CONSTANT: 'send the request line as METHOD TARGET HTTP/1.1',
  HPE_INVALID_VERSION: 'send HTTP/1.1',
};

/** What Node answers itself, by code, where no sentence fits: the head too large, the request too slow. */
const BARE: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/** The request target as received, each byte outside visible ASCII percent-encoded, for `instance`. */
function targetOf(raw: Buffer | undefined): string {
  const line = raw?.subarray(0, Math.max(0, raw.indexOf(0x0a))) ?? Buffer.alloc(0);
  const target = line.subarray(line.indexOf(0x20) + 1);
  const end = target.lastIndexOf(0x20);
  const bytes = end > 0 ? target.subarray(0, end) : target;
  let text = '';
  for (const byte of bytes.subarray(0, 2000))
    text +=
      byte > 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return text.startsWith('/') ? text : '';
}

/**
 * Answers a request Node's HTTP parser refuses as problem details (RFC 9457) naming what is wrong and what to send
 * instead, as the platform answers every other error, where Node would answer a bare `400` with no body. Sent only
 * while no answer has started on the connection; the connection then closes, as Node's own answer does.
 * @param origin - The messenger origin: problem types live under `<origin>/errors/`.
 * @internal
 */
export function answerMalformedRequests(server: Server, origin: string): void {
  server.on(
    'clientError',
    (error: NodeJS.ErrnoException, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }) => {
      const code = error.code ?? '';
      if (code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) return void socket.destroy();
      const fix = FIXES[code];
      if (!fix) return void socket.end(`HTTP/1.1 ${BARE[code] ?? '400 Bad Request'}\r\nconnection: close\r\n\r\n`);
      const reason = (error as { reason?: string }).reason ?? error.message;
      const detail = `The request is not HTTP/1.1 as written (${reason}): ${fix}.`;
      const target = targetOf((error as { rawPacket?: Buffer }).rawPacket);
      const body = JSON.stringify(createProblem(`${origin}/errors`, 'invalid-request', detail, target));
      socket.end(
        `HTTP/1.1 400 Bad Request\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-content-type-options: nosniff\r\nconnection: close\r\n\r\n${body}`,
      );
    },
  );
}
