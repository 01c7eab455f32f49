import type { Readable, Writable } from 'node:stream';
import { Transform } from 'node:stream';
import { type JSONRPCMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { moveOwnProto } from './ownProto';

/** Why a line is no message the SDK could read: the JSON-RPC error's code and message. */
type LineProblem = { code: number; message: string };

const NEWLINE = 0x0a;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON-RPC error answering a line the SDK would skip: a parse error (-32700) for one that is not JSON, an invalid
 * request (-32600) for JSON that is no JSON-RPC message. Its id could not be read, so it is null, as JSON-RPC says.
 */
const lineError = ({ code, message }: LineProblem) =>
  ({ jsonrpc: '2.0', id: null, error: { code, message } }) as unknown as JSONRPCMessage;

/** Whether a parsed value has the shape of a JSON-RPC 2.0 message (or a batch of them), as the SDK reads one. */
const isMessage = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.length > 0 && value.every(isMessage)
    : typeof value === 'object' && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === '2.0';

/**
 * A line of stdin as the SDK is to read it, or why it is no JSON-RPC message the SDK could read. A call's arguments
 * that hold an own `__proto__` are written again with it under `protoKey` (see `moveOwnProto`): the SDK would drop it.
 */
function readLine(line: Buffer, protoKey: string): { line: Buffer } | { problem: LineProblem } {
  let text: string;
  try {
    text = utf8.decode(line);
  } catch {
    return {
      problem: {
        code: -32700,
        message: 'Parse error: the line is not valid UTF-8: send JSON encoded as UTF-8, one message a line.',
      },
    };
  }
  if (text.trim() === '') return { line };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      problem: { code: -32700, message: 'Parse error: the line is not JSON: send one JSON-RPC message a line.' },
    };
  }
  if (!isMessage(value))
    return {
      problem: {
        code: -32600,
        message: 'Invalid Request: the line is JSON but no JSON-RPC 2.0 message: send an object with "jsonrpc": "2.0".',
      },
    };
  if (!text.includes('__proto__')) return { line };
  moveOwnProto(value, protoKey);
  return { line: Buffer.from(`${JSON.stringify(value)}\n`) };
}

/**
 * The stdio transport of `svc mcp`: the MCP SDK's, reading `input` through a filter that answers each line that is
 * not JSON (or not UTF-8) with the JSON-RPC parse error (-32700, id null), and JSON that is no JSON-RPC message with
 * the invalid request error (-32600), as the HTTP endpoint answers it. The SDK's transport skips such a line
 * without a word, and its client would wait for an answer forever. Every other line goes on as it came (a call's own
 * `__proto__` moved aside under `protoKey`, for the handler to put back), so the SDK
 * parses it again (a message costs two parses, small beside the call it carries).
 * @internal
 */
export function createStdioWire(protoKey: string, input: Readable = process.stdin, output: Writable = process.stdout) {
  let tail: Buffer = Buffer.alloc(0);
  const lines = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const data = tail.length > 0 ? Buffer.concat([tail, chunk]) : chunk;
      const kept: Buffer[] = [];
      let start = 0;
      for (let end = data.indexOf(NEWLINE); end !== -1; end = data.indexOf(NEWLINE, start)) {
        const line = data.subarray(start, end + 1);
        start = end + 1;
        const read = readLine(line, protoKey);
        if ('line' in read) kept.push(read.line);
        else void wire.send(lineError(read.problem)).catch(() => {});
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
