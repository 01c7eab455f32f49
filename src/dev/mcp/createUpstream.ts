import { Client, ProtocolError, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpDiscovery } from './discoveryFile';

/** Where a running `svc dev` serves its MCP endpoint, and the token it takes. @internal */
export type UpstreamTarget = Pick<McpDiscovery, 'url' | 'token'>;

/** How often a request waiting on svc dev looks whether it still runs. */
const WATCH_MS = 1000;

/**
 * svc dev's own JSON-RPC error in the body of a request it refused over HTTP (a body over its 4 MiB: 413), which the
 * MCP client throws as an HTTP failure, not as the error it is, when the body's id is null.
 */
function refusedWith(error: unknown): ProtocolError | undefined {
  if (!SdkHttpError.isInstance(error)) return undefined;
  try {
    const body = JSON.parse(String((error.data as { text?: unknown } | undefined)?.text)) as {
      error?: { code?: unknown; message?: unknown; data?: unknown };
    };
    const { code, message, data } = body.error ?? {};
    if (Number.isInteger(code) && typeof message === 'string') return new ProtocolError(code as number, message, data);
  } catch {}
  return undefined;
}

/** Options of {@link createUpstream}. @internal */
export interface UpstreamOptions {
  /** Finds the running `svc dev` (its discovery file), or undefined while none runs. */
  discover(): Promise<UpstreamTarget | undefined>;
  /** The platform found when the bridge started, if one ran then (a later one is announced on stderr). */
  found?: UpstreamTarget;
  /** The command that starts `svc dev` for the app, for messages. */
  start: string;
  /** The bridge's version in its client info. */
  version: string;
  /** Lines for the person (stderr). */
  log(line: string): void;
  /** Called when svc dev says its tool list changed. */
  onToolsChanged(): void;
}

/**
 * The stdio bridge's connection to the running `svc dev`: opened on first use under the MCP client's own name (the
 * platform's agent id is that name), and found again before each request, so a restart (a new port or token) is
 * followed and a stopped platform is noticed.
 * @internal
 */
export function createUpstream(options: UpstreamOptions) {
  const { start } = options;
  let current: { target: UpstreamTarget; name: string; client: Promise<Client> } | undefined;
  // Set once the stdio connection closes (stdin ended): a request still finding svc dev then opens nothing, as a
  // connection opened after the close would be closed by no one and keep the process running.
  let closed = false;
  // The platform found last, to tell a restart (a new port or token) from the same one.
  let last = options.found;
  const drop = () => {
    void current?.client.then((client) => client.close()).catch(() => {});
    current = undefined;
  };
  const open = (target: UpstreamTarget, name: string) => {
    const client = new Client(
      { name, version: options.version },
      { listChanged: { tools: { onChanged: options.onToolsChanged } } },
    );
    return client
      .connect(
        new StreamableHTTPClientTransport(new URL(target.url), {
          requestInit: { headers: { Authorization: `Bearer ${target.token}` } },
        }),
      )
      .then(() => client);
  };
  /** The client connected to the running svc dev under `name`, or undefined when none runs. */
  const connect = async (name: string): Promise<Client | undefined> => {
    const found = await options.discover();
    if (closed) throw new Error('the MCP client closed the connection.');
    if (!found) {
      drop();
      return undefined;
    }
    const moved = (target: UpstreamTarget | undefined) =>
      !!target && (target.url !== found.url || target.token !== found.token);
    if (moved(last)) options.log(`svc mcp: svc dev restarted; forwarding to ${found.url} now.`);
    else if (!last) options.log(`svc mcp: svc dev started; forwarding to ${found.url} now.`);
    last = found;
    if (moved(current?.target) || (current && current.name !== name)) drop();
    if (!current) {
      const client = open(found, name);
      current = { target: found, name, client };
      client.catch(() => {
        if (current?.client === client) current = undefined;
      });
    }
    return current.client.catch((error: Error) => {
      throw new Error(
        `svc dev is not reachable at ${found.url} (${error.message}); if it stopped, start it again (${start}).`,
      );
    });
  };
  /**
   * Rejects once the platform a request went to no longer runs (its discovery file gone, or its process), looked at
   * every {@link WATCH_MS}: a platform killed mid-call ends its event stream with no answer, and the client would
   * wait for its own timeout (a minute) for one that cannot come.
   */
  const platformGone = (target: UpstreamTarget | undefined, stop: AbortSignal) =>
    new Promise<never>((_, reject) => {
      const timer = setInterval(async () => {
        const now = await options.discover().catch(() => undefined);
        if (stop.aborted || (now?.url === target?.url && now?.token === target?.token)) return;
        reject(new Error('its process ended before it answered'));
      }, WATCH_MS);
      timer.unref();
      stop.addEventListener('abort', () => clearInterval(timer), { once: true });
    });
  return {
    /**
     * Runs `use` with the client connected to svc dev under `name`, or answers `offline()` while none runs. A JSON-RPC
     * error svc dev answered (an unknown tool: -32602) reaches the caller as it came, code, message and data: it says
     * what to do, and svc dev is there; so does one it answered with an HTTP error (a request over its size). A
     * failure of the connection itself (svc dev stopped or restarted mid-request) drops it, so the next request
     * connects afresh; a call is not run again (it may have run), the agent is told to call again, unless svc dev
     * refused it for a session it had closed (404), which ran nothing: that one is sent again, once.
     */
    async forward<T>(
      name: string,
      use: (client: Client) => Promise<T>,
      offline: () => T | Promise<T>,
      signal?: AbortSignal,
    ): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        const client = await connect(name);
        if (!client) return offline();
        const target = current?.target;
        const watch = new AbortController();
        try {
          return await Promise.race([use(client), platformGone(target, watch.signal)]);
        } catch (error) {
          if (signal?.aborted || ProtocolError.isInstance(error)) throw error;
          // svc dev no longer knew the session (it closed it for a newer one, at its cap of sessions): it refused the
          // request before running anything, so the request goes again, once, on a new session.
          if (attempt === 1 && SdkHttpError.isInstance(error) && error.status === 404) {
            drop();
            continue;
          }
          // Refused with a JSON-RPC error of its own (a request over its size): svc dev is there, and says why.
          const refused = refusedWith(error);
          if (refused) throw refused;
          drop();
          const reason = error instanceof Error ? error.message : String(error);
          const now = await options.discover();
          throw new Error(
            now
              ? `the connection to svc dev was lost (${reason}); it runs at ${now.url}: call again.`
              : `svc dev stopped during the request (${reason}): start it again (${start}), then call again.`,
          );
        } finally {
          watch.abort();
        }
      }
    },
    /** Closes the connection, and opens none after. */
    close() {
      closed = true;
      drop();
    },
  };
}
