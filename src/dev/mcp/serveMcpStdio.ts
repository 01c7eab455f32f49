import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type CallToolResult, Server, type ServerContext, type Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { McpDiscovery } from './discoveryFile';

/** Options of {@link serveMcpStdio}. @internal */
export interface ServeMcpStdioOptions {
  /** The running `svc dev` to forward to. */
  target: Pick<McpDiscovery, 'url' | 'token'>;
  /** The server's version in `serverInfo`. */
  version: string;
  /** A transport instead of this process's stdin and stdout (tests). */
  transport?: Transport;
}

/**
 * The stdio form of `svc dev`'s MCP endpoint, for clients that cannot reach a local HTTP server (Claude Desktop):
 * every `tools/list` and `tools/call` is forwarded to the running platform under the stdio client's own name (its
 * agent id), with progress and cancellation passed through; the tool list's changes too.
 * @internal
 */
export function serveMcpStdio(options: ServeMcpStdioOptions) {
  return serveStdio(
    () => {
      let upstream: Promise<Client> | undefined;
      const server = new Server(
        { name: 'svc-dev', version: options.version },
        { capabilities: { tools: { listChanged: true } } },
      );
      // Connected on first use, named after the client that connected here: the platform's agent id is that name.
      const connect = () =>
        (upstream ??= (async () => {
          const client = new Client(
            { name: server.getClientVersion()?.name ?? 'svc-mcp-stdio', version: options.version },
            {
              listChanged: {
                tools: { onChanged: () => void server.sendToolListChanged().catch(() => {}) },
              },
            },
          );
          await client.connect(
            new StreamableHTTPClientTransport(new URL(options.target.url), {
              requestInit: { headers: { Authorization: `Bearer ${options.target.token}` } },
            }),
          );
          return client;
        })().catch((error) => {
          upstream = undefined;
          throw new Error(
            `svc dev is not reachable at ${options.target.url} (${(error as Error).message}); start it again with npx svc-sdk dev.`,
          );
        }));
      server.setRequestHandler('tools/list', async () => (await (await connect()).listTools()) as never);
      server.setRequestHandler('tools/call', async (request, ctx) => {
        const context = ctx as ServerContext;
        const progressToken = context.mcpReq._meta?.progressToken;
        const client = await connect();
        return (await client.callTool(request.params, {
          signal: context.mcpReq.signal,
          // The platform bounds the person's wait itself and keeps the call alive with progress.
          timeout: 24 * 3600_000,
          resetTimeoutOnProgress: true,
          onprogress: (progress) => {
            if (progressToken === undefined) return;
            context.mcpReq
              .notify({ method: 'notifications/progress', params: { ...progress, progressToken } })
              .catch(() => {});
          },
        })) as CallToolResult;
      });
      server.onclose = () => void upstream?.then((client) => client.close()).catch(() => {});
      return server;
    },
    { transport: options.transport },
  );
}
