import { isRecord } from '../../manifest/helpers';

/**
 * A request whose params the MCP SDK would answer with -32603 and its own validation dump (it throws a plain error
 * from its parse), or would take without a word: said as JSON-RPC's -32602 with what to send. `tools/list` takes no
 * cursor, since svc dev lists every tool at once and so hands none out: any cursor is one it never gave (MCP: an
 * invalid cursor SHOULD be -32602).
 * @internal
 */
export function paramsProblem(message: unknown): { code: -32602; message: string } | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (method !== 'tools/list' || typeof params !== 'object' || params === null) return undefined;
  const { cursor } = params as { cursor?: unknown };
  if (cursor === undefined) return undefined;
  return {
    code: -32602,
    message: `Invalid params: cursor ${JSON.stringify(cursor)?.slice(0, 100)} was never given: tools/list lists every tool at once, so send no cursor.`,
  };
}

/**
 * The HTTP answer to a request alone (not a batch's member) whose params {@link paramsProblem} refuses: answered
 * here, as the MCP SDK would not. @internal
 */
export function paramsRefusal(body: unknown): Response | undefined {
  const problem = paramsProblem(body);
  if (!problem) return undefined;
  return Response.json({ jsonrpc: '2.0', id: (body as { id?: unknown }).id ?? null, error: problem });
}

/** A JSON value as a sentence names it: `null`, an array, an object, a number, a string as written (its start). */
const kindOf = (value: unknown) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object'
        : typeof value === 'number'
          ? `the number ${value}`
          : typeof value === 'string'
            ? `${JSON.stringify(value.slice(0, 40))}${value.length > 40 ? '…' : ''}`
            : typeof value;

/**
 * What makes `message` no JSON-RPC 2.0 message as MCP takes one, naming the member at fault and what to send; or
 * undefined for one that is (as far as its members' kinds go: the MCP SDK checks the rest). The SDK's own answer to
 * each of these says only that the body is no valid message.
 * @internal
 */
export function messageProblem(message: unknown): string | undefined {
  if (!isRecord(message))
    return `the message is ${kindOf(message)}, not an object: send {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}.`;
  const { jsonrpc, id, method, params } = message as Record<string, unknown>;
  if (jsonrpc !== '2.0')
    return jsonrpc === undefined
      ? 'the message has no "jsonrpc": send "jsonrpc": "2.0".'
      : `"jsonrpc" is ${kindOf(jsonrpc)}: send "jsonrpc": "2.0".`;
  if ('id' in message && typeof id !== 'string' && !Number.isInteger(id))
    return `"id" is ${kindOf(id)}: send a string or an integer (a notification has no "id").`;
  if ('method' in message) {
    if (typeof method !== 'string')
      return `"method" is ${kindOf(method)}: send the method's name, such as "tools/call".`;
    if ('params' in message && (typeof params !== 'object' || params === null || Array.isArray(params)))
      return `"params" is ${kindOf(params)}: send an object (MCP's params are named), or no "params".`;
    return undefined;
  }
  if (!('result' in message) && !('error' in message))
    return 'the message has no "method" (a request or a notification) and no "result" or "error" (a response): send one.';
  if (!('id' in message)) return 'the response has no "id": send the id of the request it answers.';
  return undefined;
}

/**
 * The HTTP answer (400, -32600) to a body that is no JSON-RPC message, or a batch with a member that is none, naming
 * the member at fault: the MCP SDK says only "not a valid JSON-RPC message". @internal
 */
export function messageRefusal(body: unknown): Response | undefined {
  const members = Array.isArray(body) ? body : [body];
  for (const [at, member] of members.entries()) {
    const problem = messageProblem(member);
    if (!problem) continue;
    const where = Array.isArray(body) ? `message ${at + 1} of the batch: ` : '';
    const id = (member as { id?: unknown } | null)?.id;
    return Response.json(
      {
        jsonrpc: '2.0',
        id: typeof id === 'string' || Number.isInteger(id) ? id : null,
        error: { code: -32600, message: `Invalid Request: ${where}${problem}` },
      },
      { status: 400 },
    );
  }
  return undefined;
}
