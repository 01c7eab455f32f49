import { printable } from '../../manifest/printable';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  type RegisteredTool,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import type { Manifest } from '../../manifest';
import { checkMcpRequest } from './checkMcpRequest';
import type { InvocationRelay } from './createInvocationRelay';
import { createLegacySessions } from './createLegacySessions';
import { readUtf8Request } from './readUtf8Request';
import { serverIdentity } from './serverIdentity';
import { agentIdFrom, createToolCall, type McpEra, NOT_AN_OBJECT } from './createToolCall';
import { moveOwnProto, ownProtoKey, restoreOwnProto } from './ownProto';
import { toolsFromManifest } from './toolsFromManifest';
import { messageRefusal, paramsRefusal } from './paramsProblem';

/** Options of {@link createMcpEndpoint}. @internal */
export interface McpEndpointOptions {
  /** The manifest whose actions are the tools. */
  manifest: Manifest;
  relay: InvocationRelay;
  /** The bearer token clients send. */
  token: string;
  /** Exact origins a browser-based client may call from; none by default. */
  allowedOrigins?: string[];
  /** The agent id of every call; default the MCP client's name. */
  agentId?: string;
  /** Who answers the app's `elicit`: the person in the messenger (default) or the MCP client when it can. */
  elicit?: 'sheet' | 'agent';
  /** How long the MCP client may take to answer an `elicit` before the person is asked; 25 s. */
  agentAnswerTimeout?: number;
  /** The server's version in `serverInfo`. */
  version: string;
  /** How many 2025-era sessions stay open at most, and after how long unused one closes; 100 and 30 minutes. */
  sessions?: { max?: number; idleMs?: number };
}

const SESSION_LIMITS = { max: 100, idleMs: 30 * 60_000 };

/**
 * A manifest's JSON Schema in the form `registerTool` takes: listed in `tools/list` exactly as declared, and let
 * through by the SDK unchecked, because the call checks it itself (depth first, then the manifest's validator) so
 * that a bad call is answered with svc's error code, advice and `_meta` instead of the SDK's own sentence.
 */
function listedSchema(schema: Record<string, unknown>): StandardSchemaWithJSON {
  return {
    '~standard': {
      version: 1,
      vendor: 'svc',
      jsonSchema: { input: () => schema, output: () => schema },
      validate: (value) => ({ value }),
    },
  };
}

// The JSON-RPC parse error (-32700) of a body that is not UTF-8, as the SDK answers one that is not JSON.
const NOT_UTF8 = {
  jsonrpc: '2.0',
  error: { code: -32700, message: 'Parse error: the request body is not valid UTF-8: send JSON encoded as UTF-8.' },
  id: null,
};

/**
 * A POST's body parsed once, for the era check, the clientInfo fix and the SDK alike (each would otherwise clone the
 * request and parse it again), with an own `__proto__` of a call's arguments moved aside; a body that is no JSON
 * stays text, for the SDK to answer with its parse error.
 */
async function parseBody(request: Request, protoKey: string): Promise<{ request: Request; parsedBody?: unknown }> {
  if (request.method !== 'POST') return { request };
  const text = await request.text();
  try {
    const parsedBody: unknown = JSON.parse(text);
    moveOwnProto(parsedBody, protoKey);
    nonObjectResultsAsErrors(parsedBody);
    return { request, parsedBody };
  } catch {
    return { request: new Request(request, { body: text }) };
  }
}

/**
 * A client's answer to a request of svc dev's (an elicitation) whose `result` is not an object, passed on as the error
 * it is. The SDK takes no other result (an MCP result is an object) and dropped it without a word, so the request
 * waited its minute for an answer that had come, and then the person was asked; as an error it fails at once, and the
 * app's question is declined.
 */
function nonObjectResultsAsErrors(body: unknown): void {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null || 'method' in message || 'error' in message) continue;
    if (!('result' in message)) continue;
    const { result } = message;
    if (typeof result === 'object' && result !== null && !Array.isArray(result)) continue;
    const kind = result === null ? 'null' : Array.isArray(result) ? 'an array' : `a ${typeof result}`;
    const answer = message as { result?: unknown; error?: unknown };
    delete answer.result;
    answer.error = { code: -32600, message: `${NOT_AN_OBJECT} ${kind}, not an object` };
  }
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * A standard MCP header's value (2026-07-28): trimmed, and decoded when a client wrote it as `=?base64?…?=` (a value
 * that is not plain ASCII, as a tool name with a control character).
 */
function paramHeader(request: Request, name: string): string | undefined {
  const value = request.headers.get(name)?.trim();
  const encoded = value && /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(value);
  return encoded ? Buffer.from(encoded[1]!, 'base64').toString('utf8') : value;
}

/**
 * Tells the terminal and the page of each call in a parsed body (one message or a batch) of a tool the manifest does
 * not declare: the MCP SDK answers those itself (-32602, never reaching the tool's handler), and every call is listed.
 * A 2026-07-28 request (`session` undefined) whose `Mcp-Method` and `Mcp-Name` headers do not name the call is the
 * SDK's to refuse for them (-32020), and is not told as a tool not found.
 */
