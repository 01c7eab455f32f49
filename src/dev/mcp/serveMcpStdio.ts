import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Server, type ServerContext, type Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { McpDiscovery } from './discoveryFile';

type Target = Pick<McpDiscovery, 'url' | 'token'>;

type Forward = <T>(use: (client: Client) => Promise<T>, signal?: AbortSignal) => Promise<T>;
type CallToolRequest = Parameters<Client['callTool']>[0];

// How long the client may take to answer the ping that follows forwarded progress, before the result goes anyway.
const SETTLE_TIMEOUT = 5000;
// How long the result waits after forwarded progress for a 2026-07-28 client, which cannot be pinged.
const MODERN_SETTLE_MS = 20;

/**
 * One `tools/call`, forwarded with its progress. The MCP SDK's client dispatches a notification a microtask after it
 * reads it, but a response at once, removing the call's progress handler: a progress message read in the same chunk
 * as the result is dropped ("Received a progress notification for an unknown token"; some clients even close the
 * connection). A message just before the result often is (an app's last progress, then its return), so after
 * forwarding progress the result waits for a ping's answer: the client dispatches in order, so by then it has handled
 * every progress message sent before. The 2026-07-28 revision has no ping: there the result waits 20 ms, which makes
 * the loss unlikely but cannot rule it out.
 */
async function callTool(
  server: Server,
  forward: Forward,
  request: { params: CallToolRequest },
  context: ServerContext,
) {
  const progressToken = context.mcpReq._meta?.progressToken;
  let forwarded = false;
  try {
    return await forward(
      (client) =>
        client.callTool(request.params, {
          signal: context.mcpReq.signal,
          // The platform bounds the person's wait itself and keeps the call alive with progress.
          timeout: 24 * 3600_000,
          resetTimeoutOnProgress: true,
          onprogress: (progress) => {
            if (progressToken === undefined) return;
            forwarded = true;
            context.mcpReq
              .notify({ method: 'notifications/progress', params: { ...progress, progressToken } })
              .catch(() => {});
          },
        }),
      context.mcpReq.signal,
    );
  } finally {
    const { signal, envelope } = context.mcpReq;
    if (forwarded && !signal.aborted) {
      // A 2026-07-28 request carries its envelope, and that revision refuses a ping (the client would fail the call):
      // there the result waits a moment instead, so the progress most likely reaches the client in a read of its own.
      if (envelope === undefined)
        await server.request({ method: 'ping' }, { timeout: SETTLE_TIMEOUT, signal }).catch(() => {});
      else await new Promise((resolve) => setTimeout(resolve, MODERN_SETTLE_MS));
    }
  }
}

/** Options of {@link serveMcpStdio}. @internal */
export interface ServeMcpStdioOptions {
  /**
   * Finds the running `svc dev` (its discovery file): read before each request, so a restarted platform (a new port
   * or token) is followed, and undefined while none runs.
   */
  discover(): Promise<Target | undefined>;
  /** How the app folder is named in messages (`svc-sdk mcp <dir>`). */
  dir: string;
  /** The command that starts `svc dev` for the app, for messages (`npx svc-sdk dev <dir>`). */
  start: string;
  /** The server's version in `serverInfo`. */
  version: string;
  /** Lines for the person (stderr: stdout carries the protocol). */
  log(line: string): void;
  /** A transport instead of this process's stdin and stdout (tests). */
  transport?: Transport;
}

/**
 * The stdio form of `svc dev`'s MCP endpoint, for clients that cannot reach a local HTTP server (Claude Desktop):
 * every `tools/list` and `tools/call` is forwarded to the running platform under the stdio client's own name (its
 * agent id), with progress and cancellation passed through; the tool list's changes too. The platform is found again
 * before each request, so a restart of `svc dev` is followed without restarting the client, and a stopped one is
 * named in the error.
 * @internal
 */
export function serveMcpStdio(options: ServeMcpStdioOptions) {
  const { start } = options;
  return serveStdio(
    () => {
      let upstream: { target: Target; client: Promise<Client> } | undefined;
      // Set once the stdio connection closes (stdin ended): a request still finding svc dev then opens nothing, as a
      // connection opened after the close would be closed by no one and keep the process running.
      let closed = false;
      // The platform found last, to tell a restart (a new port or token) from the same one.
      let last: Target | undefined;
      const server = new Server(
        { name: 'svc-dev', version: options.version },
        { capabilities: { tools: { listChanged: true } } },
      );
      const drop = () => {
        void upstream?.client.then((client) => client.close()).catch(() => {});
        upstream = undefined;
      };
      // Connected on first use, named after the client that connected here: the platform's agent id is that name.
      const open = (target: Target) => {
        const client = new Client(
          { name: server.getClientVersion()?.name ?? 'svc-mcp-stdio', version: options.version },
          { listChanged: { tools: { onChanged: () => void server.sendToolListChanged().catch(() => {}) } } },
        );
        return client
          .connect(
            new StreamableHTTPClientTransport(new URL(target.url), {
              requestInit: { headers: { Authorization: `Bearer ${target.token}` } },
            }),
          )
          .then(() => client);
      };
      const connect = async (): Promise<Client> => {
        const found = await options.discover();
        if (closed) throw new Error('the MCP client closed the connection.');
        if (!found) {
          drop();
          throw new Error(
            `no svc dev runs for ${options.dir} now: start it again (${start}) and keep its messenger page open; this bridge finds it by itself on the next call.`,
          );
        }
        const moved = (target: Target | undefined) =>
          !!target && (target.url !== found.url || target.token !== found.token);
        if (moved(last)) options.log(`svc mcp: svc dev restarted; forwarding to ${found.url} now.`);
        last = found;
        if (moved(upstream?.target)) drop();
        if (!upstream) {
          const client = open(found);
          upstream = { target: found, client };
          client.catch(() => {
            if (upstream?.client === client) upstream = undefined;
          });
        }
        return upstream.client.catch((error: Error) => {
          throw new Error(
            `svc dev is not reachable at ${found.url} (${error.message}); if it stopped, start it again (${start}).`,
          );
        });
      };
      // A failure of the connection itself (svc dev stopped or restarted mid-request) drops it, so the next request
      // connects afresh; a call is not run again (it may have run), the agent is told to call again.
      const forward = async <T>(use: (client: Client) => Promise<T>, signal?: AbortSignal): Promise<T> => {
        const client = await connect();
        try {
          return await use(client);
        } catch (error) {
          if (signal?.aborted) throw error;
          drop();
          const reason = error instanceof Error ? error.message : String(error);
          const now = await options.discover();
          throw new Error(
            now
              ? `the connection to svc dev was lost (${reason}); it runs at ${now.url}: call again.`
              : `svc dev stopped during the request (${reason}): start it again (${start}), then call again.`,
          );
        }
      };
      server.setRequestHandler('tools/list', () => forward((client) => client.listTools()));
      server.setRequestHandler('tools/call', (request, context) => callTool(server, forward, request, context));
      server.onclose = () => {
        closed = true;
        drop();
      };
      return server;
    },
    { transport: options.transport },
  );
}
