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