function tellUndeclaredTools(
  request: Request,
  body: unknown,
  manifest: Manifest,
  options: McpEndpointOptions,
  session: { server: McpServer } | undefined,
): void {
  const sessionClient = session?.server.server.getClientVersion()?.name;
  for (const message of Array.isArray(body) ? body : [body]) {
    const { method, params } = (message ?? {}) as {
      method?: unknown;
      params?: { name?: unknown; arguments?: unknown; _meta?: Record<string, { name?: unknown } | undefined> };
    };
    const name = params?.name;
    if (method !== 'tools/call' || typeof name !== 'string') continue;
    if (manifest.actions?.some((action) => action.name === name)) continue;
    if (!session && (paramHeader(request, 'mcp-method') !== method || paramHeader(request, 'mcp-name') !== name))
      continue;
    // A 2026-07-28 request names its client in its own envelope; a 2025-era session's name came with initialize.
    const named = params?._meta?.[CLIENT_INFO_META_KEY]?.name;
    const agentId =
      options.agentId ?? agentIdFrom(sessionClient ?? (typeof named === 'string' && named !== '' ? named : undefined));
    const tools = (manifest.actions ?? []).map((action) => action.name).join(', ') || 'none';
    // The agent's text on a terminal line: shown printable, and cut short. The page shows what the agent got; the
    // terminal adds the tools there are.
    const shown = printable(name.slice(0, 100));
    options.relay.refused(
      { name: shown, agentId, input: params?.arguments ?? {} },
      '-32602',
      `Tool ${shown} not found`,
      ` (the app's tools: ${tools}).`,
    );
  }
}

/**
 * Answers 405, naming the three methods Streamable HTTP has, to a request of any other (not a session's advice, as
 * the SDK would); whether it did.
 */
function refusedMethod(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method === 'GET' || req.method === 'POST' || req.method === 'DELETE') return false;
  req.resume();
  res.writeHead(405, { allow: 'GET, POST, DELETE', 'content-type': 'application/json' }).end(
    JSON.stringify({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: `Method not allowed: ${req.method} is not an MCP request; send POST (GET and DELETE for a session).`,
      },
      id: null,
    }),
  );
  return true;
}

/**
 * The MCP endpoint of `svc dev` (Streamable HTTP at `/mcp`): the manifest's actions as tools, each call run in the
 * messenger page through the host's rules. 2026-07-28 clients are served per request; 2025-era clients get a
 * session each (so the server can send them elicitation requests). Every request passes the loopback Host, Origin
 * and bearer token checks first.
 * @internal
 */
