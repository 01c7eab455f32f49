import { isDeepStrictEqual } from 'node:util';
import type { Client } from '@modelcontextprotocol/client';
import {
  CLIENT_INFO_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Manifest } from '../../manifest';
import { createArgumentCheck, errorResult } from './createToolCall';
import { ownProtoKey, restoreOwnProto } from './ownProto';
import { createStdioWire } from './createStdioWire';
import { createUpstream, type UpstreamTarget } from './createUpstream';
import { serverIdentity } from './serverIdentity';
import { safeToRepeat } from '../safeToRepeat';
import { toolsFromManifest } from './toolsFromManifest';

type CallToolRequest = Parameters<Client['callTool']>[0];
type CallResult = Awaited<ReturnType<Client['callTool']>>;
type ListResult = Awaited<ReturnType<Client['listTools']>>;
/** A request forwarded to svc dev: `use` with its client, or `offline()` while none runs. */
type Forward = <T>(use: (client: Client) => Promise<T>, offline: () => T | Promise<T>) => Promise<T>;

// How long the client may take to answer the ping that follows forwarded progress, before the result goes anyway.
const SETTLE_TIMEOUT = 5000;
// How long the result waits after forwarded progress for a 2026-07-28 client, which cannot be pinged: 20 ms lost a
// progress message on a loaded CI machine (the client read both at once), 50 ms costs a slow call little.
const MODERN_SETTLE_MS = 50;
// How often the bridge looks for svc dev after answering without one, to tell the client when its tools change.
const WATCH_MS = 1000;

/**
 * One `tools/call`, forwarded with its progress. The MCP SDK's client dispatches a notification a microtask after it
 * reads it, but a response at once, removing the call's progress handler: a progress message read in the same chunk
 * as the result is dropped ("Received a progress notification for an unknown token"; some clients even close the
 * connection). A message just before the result often is (an app's last progress, then its return), so after
 * forwarding progress the result waits for a ping's answer: the client dispatches in order, so by then it has handled
 * every progress message sent before. The 2026-07-28 revision has no ping: there the result waits 50 ms, which makes
 * the loss unlikely but cannot rule it out.
 */
