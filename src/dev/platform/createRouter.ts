import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createProblem, PROBLEMS, type ProblemName } from '../../server/problems';
import { CONTROL_PREFIX, type DevState, streamFrame } from '../devContract';
import { checkControlRequest } from './checkControlRequest';
import type { ControlHandlers } from './controlActions';
import type { IdentityProvider } from './createIdentityProvider';
import { handleServerApi } from './handleServerApi';
import { LIMITS } from './limits';
import { decodeUtf8, readRequestBody } from './readRequestBody';
import { type SigningSecrets, validSecrets } from './signingSecrets';

/** Everything the platform's one HTTP server routes to. */
export interface RouteContext {
  /** The messenger origin, `http://127.0.0.1:<port>`. */
  origin: string;
  realm: string;
  audience: string;
  controlToken: string;
  state: DevState;
  idp: IdentityProvider;
  /** The control routes' actions (the MCP relay's only while it runs). */
  actions: Partial<ControlHandlers>;
  secrets: SigningSecrets;
  /** The vendor's rate limit bucket: 0 when admitted, else seconds to wait. */
  take(): number;
  /** Open event streams of messenger pages. */
  streams: Set<ServerResponse>;
  /** Saves the state and tells every page; resolves once the change is durable, rejects with the reason it is not. */
  changed(): Promise<void>;
  /** The messenger page's own Content-Security-Policy (it may frame the app's origin only). */
  pageCsp: string;
  /** The messenger page's HTML, and its script (absent until built). */
  page(): Promise<{ html: string; script?: string }>;
}

const sameToken = (given: string, token: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** One request being answered: what the route handlers read, and how they answer. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The exact bytes of the body. */
  bytes: Uint8Array;
  /** The route's named groups, such as `name` in `/errors/(?<name>...)`. */
  params: Record<string, string>;
  send(status: number, value: unknown, headers?: Record<string, string>): void;
  /** Sends JSON already serialised. */
  sendJson(status: number, json: string): void;
  fail(name: ProblemName, detail: string, headers?: Record<string, string>): void;
}

/** One entry of the route table. */
interface Route {
  /** The exact path, a prefix (ending in `*`), or a pattern with named groups. */
  match: string | RegExp;
  /** The methods it answers; another method goes on down the table, unless `wrongMethod` answers it. */
  methods?: readonly string[];
  /** The answer to a method outside `methods`, for routes whose standard says what it is. */
  wrongMethod?(x: Exchange): void;
  /** The body limit in bytes (default: the control API's). */
  limit?: number;
  handle(x: Exchange): void | Promise<void>;
}

function matches(route: Route, path: string): Record<string, string> | undefined {
  if (typeof route.match !== 'string') return route.match.exec(path)?.groups ?? undefined;
  if (route.match.endsWith('*')) return path.startsWith(route.match.slice(0, -1)) ? {} : undefined;
  return path === route.match ? {} : undefined;
}

/**
 * The platform's route table, in the order it is tried: the identity provider (`/realms/...`), the problem types
 * (`/errors/<name>`), the server API (`/v1/...`), the messenger page (`/`, with the launch token in its URL), and
 * the guarded control API (`/__svc/...`, one action per route of {@link ControlHandlers}).
 */
function routeTable(ctx: RouteContext): Route[] {
  const oidc = `/realms/${ctx.realm}/protocol/openid-connect`;
  const host = new URL(ctx.origin).host;
  // The page and its script: a page of another origin cannot read them (no CORS), and the page needs the
  // per-launch token in its URL, so a guessed URL gets nothing.
  const fromOwnHost = (x: Exchange) => {
    if (x.req.headers.host === host) return true;
    x.fail('forbidden', `The Host header must be ${host}: open the URL svc dev printed.`);
    return false;
  };
  return [
    {
      match: `/realms/${ctx.realm}/.well-known/openid-configuration`,
      methods: ['GET', 'HEAD'],
      limit: LIMITS.tokenForm,
      wrongMethod: (x) =>
        x.fail('method-not-allowed', 'The discovery document is read with GET.', { allow: 'GET, HEAD' }),
      handle: (x) => x.send(200, ctx.idp.discovery, { 'cache-control': 'no-store' }),
    },
    { match: `${oidc}/certs`, limit: LIMITS.tokenForm, handle: (x) => x.send(200, ctx.idp.jwks) },
    {
      match: `${oidc}/token`,
      methods: ['POST'],
      limit: LIMITS.tokenForm,
      // RFC 6749 errors, not problem details: this is what OAuth clients read.
      wrongMethod: (x) =>
        x.send(
          405,
          { error: 'invalid_request', error_description: 'The token endpoint takes POST with a form body.' },
          { allow: 'POST', 'cache-control': 'no-store' },
        ),
      handle: async (x) => {
        const text = decodeUtf8(x.bytes);
        const answer =
          text === undefined
            ? { status: 400, body: { error: 'invalid_request', error_description: 'The form is not valid UTF-8.' } }
            : await ctx.idp.exchange(new URLSearchParams(text));
        x.send(answer.status, answer.body, { 'cache-control': 'no-store', pragma: 'no-cache' });
      },
    },
    {
      // Each problem's `type` URI resolves to a line saying what it is.
      match: new RegExp(`^/errors/(?<name>${Object.keys(PROBLEMS).join('|')})$`),
      methods: ['GET'],
      handle: (x) => {
        const name = x.params.name as ProblemName;
        const { status, title } = PROBLEMS[name];
        x.res
          .writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
          .end(`${name} (${status}): ${title}. The answer's detail says what to do.\n`);
      },
    },
    {
      match: '/v1/*',
      limit: LIMITS.serverApiBody,
      handle: async (x) => {
        const answer = await handleServerApi(
          { method: x.req.method ?? 'GET', path: x.url.pathname, headers: x.req.headers, body: x.bytes },
          {
            state: ctx.state,
            errorsUrl: `${ctx.origin}/errors`,
            secrets: () => validSecrets(ctx.secrets),
            take: ctx.take,
            notificationsScope: 'svc.notifications',
            verifyToken: async (t) => (await ctx.idp.verify(t, ctx.audience)).payload as { sub?: string },
            changed: () => ctx.changed(),
          },
        );
        x.send(answer.status, answer.body, answer.headers);
      },
    },
    {
      match: '/',
      methods: ['GET'],
      handle: async (x) => {
        if (!fromOwnHost(x)) return;
        if (!sameToken(x.url.searchParams.get('token') ?? '', ctx.controlToken))
          return void x.res
            .writeHead(403, { 'content-type': 'text/plain; charset=utf-8' })
            .end('Open the URL svc dev printed: it carries this launch token.\n');
        x.res
          .writeHead(200, {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-store',
            'referrer-policy': 'no-referrer',
            'content-security-policy': ctx.pageCsp,
          })
          .end((await ctx.page()).html);
      },
    },
    {
      match: `${CONTROL_PREFIX}/ui.js`,
      methods: ['GET'],
      handle: async (x) => {
        if (!fromOwnHost(x)) return;
        const { script } = await ctx.page();
        if (!script) return x.fail('not-found', 'The page script is not built: run npm run build.');
        x.res
          .writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' })
          .end(script);
      },
    },
    {
      match: `${CONTROL_PREFIX}/events`,
      methods: ['GET'],
      handle: (x) => {
        const refusal = checkControlRequest(
          x.req.headers,
          { token: ctx.controlToken, origin: ctx.origin },
          x.url.searchParams.get('token'),
        );
        if (refusal) return x.fail('forbidden', refusal);
        x.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
        x.res.write(streamFrame('state', { type: 'state', state: ctx.state }));
        ctx.streams.add(x.res);
        // The response, not the request: the request closed once its (empty) body was read, before this line.
        x.res.once('close', () => ctx.streams.delete(x.res));
      },
    },
    { match: `${CONTROL_PREFIX}*`, handle: (x) => control(ctx, x) },
  ];
}

