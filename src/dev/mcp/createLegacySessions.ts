import { randomUUID } from 'node:crypto';
import { type McpServer, type RequestId, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { requestIdKey } from './requestIdKey';

/** How many 2025-era sessions stay open at most, and after how long unused one closes. @internal */
export interface SessionLimits {
  max: number;
  idleMs: number;
}

interface Session<S> {
  transport: WebStandardStreamableHTTPServerTransport;
  /** What the endpoint built for the session: its server and whatever it keeps beside it. */
  built: S;
  used: number;
  /** Its tool calls running now: a session with one is in use, neither idle nor the oldest to close. */
  calls: number;
  /** The JSON-RPC ids of those calls (their keys): a request that reuses one is refused. */
  running: Set<string>;
}

/**
 * The id a request of `body` (one message or a batch) reuses from `running`, if one does: the SDK would answer the
 * new request with the running one's answer, and leave the running one's own request without any.
 */
function reusedId(body: unknown, running: Set<string>): RequestId | undefined {
  if (!running.size) return undefined;
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!isRecord(message) || typeof message.method !== 'string') continue;
    const { id } = message;
    if ((typeof id === 'string' || typeof id === 'number') && running.has(requestIdKey(id))) return id;
  }
  return undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

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

/** A JSON-RPC error answer of status 400, with no id (the request's may be unknown). */
const badRequest = (message: string) =>
  Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: `Bad Request: ${message}` }, id: null },
    { status: 400 },
  );

/**
 * What is wrong with a 2025-era request that has no session, or undefined for an `initialize` that opens one: any
 * other request needs the session `initialize` answered with, and `initialize` needs its `clientInfo`.
 */
function sessionlessProblem(method: string, body: unknown): string | undefined {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const init = messages.find((m) => isRecord(m) && m.method === 'initialize');
  if (method !== 'POST' || !isRecord(init))
    return 'send the Mcp-Session-Id header that the answer to initialize carried (initialize first if you have none).';
  const info = isRecord(init.params) ? init.params.clientInfo : undefined;
  if (!isRecord(info) || typeof info.name !== 'string')
    return 'initialize needs params.clientInfo with the client\'s name ({ "name": "my-agent", "version": "1.0.0" }).';
  return undefined;
}

/**
 * The 2025-era clients' sessions (the sessionful Streamable HTTP transport, so that the server can send them
 * requests such as elicitation): one server each, built by `build`, kept least recently used first (a use moves a
 * session to the end), capped at `max` (the oldest without a call running goes) and closed after `idleMs` unused; a
 * client whose session is gone is told to initialize again.
 * @internal
 */
export function createLegacySessions<S extends { server: McpServer }>(build: () => S, limits: SessionLimits) {
  const sessions = new Map<string, Session<S>>();
  const drop = (id: string, session: Session<S>) => {
    sessions.delete(id);
    void session.built.server.close().catch(() => {});
  };
  const sweep = setInterval(
    () => {
      for (const [id, session] of sessions)
        if (session.calls === 0 && Date.now() - session.used > limits.idleMs) drop(id, session);
    },
    Math.min(limits.idleMs, 60_000),
  );
  sweep.unref();

  /** A request without a session: an `initialize` opens one (anything else is answered by the SDK and closed). */
  const open = async (request: Request, parsedBody: unknown): Promise<Response> => {
    const built = build();
    fillClientVersion(parsedBody);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, built, used: Date.now(), calls: 0, running: new Set() });
        // Over the cap, the session used longest ago goes (its client gets 404 and initializes again); not one with
        // a call running, whose answer its agent waits for: the cap is then passed by as many as those, for a while.
        for (const [old, session] of sessions) {
          if (sessions.size <= limits.max) break;
          if (session.calls === 0 && old !== id) drop(old, session);
        }
      },
      onsessionclosed: (id) => void sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await built.server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody });
    if (!transport.sessionId) void built.server.close();
    return response;
  };

  return {
    /** Serves one 2025-era request, its body parsed once by the caller. */
    async serve(request: Request, parsedBody: unknown): Promise<Response> {
      const id = request.headers.get('mcp-session-id');
      if (!id) {
        // The SDK answers each of these "Server not initialized"; the client is told what to send instead.
        const problem = sessionlessProblem(request.method, parsedBody);
        return problem ? badRequest(problem) : open(request, parsedBody);
      }
      const session = sessions.get(id);
      if (!session)
        return Response.json(
          { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found: initialize again.' }, id: null },
          { status: 404 },
        );
      const reused = reusedId(parsedBody, session.running);
      if (reused !== undefined)
        return Response.json(
          {
            jsonrpc: '2.0',
            error: {
              code: -32600,
              message: `Invalid Request: id ${JSON.stringify(reused)} is the id of a call of this session that is still running: give each request an id of its own.`,
            },
            id: reused,
          },
          { status: 400 },
        );
      // Moved to the end (the most recently used), keeping its count of running calls.
      sessions.delete(id);
      session.used = Date.now();
      sessions.set(id, session);
      return session.transport.handleRequest(request, { parsedBody });
    },
    /** A tool call of the session starts, request `requestId`: the session is in use until it ends. */
    begin(id: string, requestId: RequestId) {
      const session = sessions.get(id);
      if (!session) return;
      session.calls += 1;
      session.running.add(requestIdKey(requestId));
    },
    /** A tool call of the session ended (answered, failed or cancelled). */
    end(id: string, requestId: RequestId) {
      const session = sessions.get(id);
      if (session) {
        session.calls -= 1;
        session.running.delete(requestIdKey(requestId));
        session.used = Date.now();
      }
    },
    /** Ends the event stream of one request of a session (a cancelled call, which gets no answer). */
    closeStream(id: string, requestId: RequestId) {
      sessions.get(id)?.transport.closeSSEStream(requestId);
    },
    /** What each open session's server was built with. */
    built: () => [...sessions.values()].map((session) => session.built),
    /** What the server of the session a request names was built with, if it is open. */
    builtFor: (request: Request) => sessions.get(request.headers.get('mcp-session-id') ?? '')?.built,
    /** How many sessions are open. */
    get size() {
      return sessions.size;
    },
    /** Closes every session. */
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map(({ built }) => built.server.close().catch(() => {})));
      sessions.clear();
    },
  };
}