async function callTool(
  server: Server,
  forward: Forward,
  params: CallToolRequest,
  context: ServerContext,
  offline: () => Promise<CallResult>,
  safe: () => Promise<boolean>,
) {
  const progressToken = context.mcpReq._meta?.progressToken;
  let forwarded = false;
  try {
    return await forward(
      (client) =>
        client.callTool(params, {
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
      offline,
    );
  } catch (error) {
    // svc dev's own JSON-RPC error (an unknown tool) and the client's cancel pass as they are. The connection lost
    // mid-call (svc dev stopped or killed) is the tool's failure with its code, as svc dev answers a call its stop
    // ended, not a JSON-RPC error an agent reads as its own mistake.
    if (ProtocolError.isInstance(error) || context.mcpReq.signal.aborted) throw error;
    const { message } = error as Error;
    // The call may have run in the app before the connection went (svc dev killed): an action that is neither
    // read-only nor idempotent may have done part of its work, as svc dev says of a call its stop ended.
    if (await safe()) return errorResult('ERR_DISCONNECTED', message, true) as CallResult;
    const said = message.replace(/(?::|, then) call again\.$/, '.');
    const again = 'The action may have done part of its work: check what it did before you call it again.';
    return errorResult('ERR_DISCONNECTED', `${said} ${again}`, false) as CallResult;
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
  discover(): Promise<UpstreamTarget | undefined>;
  /** The platform found when the bridge started, if one ran then. */
  found?: UpstreamTarget;
  /** The app's manifest as it is now (the last valid one): the tools while no svc dev runs, and the server's title. */
  manifest(): Promise<Manifest>;
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

/** The name the MCP client gave itself: in `initialize` (2025 era), or in each request's envelope (2026-07-28). */
function clientName(server: Server, context: ServerContext): string {
  const envelope = context.mcpReq.envelope as Record<string, { name?: unknown } | undefined> | undefined;
  const named = server.getClientVersion()?.name ?? envelope?.[CLIENT_INFO_META_KEY]?.name;
  return typeof named === 'string' && named !== '' ? named : 'svc-mcp-stdio';
}

/**
 * The stdio form of `svc dev`'s MCP endpoint, for clients that cannot reach a local HTTP server (Claude Desktop):
 * every `tools/list` and `tools/call` is forwarded to the running platform under the stdio client's own name (its
 * agent id), with progress and cancellation passed through; the tool list's changes too. The platform is found again
 * before each request, so a restart of `svc dev` is followed without restarting the client. While none runs (a
 * client that starts its servers at launch, before the person starts svc dev), `initialize` and `tools/list` are
 * answered from the manifest and a call with an error result that says to start it, and an edit of the manifest's
 * tools is told (`notifications/tools/list_changed`); once it runs, the client is told when its tools differ from
 * those it listed.
 * @internal
 */
export function serveMcpStdio(options: ServeMcpStdioOptions) {
  const { dir, start } = options;
  const checkArguments = createArgumentCheck();
  const protoKey = ownProtoKey();
  // A call while no svc dev runs: refused as svc dev would refuse it when it cannot run (a tool the app does not have,
  // arguments that do not fit), so the agent fixes the call rather than waiting for svc dev; else, start svc dev.
  const notStarted = async ({ name, arguments: args }: CallToolRequest): Promise<CallResult> => {
    const action = (await options.manifest()).actions?.find((a) => a.name === name);
    if (!action) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
    const refused = checkArguments(action, args ?? {});
    if (refused) return refused as CallResult;
    return errorResult(
      'ERR_HOST_UNREACHABLE',
      `no svc dev runs for ${dir} now: start it (${start}) and keep its messenger page open; this bridge finds it by itself on the next call.`,
      true,
    ) as CallResult;
  };
  return serveStdio(
    async () => {
      const { info, instructions } = serverIdentity((await options.manifest()).name, options.version);
      const server = new Server(info, { capabilities: { tools: { listChanged: true } }, instructions });
      const toolsChanged = () => void server.sendToolListChanged().catch(() => {});
      const upstream = createUpstream({ ...options, onToolsChanged: toolsChanged });
      // The tools the client was last given, to tell it when svc dev, once it runs, serves others (compared as
      // values: svc dev's list may give a tool's fields in another order).
      let listed: ListResult['tools'] | undefined;
      // The tools of an edited manifest the client was last told of, while no svc dev runs (told once).
      let told: ListResult['tools'] | undefined;
      let watching: ReturnType<typeof setTimeout> | undefined;
      let closed = false;
      const watch = (name: string) => {
        if (watching || closed) return;
        watching = setTimeout(async () => {
          const found = await options.discover();
          watching = undefined;
          if (!found) {
            // No svc dev: the manifest's tools are the ones served, and an edit of them is told as svc dev tells it.
            const now = (toolsFromManifest(await options.manifest()) as ListResult).tools;
            if (listed !== undefined && !isDeepStrictEqual(now, listed) && !isDeepStrictEqual(now, told)) {
              told = now;
              toolsChanged();
            }
            return watch(name);
          }
          const now = await upstream
            .forward(
              name,
              (client) => client.listTools(),
              () => undefined,
            )
            .catch(() => {});
          if (now && listed !== undefined && !isDeepStrictEqual(now.tools, listed)) toolsChanged();
        }, WATCH_MS);
        // Looking for svc dev never keeps the process running once the client has gone.
        watching.unref();
      };
      const forwardFor =
        (context: ServerContext): Forward =>
        (use, offline) => {
          const name = clientName(server, context);
          return upstream.forward(
            name,
            use,
            () => {
              watch(name);
              return offline();
            },
            context.mcpReq.signal,
          );
        };
      server.setRequestHandler('tools/list', async (_request, context) => {
        const result = await forwardFor(context)(
          (client) => client.listTools(),
          // The manifest's validator gave every input schema an object root, as MCP's tool type has.
          async () => toolsFromManifest(await options.manifest()) as ListResult,
        );
        listed = result.tools;
        return result;
      });
      server.setRequestHandler('tools/call', (request, context) => {
        // The arguments as the agent sent them, an own `__proto__` included (the wire moved it aside).
        const args = restoreOwnProto(request.params.arguments, protoKey) as Record<string, unknown> | undefined;
        const params = { ...request.params, arguments: args };
        const safe = async () => safeToRepeat((await options.manifest()).actions?.find((a) => a.name === params.name));
        return callTool(server, forwardFor(context), params, context, () => notStarted(params), safe);
      });
      server.onclose = () => {
        closed = true;
        clearTimeout(watching);
        upstream.close();
      };
      return server;
    },
    { transport: options.transport ?? createStdioWire(protoKey) },
  );
}
