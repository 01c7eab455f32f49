import type { Readable, Writable } from 'node:stream';
import { Transform } from 'node:stream';
import { type JSONRPCMessage, parseJSONRPCMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { moveOwnProto } from './ownProto';
import { messageProblem, paramsProblem } from './paramsProblem';
import { requestIdKey } from './requestIdKey';

/** The most messages a batch may hold, as over HTTP. */
const MAX_BATCH = 100;

/** Why a line (or a message in a batch) is no message the SDK could read: the JSON-RPC error's code and message. */
type LineProblem = { code: number; message: string };
/** What a line holds: the messages for the SDK, one line each, and the errors answering the rest. */
type LineRead = { lines: Buffer[]; errors: JSONRPCMessage[]; batch?: { requests: string[] } };

const NEWLINE = 0x0a;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON-RPC error answering what the SDK would skip: a parse error (-32700) for a line that is not JSON, an invalid
 * request (-32600) for JSON that is no JSON-RPC message. Its id is the message's where one can be read, else null, as
 * JSON-RPC says.
 */
const errorAnswer = ({ code, message }: LineProblem, id: unknown = null) =>
  ({ jsonrpc: '2.0', id, error: { code, message } }) as unknown as JSONRPCMessage;

const INVALID: LineProblem = {
  code: -32600,
  message:
    'Invalid Request: no JSON-RPC 2.0 message: send an object with "jsonrpc": "2.0", a "method" or a "result" or "error", an "id" that is a string or an integer, and "params" (if any) an object.',
};

const TOO_LONG: LineProblem = {
  code: -32600,
  message: `Invalid Request: the line with its line break is over ${STDIO_DEFAULT_MAX_BUFFER_SIZE} bytes, more than svc mcp reads (svc dev takes a request of at most 4 MiB): send less, a file by its path or URL.`,
};

/** The id of a line too long to read, when it is the message's first member (or its second, after `"jsonrpc"`). */
function leadingId(start: Buffer): unknown {
  const found =
    /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*("(?:[^"\\]|\\.){0,256}"|-?\d{1,16})\s*[,}]/.exec(
      start.toString(),
    );
  return found ? JSON.parse(found[1]!) : null;
}

/** The error of JSON that is no JSON-RPC message: its member at fault named, where one is. */
const invalid = (value: unknown): LineProblem => {
  const problem = messageProblem(value);
  return problem ? { code: -32600, message: `Invalid Request: ${problem}` } : INVALID;
};

/** The id of a message that is no valid one, when it can be read (a string or a number), for its error; else null. */
const readableId = (value: unknown) => {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
};

/** Whether `value` is a JSON-RPC message as the SDK reads one (its own schema: a line that fails it is skipped). */
function isMessage(value: unknown): value is JSONRPCMessage {
  try {
    parseJSONRPCMessage(value);
    return true;
  } catch {
    return false;
  }
}

/** The message as one line for the SDK: a call's own `__proto__` written again under `protoKey` (see `moveOwnProto`). */
function messageLine(message: JSONRPCMessage, protoKey: string): Buffer {
  moveOwnProto(message, protoKey);
  return Buffer.from(`${JSON.stringify(message)}\n`);
}

/**
 * A line of stdin as the SDK is to read it: its message, or each message of a batch on a line of its own, with an
 * error for each that is no message the SDK could read (the SDK would skip it, and its sender wait for ever).
 */
function readLine(line: Buffer, protoKey: string): LineRead {
  const refused = (problem: LineProblem): LineRead => ({ lines: [], errors: [errorAnswer(problem)] });
  let text: string;
  try {
    text = utf8.decode(line);
  } catch {
    return refused({
      code: -32700,
      message: 'Parse error: the line is not valid UTF-8: send JSON encoded as UTF-8, one message a line.',
    });
  }
  // A blank line (a byte order mark alone too) holds nothing to answer.
  if (text.trim() === '') return { lines: [], errors: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refused({ code: -32700, message: 'Parse error: the line is not JSON: send one JSON-RPC message a line.' });
  }
  if (!Array.isArray(value)) {
    if (!isMessage(value)) return { lines: [], errors: [errorAnswer(invalid(value), readableId(value))] };
    const badParams = paramsProblem(value);
    if (badParams) return { lines: [], errors: [errorAnswer(badParams, readableId(value))] };
    // Written again when the SDK could not read it as it came: after a byte order mark (the decoder dropped it, the
    // SDK's JSON.parse would not), or with an own `__proto__`.
    const asItCame = line[0] !== 0xef && !text.includes('__proto__');
    return { lines: [asItCame ? line : messageLine(value, protoKey)], errors: [] };
  }
  // A batch (2025-03-26): JSON-RPC answers an empty one with one error, and each of its requests in one array.
  if (value.length === 0) return refused({ ...INVALID, message: 'Invalid Request: the batch is empty.' });
  // The bound the MCP SDK's HTTP transport holds batches to: 50,000 requests on one line held the bridge for a minute
  // and took it to 2 GB, every later request waiting.
  if (value.length > MAX_BATCH)
    return refused({
      ...INVALID,
      message: `Invalid Request: Batch must not exceed ${MAX_BATCH} messages (this one holds ${value.length}): send it in parts.`,
    });
  const read: LineRead = { lines: [], errors: [], batch: { requests: [] } };
  for (const message of value) {
    const badParams = paramsProblem(message);
    if (!isMessage(message)) read.errors.push(errorAnswer(invalid(message), readableId(message)));
    else if (badParams) read.errors.push(errorAnswer(badParams, readableId(message)));
    else {
      read.lines.push(messageLine(message, protoKey));
      if ('method' in message && 'id' in message) read.batch!.requests.push(requestIdKey(message.id));
    }
  }
  return read;
}