export function createMcpEndpoint(options: McpEndpointOptions) {
  let manifest = options.manifest;
  const callTool = createToolCall(options);
  const protoKey = ownProtoKey();

  /** Registers the manifest's actions as the server's tools, in the manifest's order, instead of those it had. */
  const registerTools = (server: McpServer, registered: RegisteredTool[], era: McpEra) => {
    for (const tool of registered.splice(0)) tool.remove();
    for (const tool of toolsFromManifest(manifest).tools)
      registered.push(
        server.registerTool(tool.name, listing(tool), async (args, ctx) => {
          // A session with a call running is in use: the cap on sessions closes another.
          const { sessionId } = ctx;
          if (sessionId) legacy.begin(sessionId, ctx.mcpReq.id);
          const result = await callTool({
            manifest,
            name: tool.name,
            args: restoreOwnProto(args, protoKey),
            ctx,
            server,
            era,
          }).finally(() => sessionId && legacy.end(sessionId, ctx.mcpReq.id));
          // A call the client cancelled gets no answer (as MCP says), so the SDK would keep its event stream open
          // with keep-alives for good: it ends once the SDK has passed over the answer.
          if (ctx.mcpReq.signal.aborted && sessionId) setImmediate(() => legacy.closeStream(sessionId, ctx.mcpReq.id));
          return result;
        }),
      );
  };

  const build = (era: McpEra) => {
    const { info, instructions } = serverIdentity(manifest.name, options.version);
    const server = new McpServer(info, {
      capabilities: { tools: { listChanged: true } },
      instructions,
      // A changed manifest removes and registers every tool: its clients hear of it once.
      debouncedNotificationMethods: ['notifications/tools/list_changed'],
    });
    const registered: RegisteredTool[] = [];
    registerTools(server, registered, era);
    return { server, registered };
  };

  // The POST requests whose answers are being written: a close waits for them.
  const answering = createAnswering();
  const modern = createMcpHandler(({ era }) => build(era).server, { legacy: 'reject' });
  const legacy = createLegacySessions(() => build('legacy'), { ...SESSION_LIMITS, ...options.sessions });
  const node = toNodeHandler({
    async fetch(received: Request) {
      const { request, parsedBody } = await parseBody(received, protoKey);
      // An empty batch, a malformed JSON body and the like are the SDK's to answer; a member at fault is named here.
      const refused = (parsedBody === undefined ? undefined : messageRefusal(parsedBody)) ?? paramsRefusal(parsedBody);
      if (refused) return refused;
      // A 2025-era session's client said its name at initialize; a 2026-era request says it in its envelope.
      tellUndeclaredTools(request, parsedBody, manifest, options, legacy.builtFor(request));
      return (await isLegacyRequest(request, parsedBody))
        ? legacy.serve(request, parsedBody)
        : modern.fetch(request, { parsedBody });
    },
  });

  return {
    /** Serves one request to `/mcp` (the caller routes by path). */
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const headers = { get: (name: string) => first(req.headers[name.toLowerCase()]) ?? null };
      const guard = { token: options.token, allowedOrigins: options.allowedOrigins ?? [] };
      // A browser client of an allowed origin (--mcp-origin) may read the answers, that origin exactly.
      const origin = headers.get('origin');
      if (origin !== null && guard.allowedOrigins.includes(origin)) corsFor(origin, res);
      // Its preflight carries no token (browsers never send one): it is answered once the Host and Origin pass.
      if (req.method === 'OPTIONS' && headers.get('access-control-request-method') !== null) {
        req.resume();
        const refused = checkMcpRequest(headers, guard, { preflight: true });
        return void res.writeHead(refused?.status ?? 204).end();
      }
      const refusal = checkMcpRequest(headers, guard);
      if (refusal) {
        req.resume();
        return void res
          .writeHead(refusal.status, {
            'content-type': 'application/json',
            ...(refusal.status === 401 ? { 'www-authenticate': 'Bearer realm="svc dev"' } : {}),
          })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: refusal.message }, id: null }));
      }
      if (refusedMethod(req, res)) return;
      if (req.method === 'GET') sendHeadersAtOnce(res);
      if (req.method !== 'POST') return node(req, res);
      answering.track(res);
      const checked = await readUtf8Request(req);
      if (!checked)
        return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(NOT_UTF8));
      await node(checked, res);
    },
    /** How many 2025-era sessions are open. */
    get openSessions() {
      return legacy.size;
    },
    /** The current tools (what `tools/list` answers). */
    tools: () => toolsFromManifest(manifest),
    /** Serves a changed manifest's actions and tells connected clients the tool list changed. */
    setManifest(next: Manifest) {
      manifest = next;
      modern.notify.toolsChanged();
      // Each session's server lists the new tools; the SDK tells its client the list changed.
      for (const { server, registered } of legacy.built()) registerTools(server, registered, 'legacy');
    },
    /**
     * Closes every session, once the requests being answered have their answers (the calls the platform's stop
     * failed among them), for at most {@link ANSWER_GRACE_MS}: closed at once, a call's event stream ended with no
     * answer, and its agent waited for its own timeout (a minute) for nothing.
     */
    async close() {
      await answering.settled(ANSWER_GRACE_MS);
      await legacy.close();
      await modern.close();
    },
  };
}

/** A tool as `tools/list` shows it, from what the manifest's action says. */
const listing = (tool: ReturnType<typeof toolsFromManifest>['tools'][number]) => ({
  title: tool.title,
  description: tool.description,
  inputSchema: listedSchema(tool.inputSchema),
  outputSchema: tool.outputSchema && listedSchema(tool.outputSchema),
  annotations: tool.annotations,
  _meta: tool._meta,
});

/** The responses being written, tracked until each closes, and a wait for them all, bounded. */
function createAnswering() {
  const open = new Set<Promise<void>>();
  return {
    track(res: ServerResponse) {
      const closed = new Promise<void>((done) => res.once('close', done));
      open.add(closed);
      void closed.then(() => open.delete(closed));
    },
    async settled(ms: number) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(open), new Promise((done) => (timer = setTimeout(done, ms)))]);
      clearTimeout(timer);
    },
  };
}

/** How long a closing endpoint waits for the answers being written: a failed call's is written within milliseconds. */
const ANSWER_GRACE_MS = 1000;

/** The request headers a browser client of the MCP endpoint sends beyond the simple ones. */
const CORS_REQUEST_HEADERS = 'authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id';

/**
 * The CORS headers of an answer to `origin`, an allowed one: it, exactly (never `*`), may read the answer and the
 * headers a client needs (the session id, the protocol version, why a token was refused), and send what MCP sends.
 */
function corsFor(origin: string, res: ServerResponse): void {
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'Origin');
  res.setHeader('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version, www-authenticate');
  res.setHeader('access-control-allow-methods', 'GET, POST, DELETE');
  res.setHeader('access-control-allow-headers', CORS_REQUEST_HEADERS);
  res.setHeader('access-control-max-age', '600');
}

/**
 * Sends the answer's headers as soon as they are written. The SDK's Node adapter leaves them for its first write,
 * and the event stream a client opens with GET (for the server's notifications) has none until the first
 * notification or the SDK's keep-alive 15 s later: until then the client cannot tell the stream opened, and one with
 * a shorter wait for headers gives up on it.
 */
function sendHeadersAtOnce(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    writeHead(...args);
    res.flushHeaders();
    return res;
  }) as ServerResponse['writeHead'];
}

/** A running MCP endpoint (see {@link createMcpEndpoint}). @internal */
export type McpEndpoint = ReturnType<typeof createMcpEndpoint>;
