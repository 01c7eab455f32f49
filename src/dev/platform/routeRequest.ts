import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONTROL_PREFIX, type DevConfig, type DevState } from '../protocol';
import { checkControlRequest } from './checkControlRequest';
import type { ControlAction } from './controlActions';
import type { IdentityProvider } from './createIdentityProvider';
import { handleServerApi } from './handleServerApi';

/** Everything the platform's one HTTP server routes to. */
export interface RouteContext {
  /** The messenger origin, `http://127.0.0.1:<port>`. */
  origin: string;
  realm: string;
  audience: string;
  controlToken: string;
  state: DevState;
  idp: IdentityProvider;
  actions: Record<string, ControlAction>;
  secrets: { current: string[] };
  take(): boolean;
  /** Open event streams of messenger pages. */
  streams: Set<ServerResponse>;
  /** Saves the state and tells every page. */
  changed(): void;
  config(): DevConfig;
  /** The messenger page's own Content-Security-Policy (it may frame the app's origin only). */
  pageCsp: string;
  /** The messenger page's HTML, and its script (absent until built). */
  page(): Promise<{ html: string; script?: string }>;
}

const problem = (status: number, title: string, detail: string, instance: string) => ({
  title,
  status,
  detail,
  instance,
});
const sameToken = (given: string, token: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length == b.length && timingSafeEqual(a, b);
};

/**
 * Routes one request of the platform's server: the identity provider (`/realms/...`), the server API (`/v1/...`),
 * the messenger page (`/`, with the launch token in its URL), and the guarded control API (`/__svc/...`).
 */
export async function routeRequest(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let body = '';
  for await (const chunk of req) body += chunk;
  const url = new URL(req.url ?? '/', ctx.origin);
  const path = url.pathname;
  const send = (status: number, value: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
  const oidc = `/realms/${ctx.realm}/protocol/openid-connect`;
  if (path === `${oidc}/certs`) return void send(200, ctx.idp.jwks);
  if (path === `${oidc}/token` && req.method === 'POST') {
    const answer = await ctx.idp.exchange(new URLSearchParams(body));
    return void send(answer.status, answer.body, { 'cache-control': 'no-store' });
  }
  if (path.startsWith('/v1/')) {
    const answer = await handleServerApi(
      { method: req.method ?? 'GET', path, headers: req.headers, body },
      {
        state: ctx.state,
        errorsUrl: `${ctx.origin}/errors`,
        secrets: () => ctx.secrets.current,
        take: ctx.take,
        notificationsScope: 'svc.notifications',
        verifyToken: async (t) => (await ctx.idp.verify(t, ctx.audience)).payload as { sub?: string },
        changed: ctx.changed,
      },
    );
    return void send(answer.status, answer.body, answer.headers);
  }
  // The page and its script: a page of another origin cannot read them (no CORS), and the page needs the
  // per-launch token in its URL, so a guessed URL gets nothing.
  if (req.method === 'GET' && (path === '/' || path === `${CONTROL_PREFIX}/ui.js`)) {
    if (req.headers.host !== new URL(ctx.origin).host)
      return void send(403, problem(403, 'Forbidden', 'wrong Host.', path));
    const page = await ctx.page();
    if (path !== '/') {
      if (!page.script)
        return void send(404, problem(404, 'Not found', 'the page script is not built: run npm run build.', path));
      return void res
        .writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' })
        .end(page.script);
    }
    if (!sameToken(url.searchParams.get('token') ?? '', ctx.controlToken))
      return void res
        .writeHead(403, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Open the URL svc dev printed: it carries this launch token.\n');
    return void res
      .writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'content-security-policy': ctx.pageCsp,
      })
      .end(page.html);
  }
  if (path === `${CONTROL_PREFIX}/events` && req.method === 'GET') {
    const refusal = checkControlRequest(
      req.headers,
      { token: ctx.controlToken, origin: ctx.origin },
      url.searchParams.get('token'),
    );
    if (refusal) return void send(403, problem(403, 'Forbidden', refusal, path));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(`event: state\ndata: ${JSON.stringify({ type: 'state', state: ctx.state })}\n\n`);
    ctx.streams.add(res);
    req.once('close', () => ctx.streams.delete(res));
    return;
  }
  if (path.startsWith(CONTROL_PREFIX)) {
    const refusal = checkControlRequest(req.headers, { token: ctx.controlToken, origin: ctx.origin });
    if (refusal) return void send(403, problem(403, 'Forbidden', refusal, path));
    if (req.method === 'GET' && path === `${CONTROL_PREFIX}/config`) return void send(200, ctx.config());
    const action = Object.hasOwn(ctx.actions, `${req.method} ${path}`)
      ? ctx.actions[`${req.method} ${path}`]
      : undefined;
    if (!action) return void send(404, problem(404, 'Not found', `no control route ${req.method} ${path}.`, path));
    try {
      const parsed = body ? JSON.parse(body) : {};
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('the body must be a JSON object.');
      const result = await action(parsed);
      if (result === undefined) ctx.changed();
      return void send(200, result ?? ctx.state);
    } catch (error) {
      return void send(400, problem(400, 'Bad request', (error as Error).message, path));
    }
  }
  send(404, problem(404, 'Not found', `no route ${path}.`, path));
}
