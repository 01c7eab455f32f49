import type { IncomingMessage, ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { PROBLEMS } from '../../server/problems';
import type { ControlApp } from './createControlApp';
import type { Guards } from './createGuards';
import type { PlatformEnv } from './PlatformEnv';
import { ProblemError } from './ProblemError';
import { problemResponse } from './problemResponse';
import { requestPath } from './requestPath';

/** The parts the one app is made of, each built by the platform. @internal */
export interface PlatformAppParts {
  /** The messenger origin, `http://127.0.0.1:<port>`: problem types live under `<origin>/errors/`. */
  origin: string;
  guards: Guards;
  /** The identity provider's routes (`/realms/...`). */
  identity: Hono<PlatformEnv>;
  /** The server API (`/v1/...`). */
  serverApi: Hono<PlatformEnv>;
  /** The page, its script, its channel and the event stream for readers. */
  page: Hono<PlatformEnv>;
  /** The store's upload route. */
  store: Hono<PlatformEnv>;
  /** The guarded control API. */
  control: ControlApp;
  /** The agent bridge's MCP endpoint while it runs: it answers on the node request and response. */
  mcp(): { handle(req: IncomingMessage, res: ServerResponse): void } | undefined;
  /** The MCP endpoint's path (`/mcp`). */
  mcpPath: string;
}

/** Where an MCP client looks for OAuth (RFC 9728 and RFC 8414 discovery, then the MCP spec's default endpoints). */
const OAUTH_PATHS =
  /^\/(?:register|authorize|token|\.well-known\/(?:oauth-protected-resource|oauth-authorization-server|openid-configuration)(?:\/.*)?)$/;

/**
 * The one HTTP app of the messenger origin, in the order routes are tried: the identity provider, the problem types
 * (`/errors/<name>`), the server API, the page, the store, the MCP endpoint, and the guarded control API. Every
 * error is answered by one handler as problem details (RFC 9457); an unknown route is one too.
 * @internal
 */
export function createPlatformApp(parts: PlatformAppParts) {
  // A trie, not Hono's default RegExpRouter: that one compiles every route into its matchers on the first request,
  // which is the page's (4 ms of its 11); with about fifty routes, matching in a trie costs no throughput.
  const app = new Hono<PlatformEnv>({ router: new TrieRouter() });
  // Built on the first unknown route, once every route is in.
  let methods: TrieRouter<string> | undefined;
  app.onError((error, c) => {
    if (error instanceof ProblemError)
      return problemResponse(parts.origin, error.problem, error.detail, requestPath(c), error.headers);
    // A failure nobody foresaw may come after part of a change: a read can be sent again, a change only once the
    // sender has looked at what it did.
    const next = c.req.method === 'GET' ? 'retry' : 'it may be done in part, so look before you send it again';
    return problemResponse(
      parts.origin,
      'internal-error',
      `The platform failed on this request (${error.message}): ${next}, and report it if it happens again.`,
      requestPath(c),
    );
  });
  app.notFound((c) => {
    // A path that exists with other methods is 405 with the Allow header RFC 9110 requires, not an unknown route.
    // A route of this very method that passed the request on leaves it unknown.
    methods ??= methodRouter(app);
    const allowed = methodsAt(methods, c.req.path);
    if (allowed.length && !allowed.includes(c.req.method))
      return problemResponse(
        parts.origin,
        'method-not-allowed',
        `${requestPath(c)} is not sent with ${c.req.method}: send ${allowed.join(' or ')}.`,
        requestPath(c),
        { allow: allowed.join(', ') },
      );
    // An MCP client refused a token looks for OAuth here (its discovery, then /register): it is told what svc dev
    // takes instead, which the client shows (mcp47 F2: it showed "open the URL", no fix for a stale token).
    const oauth = OAUTH_PATHS.test(c.req.path);
    return problemResponse(
      parts.origin,
      'not-found',
      oauth
        ? `There is no route ${requestPath(c)}: svc dev's MCP endpoint signs no one in with OAuth; give your client the Authorization header svc dev printed at its start, whose MCP token changes at each start without --state.`
        : `There is no route ${requestPath(c)}: open the URL svc dev printed.`,
      requestPath(c),
    );
  });
  app.route('/', parts.identity);
  // Each problem's `type` URI resolves to a line saying what it is; one route per problem, so that another name is
  // an unknown route whatever the method.
  for (const [name, { status, title }] of Object.entries(PROBLEMS))
    app.get(`/errors/${name}`, (c) =>
      c.body(`${name} (${status}): ${title}. The answer's detail says what to do.\n`, 200, {
        'content-type': 'text/plain; charset=utf-8',
      }),
    );
  app.route('/', parts.serverApi);
  app.route('/', parts.page);
  app.route('/', parts.store);
  // The MCP SDK reads its own body and writes its own answer (a stream, for some calls) on node's objects.
  app.all(parts.mcpPath, (c) => {
    const mcp = parts.mcp();
    const { incoming, outgoing } = c.env ?? {};
    if (!mcp || !incoming || !outgoing)
      throw new ProblemError('not-found', `There is no route ${parts.mcpPath}: svc dev runs no agent bridge here.`);
    mcp.handle(incoming, outgoing);
    return RESPONSE_ALREADY_SENT;
  });
  app.route('/', parts.control);
  return app;
}

/**
 * A router of `app`'s routes by method, routes for any method and middleware left out: the app's own router cannot
 * say which methods a path has.
 */
function methodRouter(app: Hono<PlatformEnv>): TrieRouter<string> {
  const router = new TrieRouter<string>();
  for (const route of app.routes) if (route.method !== 'ALL') router.add(route.method, route.path, route.method);
  return router;
}

/** The methods `router` has a route for at `path`, GET with HEAD. */
function methodsAt(router: TrieRouter<string>, path: string): string[] {
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => router.match(m, path)[0].length > 0);
  return methods.includes('GET') ? ['GET', 'HEAD', ...methods.slice(1)] : methods;
}

/** The platform's app. @internal */
export type PlatformApp = ReturnType<typeof createPlatformApp>;