/** A control API request: the guard, then the route's action over its JSON body; the answer or the new state. */
async function control(ctx: RouteContext, x: Exchange): Promise<void> {
  const refusal = checkControlRequest(x.req.headers, { token: ctx.controlToken, origin: ctx.origin });
  if (refusal) return x.fail('forbidden', refusal);
  const key = `${x.req.method} ${x.url.pathname}`;
  const actions = ctx.actions as Record<string, ((body: unknown) => unknown) | undefined>;
  const action = Object.hasOwn(actions, key) ? actions[key] : undefined;
  if (!action)
    return x.fail('not-found', `There is no control route ${key}: use one of ${Object.keys(actions).join(', ')}.`);
  const text = decodeUtf8(x.bytes);
  if (text === undefined) return x.fail('invalid-request', 'The body is not valid UTF-8: send JSON encoded as UTF-8.');
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    return x.fail('invalid-request', 'The body is not JSON: send a JSON object.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return x.fail('invalid-request', 'The body must be a JSON object: send {} when the route needs no field.');
  let result: unknown;
  try {
    result = await action(parsed);
  } catch (error) {
    return x.fail('invalid-request', (error as Error).message);
  }
  if (result !== undefined) return x.send(200, result);
  // The answer is the state as this change left it, taken before its write is awaited: by the time the write is on
  // disk, the live state may hold later changes still queued for the next write, which a crash would roll back.
  const durable = ctx.changed();
  const answer = JSON.stringify(ctx.state);
  try {
    await durable;
  } catch (error) {
    return x.fail('internal-error', (error as Error).message);
  }
  x.sendJson(200, answer);
}

/**
 * The request handler of the platform's server: finds the route in the table (its body read first, within the
 * route's limit), and answers every error as problem details (`application/problem+json`), whose `detail` says what
 * to do.
 */
export function createRouter(ctx: RouteContext): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const routes = routeTable(ctx);
  return async (req, res) => {
    const url = new URL(req.url ?? '/', ctx.origin);
    const path = url.pathname;
    const sendJson = (status: number, json: string, headers: Record<string, string> = {}) =>
      void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(json);
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      sendJson(status, JSON.stringify(value), headers);
    const fail = (name: ProblemName, detail: string, headers: Record<string, string> = {}) =>
      send(PROBLEMS[name].status, createProblem(`${ctx.origin}/errors`, name, detail, path), {
        'content-type': 'application/problem+json',
        ...headers,
      });
    let found: { route: Route; params: Record<string, string> } | undefined;
    for (const route of routes) {
      const params = matches(route, path);
      if (!params) continue;
      if (route.methods && !route.methods.includes(req.method ?? 'GET') && !route.wrongMethod) continue;
      found = { route, params };
      break;
    }
    const limit = found?.route.limit ?? LIMITS.controlBody;
    const read = await readRequestBody(req, limit);
    if ('tooLarge' in read)
      return fail(
        'payload-too-large',
        `The body has ${read.tooLarge} bytes, more than the ${limit} this endpoint accepts: send a smaller body (limits in docs/dev.md).`,
      );
    if (!found) return fail('not-found', `There is no route ${path}: open the URL svc dev printed.`);
    const x: Exchange = { req, res, url, bytes: read.bytes, params: found.params, send, sendJson, fail };
    const { route } = found;
    if (route.methods && !route.methods.includes(req.method ?? 'GET')) return route.wrongMethod?.(x);
    await route.handle(x);
  };
}
