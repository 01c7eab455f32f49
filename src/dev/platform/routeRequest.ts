import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONTROL_PREFIX, type DevConfig, type DevState } from '../protocol';
import { checkControlRequest } from './checkControlRequest';
import type { ActionBody, ControlAction } from './controlActions';
import type { IdentityProvider } from './createIdentityProvider';
import { handleServerApi } from './handleServerApi';
import { LIMITS } from './limits';
import { type SigningSecrets, validSecrets } from './signingSecrets';
import { decodeUtf8, readRequestBody } from './readRequestBody';
import { createProblem, PROBLEMS, type ProblemName } from '../../server/problems';

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
  secrets: SigningSecrets;
  /** The vendor's rate limit bucket: 0 when admitted, else seconds to wait. */
  take(): number;
  /** Open event streams of messenger pages. */
  streams: Set<ServerResponse>;
  /** Saves the state and tells every page; resolves once the change is durable, rejects with the reason it is not. */
  changed(): Promise<void>;
  config(): DevConfig;
  /** The messenger page's own Content-Security-Policy (it may frame the app's origin only). */
  pageCsp: string;
  /** The messenger page's HTML, and its script (absent until built). */
  page(): Promise<{ html: string; script?: string }>;
}

const sameToken = (given: string, token: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length == b.length && timingSafeEqual(a, b);
};

/** The body limit of a path: the server API's, the token endpoint's, or the control API's. */
const bodyLimit = (path: string) =>
  path.startsWith('/v1/') ? LIMITS.serverApiBody : path.startsWith('/realms/') ? LIMITS.tokenForm : LIMITS.controlBody;

/**
 * Routes one request of the platform's server: the identity provider (`/realms/...`), the server API (`/v1/...`),
 * the messenger page (`/`, with the launch token in its URL), and the guarded control API (`/__svc/...`). Every
 * error is answered as problem details (`application/problem+json`), whose `detail` says what to do.
 */
export async function routeRequest(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', ctx.origin);
  const path = url.pathname;
  const send = (status: number, value: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
  const fail = (name: ProblemName, detail: string, headers: Record<string, string> = {}) =>
    void send(PROBLEMS[name].status, createProblem(`${ctx.origin}/errors`, name, detail, path), {
      'content-type': 'application/problem+json',
      ...headers,
    });
  const limit = bodyLimit(path);
  const read = await readRequestBody(req, limit);
  if ('tooLarge' in read)
    return fail(
      'payload-too-large',
      `The body has ${read.tooLarge} bytes, more than the ${limit} this endpoint accepts: send a smaller body (limits in docs/dev.md).`,
    );
  const bytes = read.bytes;
  const oidc = `/realms/${ctx.realm}/protocol/openid-connect`;
  if (path === `/realms/${ctx.realm}/.well-known/openid-configuration`) {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return fail('method-not-allowed', 'The discovery document is read with GET.', { allow: 'GET, HEAD' });
    return void send(200, ctx.idp.discovery, { 'cache-control': 'no-store' });
  }
  if (path === `${oidc}/certs`) return void send(200, ctx.idp.jwks);
  if (path === `${oidc}/token`) {
    if (req.method !== 'POST')
      return void send(
        405,
        { error: 'invalid_request', error_description: 'The token endpoint takes POST with a form body.' },
        { allow: 'POST', 'cache-control': 'no-store' },
      );
    const text = decodeUtf8(bytes);
    const answer =
      text === undefined
        ? { status: 400, body: { error: 'invalid_request', error_description: 'The form is not valid UTF-8.' } }
        : await ctx.idp.exchange(new URLSearchParams(text));
    return void send(answer.status, answer.body, { 'cache-control': 'no-store', pragma: 'no-cache' });
  }
  // Each problem's `type` URI resolves to a line saying what it is.
  const named = /^\/errors\/([a-z-]+)$/.exec(path)?.[1];
  if (req.method === 'GET' && named && Object.hasOwn(PROBLEMS, named)) {
    const { status, title } = PROBLEMS[named as ProblemName];
    return void res
      .writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
      .end(`${named} (${status}): ${title}. The answer's detail says what to do.\n`);
  }
  if (path.startsWith('/v1/')) {
    const answer = await handleServerApi(
      { method: req.method ?? 'GET', path, headers: req.headers, body: bytes },
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
    return void send(answer.status, answer.body, answer.headers);
  }
  // The page and its script: a page of another origin cannot read them (no CORS), and the page needs the
  // per-launch token in its URL, so a guessed URL gets nothing.
  if (req.method === 'GET' && (path === '/' || path === `${CONTROL_PREFIX}/ui.js`)) {
    if (req.headers.host !== new URL(ctx.origin).host)
      return fail('forbidden', `The Host header must be ${new URL(ctx.origin).host}: open the URL svc dev printed.`);
    const page = await ctx.page();
    if (path !== '/') {
      if (!page.script) return fail('not-found', 'The page script is not built: run npm run build.');
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
    if (refusal) return fail('forbidden', refusal);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(`event: state\ndata: ${JSON.stringify({ type: 'state', state: ctx.state })}\n\n`);
    ctx.streams.add(res);
    req.once('close', () => ctx.streams.delete(res));
    return;
  }
  if (path.startsWith(CONTROL_PREFIX)) {
    const refusal = checkControlRequest(req.headers, { token: ctx.controlToken, origin: ctx.origin });
    if (refusal) return fail('forbidden', refusal);
    if (req.method === 'GET' && path === `${CONTROL_PREFIX}/config`) return void send(200, ctx.config());
    const key = `${req.method} ${path}`;
    const action = Object.hasOwn(ctx.actions, key) ? ctx.actions[key] : undefined;
    if (!action)
      return fail('not-found', `There is no control route ${key}: use one of ${Object.keys(ctx.actions).join(', ')}.`);
    const text = decodeUtf8(bytes);
    if (text === undefined) return fail('invalid-request', 'The body is not valid UTF-8: send JSON encoded as UTF-8.');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      return fail('invalid-request', 'The body is not JSON: send a JSON object.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return fail('invalid-request', 'The body must be a JSON object: send {} when the route needs no field.');
    let result: unknown;
    try {
      result = await action(parsed as ActionBody);
    } catch (error) {
      return fail('invalid-request', (error as Error).message);
    }
    if (result === undefined) {
      try {
        await ctx.changed();
      } catch (error) {
        return fail('internal-error', (error as Error).message);
      }
    }
    return void send(200, result ?? ctx.state);
  }
  fail('not-found', `There is no route ${path}: open the URL svc dev printed.`);
}
