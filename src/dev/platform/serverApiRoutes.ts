import { redactPath } from '../redactPath';
import { type Context, Hono } from 'hono';
import type { DevEvent } from '../DevEvent';
import type { DevState } from '../devContract';
import type { IdentityProvider } from './createIdentityProvider';
import { bodyTooLarge, type Guards } from './createGuards';
import { handleServerApi } from './handleServerApi';
import { LIMITS } from '../limits';
import type { PlatformEnv } from './PlatformEnv';
import { requestPath } from './requestPath';

/** What the server API routes need from the platform. @internal */
export interface ServerApiRoutesContext {
  origin: string;
  audience: string;
  state: DevState;
  idp: IdentityProvider;
  guards: Guards;
  /** The secrets that verify now. */
  secrets(): string[];
  /** The vendor's rate limit bucket: 0 when admitted, else seconds to wait. */
  take(): number;
  changed(): Promise<void>;
  /** Told of each request with its answer's status and time, for the terminal. */
  tell(event: DevEvent): void;
  /** The routes of the served manifest (deep links must match one); none without a manifest. */
  routes(): readonly { path: string }[] | undefined;
  /** The scopes the served manifest declares; undefined without a manifest. */
  declared(): ReadonlySet<string> | undefined;
}

/**
 * The server API (`/v1/...`), emulated by {@link handleServerApi}: its signature covers the exact bytes of the body,
 * read once; each request is told to the terminal with its status and duration, refusals included.
 * @internal
 */
export function serverApiRoutes(ctx: ServerApiRoutesContext) {
  return new Hono<PlatformEnv>()
    .use('/v1/*', async (c, next) => {
      const started = Date.now();
      await next();
      ctx.tell({
        type: 'server-api',
        method: c.req.method,
        path: redactPath(requestPath(c), ctx.secrets()),
        status: c.res.status,
        duration_ms: Date.now() - started,
      });
    })
    .all('/v1/*', ctx.guards.limit(LIMITS.serverApiBody), async (c) => {
      const answer = await handleServerApi(
        {
          method: c.req.method,
          path: requestPath(c),
          headers: Object.fromEntries(c.req.raw.headers),
          body: await receivedBytes(c),
        },
        {
          state: ctx.state,
          errorsUrl: `${ctx.origin}/errors`,
          secrets: ctx.secrets,
          take: ctx.take,
          notificationsScope: 'svc.notifications',
          verifyToken: async (t) => (await ctx.idp.verify(t, ctx.audience)).payload,
          changed: ctx.changed,
          routes: ctx.routes,
          declared: ctx.declared,
        },
      );
      // A HEAD gets the GET's status and headers, and no body.
      if (c.req.method === 'HEAD') return c.body(null, answer.status as 200, answer.headers);
      return c.body(JSON.stringify(answer.body), answer.status as 200, answer.headers);
    });
}

/**
 * The exact bytes received, which the signature covers: a GET's too. @hono/node-server gives a GET or HEAD request
 * no body (a `Request` of those methods cannot have one), so a body sent with one is read from the socket here, to
 * the same limit the route's guard puts on every other body.
 */
async function receivedBytes(c: Context<PlatformEnv>): Promise<Uint8Array> {
  const incoming = c.env?.incoming;
  if (c.req.raw.body || !incoming) return new Uint8Array(await c.req.arrayBuffer());
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > LIMITS.serverApiBody) {
      // The rest is left unread: the connection cannot be used for another request.
      const refusal = bodyTooLarge(LIMITS.serverApiBody, c.req.header('content-length'));
      refusal.headers.connection = 'close';
      throw refusal;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
