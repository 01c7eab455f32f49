import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  type CallToolResult,
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  type RegisteredTool,
  type ServerContext,
  type StandardSchemaWithJSON,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { createInputValidator, type InputValidator, type Manifest } from '../../manifest';
import { redactText } from '../../protocol/redactText';
import { checkMcpRequest } from './checkMcpRequest';
import type { InvocationRelay } from './createInvocationRelay';
import { elicitForm } from './elicitForm';
import { exceedsDepth } from './exceedsDepth';
import { isObjectRoot, type McpTool, toolsFromManifest, WRAPPED_RESULT } from './toolsFromManifest';

/** The reverse-domain key of an error result's `_meta`: `{ code, retriable }`. @internal */
export const SVC_ERROR_META = 'dev.svc/error';

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
  /** The server's version in `serverInfo`. */
  version: string;
  /** How many 2025-era sessions stay open at most, and after how long unused one closes; 100 and 30 minutes. */
  sessions?: { max?: number; idleMs?: number };
}

type Era = 'legacy' | 'modern';

const SESSION_LIMITS = { max: 100, idleMs: 30 * 60_000 };

// Far beyond any real input schema, and far below what the validator's and the relay's recursion can take.
const MAX_ARGUMENT_DEPTH = 64;

// What an agent should do after each error, beside the host's own sentence.
const ADVICE: Record<string, string> = {
  ERR_PERMISSION_DENIED: 'The person refused: do not call it again unless they ask you to.',
  ERR_ACTION_INVALID_INPUT: "Fix the arguments to fit the tool's inputSchema and call again.",
  ERR_ACTION_NOT_DECLARED: 'Call tools/list for the tools the app has now.',
  ERR_CANCELLED: 'Nothing more happens for this call.',
};

/** An `isError` result: the code first, what to do, `_meta` with the code; never `structuredContent` or a token. */
function errorResult(code: string, message: string, retriable: boolean): CallToolResult {
  const text = `${code}: ${redactText(message)}${ADVICE[code] ? ` ${ADVICE[code]}` : ''}`;
  return { isError: true, content: [{ type: 'text', text }], _meta: { [SVC_ERROR_META]: { code, retriable } } };
}

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

/**
 * Fills in `clientInfo.version` when an `initialize` leaves it out: clients in the field do, and the SDK would refuse
 * them with a puzzling "Server not initialized" (the name alone is all the bridge reads).
 */