/**
 * A batch's answers as they come, sent in one array once every request of it is answered (or cancelled): how many
 * answers each request id still waits for (a client that repeats an id in a batch gets both in the array).
 */
type Batch = { waiting: Map<string, number>; answers: JSONRPCMessage[] };

/**
 * The stdio transport of `svc mcp`: the MCP SDK's, reading `input` through a filter that answers what the SDK's
 * transport would skip without a word, whose sender would wait for an answer for ever: a line that is not JSON (or not
 * UTF-8) with the JSON-RPC parse error (-32700, id null), and JSON that is no JSON-RPC message as the SDK reads one
 * (`42`, an id that is an object, `params` that are a string) with the invalid request error (-32600, the message's id
 * where it can be read), as the HTTP endpoint answers them. A batch (JSON-RPC's array, which MCP's 2025-03-26 revision
 * takes) goes to the SDK a message a line, and its answers back to the client in one array, as JSON-RPC says. A line
 * longer than the SDK reads (10 MiB; the SDK would close, and every call with it) is answered with the invalid request
 * error (with its id, when the id comes first) and skipped. Every other line goes on as it came (a call's own
 * `__proto__` moved aside under `protoKey`, for the handler to put back), so the SDK parses it again (a message costs
 * two parses, small beside the call it carries).
 * @internal
 */
export function createStdioWire(protoKey: string, input: Readable = process.stdin, output: Writable = process.stdout) {
  // The batches whose answers are being gathered, by the key of each request id still unanswered.
  const batches = new Map<string, Batch>();
  const answered = (key: string, answer?: JSONRPCMessage) => {
    const batch = batches.get(key);
    if (!batch) return undefined;
    const left = (batch.waiting.get(key) ?? 1) - 1;
    if (left > 0) batch.waiting.set(key, left);
    else {
      batches.delete(key);
      batch.waiting.delete(key);
    }
    if (answer) batch.answers.push(answer);
    return batch.waiting.size === 0 && batch.answers.length > 0 ? batch.answers : undefined;
  };
  // Sent as soon as they are known: the errors of a line, or a batch's array.
  const sendNow = (message: JSONRPCMessage | JSONRPCMessage[]) => void send(message as JSONRPCMessage).catch(() => {});
  const take = (read: LineRead) => {
    if (!read.batch) return read.errors.forEach(sendNow);
    const batch: Batch = { waiting: new Map(), answers: read.errors };
    for (const key of read.batch.requests) {
      batch.waiting.set(key, (batch.waiting.get(key) ?? 0) + 1);
      batches.set(key, batch);
    }
    if (batch.waiting.size === 0 && batch.answers.length > 0) sendNow(batch.answers);
  };
  // A request the client cancels gets no answer (MCP): its batch stops waiting for one.
  const cancelled = (message: Buffer) => {
    if (batches.size === 0 || !message.includes('notifications/cancelled')) return;
    const { method, params } = JSON.parse(message.toString()) as { method?: string; params?: { requestId?: unknown } };
    const rest = method === 'notifications/cancelled' ? answered(requestIdKey(params?.requestId)) : undefined;
    if (rest) sendNow(rest);
  };
  // Its id, where it comes first, is the error's.
  const refuseLong = (start: Buffer) => sendNow(errorAnswer(TOO_LONG, leadingId(start.subarray(0, 1024))));
  // The start of a line whose end has not come yet, and whether the rest of an over-long line is being skipped.
  let tail: Buffer[] = [];
  let tailLength = 0;
  let skipping = false;
  const lines = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const kept: Buffer[] = [];
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
        const line = Buffer.concat([...tail, chunk.subarray(start, end + 1)]);
        start = end + 1;
        tail = [];
        tailLength = 0;
        if (skipping) skipping = false;
        else if (line.length > STDIO_DEFAULT_MAX_BUFFER_SIZE) refuseLong(line);
        else {
          const read = readLine(line, protoKey);
          take(read);
          read.lines.forEach(cancelled);
          kept.push(...read.lines);
        }
      }
      const rest = chunk.subarray(start);
      if (!skipping && rest.length > 0) {
        tail.push(rest);
        tailLength += rest.length;
      }
      // A line longer than the SDK reads (which would close the bridge, and every call with it) is answered with an
      // error and skipped to its end.
      if (tailLength > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
        refuseLong(Buffer.concat(tail, 1024));
        tail = [];
        tailLength = 0;
        skipping = true;
      }
      // A line at a time: the SDK refuses a chunk over its size, and several lines together may be.
      for (const line of kept) this.push(line);
      done();
    },
    flush(done) {
      done(null, tailLength > 0 ? Buffer.concat(tail) : undefined);
    },
  });
  input.pipe(lines);
  // The SDK's transport hears of a failed stdin as it did reading it directly: an error, then the close.
  input.once('error', (error) => lines.destroy(error));
  const wire = new StdioServerTransport(lines, output);
  const send = wire.send.bind(wire);
  // An answer to a request of a batch waits for the batch's other answers.
  wire.send = async (message: JSONRPCMessage) => {
    const id = 'method' in message || !('id' in message) ? undefined : message.id;
    if (id === undefined || !batches.has(requestIdKey(id))) return send(message);
    const all = answered(requestIdKey(id), message);
    if (all) await send(all as unknown as JSONRPCMessage);
  };
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
