import type { Readable, Writable } from 'node:stream';
import { Transform } from 'node:stream';
import { type JSONRPCMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const NEWLINE = 0x0a;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The JSON-RPC parse error (-32700) of a line; its id could not be read, so it is null, as JSON-RPC says. */
const parseError = (message: string) =>
  ({
    jsonrpc: '2.0',
    id: null,
    error: { code: -32700, message: `Parse error: ${message}` },
  }) as unknown as JSONRPCMessage;

/** Why a line of stdin is no JSON-RPC message the SDK could read, or undefined when it is JSON (or blank). */
function unreadable(line: Uint8Array): string | undefined {
  let text: string;
  try {
    text = utf8.decode(line);
  } catch {
    return 'the line is not valid UTF-8: send JSON encoded as UTF-8, one message a line.';
  }
  if (text.trim() === '') return undefined;
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    return 'the line is not JSON: send one JSON-RPC message a line.';
  }
}

/**
 * The stdio transport of `svc mcp`: the MCP SDK's, reading `input` through a filter that answers each line that is
 * not JSON (or not UTF-8) with the JSON-RPC parse error (-32700, id null). The SDK's transport skips such a line
 * without a word, and its client would wait for an answer forever. Every other line goes on as it came, so the SDK
 * parses it again (a message costs two parses, small beside the call it carries).
 * @internal
 */
export function createStdioWire(input: Readable = process.stdin, output: Writable = process.stdout) {
  let tail: Buffer = Buffer.alloc(0);
  const lines = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const data = tail.length > 0 ? Buffer.concat([tail, chunk]) : chunk;
      const kept: Buffer[] = [];
      let start = 0;
      for (let end = data.indexOf(NEWLINE); end !== -1; end = data.indexOf(NEWLINE, start)) {
        const line = data.subarray(start, end + 1);
        start = end + 1;
        const problem = unreadable(line);
        if (problem === undefined) kept.push(line);
        else void wire.send(parseError(problem)).catch(() => {});
      }
      tail = data.subarray(start);
      // A line longer than the SDK takes goes on as it came, for the SDK to refuse as it does (it closes).
      if (tail.length > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
        kept.push(tail);
        tail = Buffer.alloc(0);
      }
      done(null, kept.length > 0 ? Buffer.concat(kept) : undefined);
    },
    flush(done) {
      done(null, tail.length > 0 ? tail : undefined);
    },
  });
  input.pipe(lines);
  // The SDK's transport hears of a failed stdin as it did reading it directly: an error, then the close.
  input.once('error', (error) => lines.destroy(error));
  const wire = new StdioServerTransport(lines, output);
  const close = wire.close.bind(wire);
  // Closed by the server (SIGTERM, not the end of stdin), it stops reading stdin too, or the open pipe would keep the
  // process running: the SDK's transport pauses the stream it reads, which is the filter now.
  wire.close = async () => {
    input.unpipe(lines);
    input.pause();
    await close();
  };
  return wire;
}