function fillClientVersion(body: unknown): void {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  for (const message of messages) {
    if (!isRecord(message) || message.method !== 'initialize' || !isRecord(message.params)) continue;
    const info = message.params.clientInfo;
    if (isRecord(info) && typeof info.version !== 'string') info.version = 'unknown';
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * A POST's body parsed once, for the era check, the clientInfo fix and the SDK alike (each would otherwise clone the
 * request and parse it again); a body that is no JSON stays text, for the SDK to answer with its parse error.
 */
async function parseBody(request: Request): Promise<{ request: Request; parsedBody?: unknown }> {
  if (request.method !== 'POST') return { request };
  const text = await request.text();
  try {
    return { request, parsedBody: JSON.parse(text) };
  } catch {
    return { request: new Request(request, { body: text }) };
  }
}

/**
 * A signal aborted when either is, with its reason: what `AbortSignal.any` does, at a seventh of its cost on Node 20
 * (about 0.1 ms a call, on the path of every tool call).
 */
function eitherSignal(first: AbortSignal, second: AbortSignal | undefined): AbortSignal {
  if (!second || first.aborted) return first;
  if (second.aborted) return second;
  const either = new AbortController();
  const abort = (event: Event) => {
    if (event.target instanceof AbortSignal) either.abort(event.target.reason);
  };
  first.addEventListener('abort', abort, { once: true });
  second.addEventListener('abort', abort, { once: true });
  return either.signal;
}

/** An agent id from an MCP client's name (`claude-code`, `Visual Studio Code` -> `visual-studio-code`). */
const agentIdFrom = (clientName: string | undefined) =>
  (clientName ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64) || 'mcp-client';

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The MCP endpoint of `svc dev` (Streamable HTTP at `/mcp`): the manifest's actions as tools, each call run in the
 * messenger page through the host's rules. 2026-07-28 clients are served per request; 2025-era clients get a
 * session each (so the server can send them elicitation requests). Every request passes the loopback Host, Origin
 * and bearer token checks first.
 * @internal
 */
export function createMcpEndpoint(options: McpEndpointOptions) {
  let manifest = options.manifest;
  const validators = new Map<string, InputValidator>();
  // 2025-era sessions, least recently used first (a use moves a session to the end): capped, and closed when idle.
  const sessions = new Map<
    string,
    {
      transport: WebStandardStreamableHTTPServerTransport;
      server: McpServer;
      registered: RegisteredTool[];
      used: number;
    }
  >();
  const { max: maxSessions, idleMs } = { ...SESSION_LIMITS, ...options.sessions };
  const sweep = setInterval(
    () => {
      for (const [id, session] of sessions)
        if (Date.now() - session.used > idleMs) {
          sessions.delete(id);
          void session.server.close().catch(() => {});
        }
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  const callTool = async (name: string, args: unknown, ctx: ServerContext, server: McpServer, era: Era) => {
    // The manifest of now: a registered tool is the action of the manifest its server was built with.
    const action = manifest.actions?.find((a) => a.name === name);
    if (!action)
      return errorResult(
        'ERR_ACTION_NOT_DECLARED',
        `the app has no tool ${name} (its tools: ${(manifest.actions ?? []).map((a) => a.name).join(', ') || 'none'}).`,
        false,
      );
    const input = args ?? {};
    if (exceedsDepth(input, MAX_ARGUMENT_DEPTH))
      return errorResult(
        'ERR_ACTION_INVALID_INPUT',
        `the arguments of ${action.name} nest more than ${MAX_ARGUMENT_DEPTH} levels deep: send them flatter, as its inputSchema describes.`,
        false,
      );
    const validate = validators.get(action.name) ?? createInputValidator(action.input_schema);
    validators.set(action.name, validate);
    const issues = validate(input);
    // Checked here too, so a malformed call fails at once instead of waiting in the queue; the page's host checks
    // it again before the app or the person sees it.
    if (issues.length)
      return errorResult(
        'ERR_ACTION_INVALID_INPUT',
        `the arguments do not fit the inputSchema of ${action.name}: ${issues.map((i) => i.message).join('; ')}.`,
        false,
      );
    const progressToken = ctx.mcpReq._meta?.progressToken;
    let count = 0;
    const progress = (message: string) => {
      if (progressToken === undefined) return;
      count += 1;
      ctx.mcpReq
        .notify({ method: 'notifications/progress', params: { progressToken, progress: count, message } })
        .catch(() => {});
    };
    const canElicit =
      options.elicit === 'agent' && era === 'legacy' && server.server.getClientCapabilities()?.elicitation;
    const outcome = await options.relay.run({
      name: action.name,
      input,
      agentId: options.agentId ?? agentIdFrom(server.server.getClientVersion()?.name),
      // The HTTP request's signal too: a 2025-era client that dies mid-call sends no cancellation, its connection
      // just closes, and the call (and any sheet it raised) must end with it.
      signal: eitherSignal(ctx.mcpReq.signal, ctx.http?.req?.signal),
      progress,
      elicit: canElicit
        ? async ({ prompt, schema }) => {
            const form = elicitForm(schema);
            if (!form) return undefined;
            const answer = await ctx.mcpReq
              .elicitInput({ mode: 'form', message: prompt, requestedSchema: form.requestedSchema })
              .catch(() => undefined);
            if (!answer) return undefined;
            return { value: answer.action === 'accept' && answer.content ? form.unwrap(answer.content) : null };
          }
        : undefined,
    });
    if (!outcome.ok) return errorResult(outcome.code, outcome.message, outcome.retriable);
    const value = outcome.value === undefined ? null : outcome.value;
    const structured = !action.output_schema
      ? typeof value === 'object' && value !== null && !Array.isArray(value)
        ? value
        : undefined
      : isObjectRoot(action.output_schema)
        ? value
        : { [WRAPPED_RESULT]: value };
    const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(structured ?? value) }] };
    if (structured) result.structuredContent = structured as Record<string, unknown>;
    return result;
  };

  /** Registers the manifest's actions as the server's tools, in the manifest's order, instead of those it had. */
  const registerTools = (server: McpServer, registered: RegisteredTool[], era: Era) => {
    for (const tool of registered.splice(0)) tool.remove();
    for (const tool of toolsFromManifest(manifest).tools) registered.push(registerTool(server, tool, era));
  };

  const registerTool = (server: McpServer, tool: McpTool, era: Era) =>
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: listedSchema(tool.inputSchema),
        outputSchema: tool.outputSchema && listedSchema(tool.outputSchema),
        annotations: tool.annotations,
        _meta: tool._meta,
      },
      (args, ctx) => callTool(tool.name, args, ctx, server, era),
    );

  const build = (era: Era) => {
    const server = new McpServer(
      { name: 'svc-dev', title: `svc dev: ${manifest.name}`, version: options.version },
      {
        capabilities: { tools: { listChanged: true } },
        instructions:
          `The tools are the actions of the mini app "${manifest.name}" running in svc dev. A person watches the ` +
          'messenger page and confirms the calls its rules require.',
        // A changed manifest removes and registers every tool: its clients hear of it once.
        debouncedNotificationMethods: ['notifications/tools/list_changed'],
      },
    );
    const registered: RegisteredTool[] = [];
    registerTools(server, registered, era);
    return { server, registered };
  };

  const modern = createMcpHandler(({ era }) => build(era).server, { legacy: 'reject' });

  const legacy = async (request: Request, parsedBody: unknown): Promise<Response> => {
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const session = sessions.get(id);
      if (session) {
        sessions.delete(id);
        sessions.set(id, { ...session, used: Date.now() });
        return session.transport.handleRequest(request, { parsedBody });
      }
      return Response.json(
        { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found: initialize again.' }, id: null },
        { status: 404 },
      );
    }
    const { server, registered } = build('legacy');
    fillClientVersion(parsedBody);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        sessions.set(sid, { transport, server, registered, used: Date.now() });
        // Over the cap, the session used longest ago goes (its client gets 404 and initializes again).
        for (const [old, session] of sessions) {
          if (sessions.size <= maxSessions) break;
          sessions.delete(old);
          void session.server.close().catch(() => {});
        }
      },
      onsessionclosed: (sid) => void sessions.delete(sid),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody });
    if (!transport.sessionId) void server.close();
    return response;
  };

  const node = toNodeHandler({
    async fetch(received: Request) {
      const { request, parsedBody } = await parseBody(received);
      return (await isLegacyRequest(request, parsedBody))
        ? legacy(request, parsedBody)
        : modern.fetch(request, { parsedBody });
    },
  });

  return {
    /** Serves one request to `/mcp` (the caller routes by path). */
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const refusal = checkMcpRequest(
        { get: (name) => first(req.headers[name.toLowerCase()]) ?? null },
        { token: options.token, allowedOrigins: options.allowedOrigins ?? [] },
      );
      if (refusal) {
        req.resume();
        return void res
          .writeHead(refusal.status, {
            'content-type': 'application/json',
            ...(refusal.status === 401 ? { 'www-authenticate': 'Bearer realm="svc dev"' } : {}),
          })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: refusal.message }, id: null }));
      }
      await node(req, res);
    },
    /** How many 2025-era sessions are open. */
    get openSessions() {
      return sessions.size;
    },
    /** The current tools (what `tools/list` answers). */
    tools: () => toolsFromManifest(manifest),
    /** Serves a changed manifest's actions and tells connected clients the tool list changed. */
    setManifest(next: Manifest) {
      manifest = next;
      validators.clear();
      modern.notify.toolsChanged();
      // Each session's server lists the new tools; the SDK tells its client the list changed.
      for (const { server, registered } of sessions.values()) registerTools(server, registered, 'legacy');
    },
    /** Closes every session. */
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map(({ server }) => server.close().catch(() => {})));
      sessions.clear();
      await modern.close();
    },
  };
}

/** A running MCP endpoint (see {@link createMcpEndpoint}). @internal */
export type McpEndpoint = ReturnType<typeof createMcpEndpoint>;
