import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OpenPage, PageChannel } from '../PageChannel';
import type { Manifest } from '../../manifest';
import type { DevPlatformOptions } from '../DevPlatformOptions';
import { createInvocationRelay } from './createInvocationRelay';
import type { McpEndpoint } from './createMcpEndpoint';

/** The path of the MCP endpoint on the platform's origin. @public */
export const MCP_PATH = '/mcp';

/** What {@link attachMcp} needs from the platform. @internal */
export interface AttachMcpParts {
  options: DevPlatformOptions;
  /** The app it serves: the tools come from its manifest. */
  app: { manifest: Manifest };
  /** The platform's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  /** The open messenger pages: the newest one runs the calls. */
  pages: PageChannel;
  /** The platform's secrets an agent must never be sent: the control token and the valid signing secrets. */
  secrets(): readonly string[];
  /** The bearer token to require (256 bits, base64url), the state file's with `--state`. */
  token: string;
}

/**
 * The agent bridge of a running platform: the MCP endpoint at `/mcp` with its own 256-bit token, the relay to the
 * messenger page (its control routes join the platform's); told of an edited manifest (`manifestEdited`), it waits
 * for the reloaded page and tells clients when the tool list changed.
 * @internal
 */
export function attachMcp({ options, app, origin, pages, secrets, token }: AttachMcpParts) {
  // Pages opened before the manifest changed: they reload, and never run a call with the old rules.
  const stale = new WeakSet<OpenPage>();
  const pageWait = options.mcpPageWait ?? 10_000;
  // Until when a call waits for a page: svc dev's reload for an edited manifest, or a page that just closed (a person
  // reloading it looks the same as a tab closed for good, and a reload is back within a second or two).
  let reloadUntil = 0;
  pages.onOpen((page) =>
    page.onClose(() => {
      reloadUntil = Math.max(reloadUntil, Date.now() + pageWait);
    }),
  );
  const freshPage = () =>
    pages
      .pages()
      .filter((page) => !page.closed && !stale.has(page))
      .at(-1);
  const relay = createInvocationRelay({
    page: freshPage,
    // While a page reloads a call waits (bounded) for it instead of failing: until a page opens, the wait's end, or
    // the call's cancellation.
    async pageReady(signal) {
      const left = reloadUntil - Date.now();
      if (freshPage() || left <= 0 || signal?.aborted) return;
      await new Promise<void>((ready) => {
        const stopListening = pages.onOpen(() => finish());
        const timer = setTimeout(() => finish(), left);
        signal?.addEventListener('abort', finish, { once: true });
        function finish() {
          clearTimeout(timer);
          stopListening();
          signal?.removeEventListener('abort', finish);
          ready();
        }
      });
    },
    reloadedBySvcDev: (page) => stale.has(page),
    pageOrigin: origin,
    personTimeout: options.mcpPersonTimeout ?? 50_000,
    keepalive: 15_000,
    secrets: () => [token, ...secrets()],
    onEnded: options.onEvent,
  });
  // The MCP SDK is loaded by the first MCP request, not at start: it is most of the platform's start-up time (about
  // 60% of loading svc-sdk/dev), and most runs of svc dev never see an agent.
  let manifest = app.manifest;
  let loading: Promise<McpEndpoint> | undefined;
  const endpoint = () =>
    (loading ??= import('./createMcpEndpoint').then(({ createMcpEndpoint }) =>
      createMcpEndpoint({
        manifest,
        relay,
        token,
        allowedOrigins: options.mcpOrigins,
        agentId: options.agentId,
        elicit: options.elicit,
        // Half the person's time: a client that never answers leaves the person the rest.
        agentAnswerTimeout: (options.mcpPersonTimeout ?? 50_000) / 2,
        version: app.manifest.version,
      }),
    ));
  /** Serves other tools from now on (a loaded endpoint tells its clients the list changed). */
  const setManifest = (next: Manifest) => {
    manifest = next;
    void loading?.then((loaded) => loaded.setManifest(next));
  };
  let servedActions = JSON.stringify(app.manifest.actions ?? []);
  /**
   * An edited manifest, before the platform serves it and tells the pages to reload: calls wait for a reloaded page
   * (never one with the old rules), and clients hear of a change of the tools only.
   */
  const manifestEdited = (next: Manifest) => {
    for (const page of pages.pages()) stale.add(page);
    reloadUntil = Date.now() + pageWait;
    const actions = JSON.stringify(next.actions ?? []);
    if (actions === servedActions) return;
    servedActions = actions;
    setManifest(next);
  };
  return {
    url: `${origin}${MCP_PATH}`,
    token,
    setManifest,
    manifestEdited,
    /** Answers one request to {@link MCP_PATH} on the node request and response (the MCP SDK reads its own body). */
    handle(req: IncomingMessage, res: ServerResponse) {
      endpoint()
        .then((loaded) => loaded.handle(req, res))
        .catch(() => {
          if (!res.headersSent) res.writeHead(500).end();
        });
    },
    /** The control routes the page answers MCP calls through. */
    routes: relay.routes,
    async close() {
      relay.close();
      await (await loading)?.close();
    },
  };
}
