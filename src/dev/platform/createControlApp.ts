import { type Context, Hono } from 'hono';
import type * as z from 'zod';
import {
  CONTROL_PREFIX,
  type ControlRoutes,
  type DevConfig,
  type DevState,
  type McpRoute,
  type McpRouteHandlers,
  type StateRoute,
} from '../devContract';
import type { ControlHandlers } from './controlActions';
import { CONTROL_BODIES } from '../controlSchemas';
import type { Guards } from './createGuards';
import { jsonBody } from './jsonBody';
import { LIMITS } from '../limits';
import { answerRelayed } from './answerRelayed';
import type { PlatformEnv } from './PlatformEnv';
import { ProblemError } from './ProblemError';

/** What the control API acts on. @internal */
export interface ControlAppContext {
  guards: Guards;
  /** The state routes' actions (install, grant, reset, ...). */
  actions: Pick<ControlHandlers, StateRoute>;
  /** The live state. */
  state: DevState;
  /** Saves the state and tells every page; resolves once the change is durable, rejects with the reason it is not. */
  changed(): Promise<void>;
  /** What the page starts from. */
  config(): DevConfig;
  /** The agent bridge's routes while it runs. */
  mcpRoutes(): McpRouteHandlers | undefined;
  /** Tells the terminal what only the page knows. */
  pageEvent(event: ControlRoutes['POST /__svc/page-event']['request']): void;
}

/** An action's refusal (an Error naming the field) as a 400 problem; a problem it threw stays what it is. */
async function refusing<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProblemError) throw error;
    throw new ProblemError('invalid-request', (error as Error).message);
  }
}

/**
 * The guarded control API (`/__svc/...`): one route per control route, each with its body limit, guard and body
 * schema, answering its action's result or the state the change left. Its type is the contract: the messenger page
 * calls it through Hono's typed client (`hc<ControlApp>`), so a route, a body or an answer the page uses and this
 * app does not serve fails to compile.
 * @internal
 */
export function createControlApp(ctx: ControlAppContext) {
  const { actions, guards } = ctx;
  // A route whose action changed the state answers the state as this change left it, serialised before its write is
  // awaited: by the time the write is on disk, the live state may hold later changes queued for the next write.
  const changeState = async (c: Context<PlatformEnv>, run: () => unknown) => {
    await refusing(run);
    const durable = ctx.changed();
    const answer = c.json(ctx.state);
    // A failed save rejects with its own 500, which says that the change is made.
    await durable;
    return answer;
  };
  // Its body is checked by answerRelayed, for a control request as for the page's channel.
  const relay = <R extends McpRoute>(route: R, body: ControlRoutes[R]['request']) =>
    refusing(() => answerRelayed(ctx.mcpRoutes(), route, body));
  type Bodies = typeof CONTROL_BODIES;
  const body = <K extends keyof Bodies>(route: K) => jsonBody<Bodies[K] & z.ZodType>(CONTROL_BODIES[route]);
  const app = new Hono<PlatformEnv>()
    .basePath(CONTROL_PREFIX)
    .use(
      (c, next) =>
        guards.limit(c.req.path === `${CONTROL_PREFIX}/storage` ? LIMITS.storageBody : LIMITS.controlBody)(c, next),
      guards.control(),
    )
    .get('/config', (c) => c.json(ctx.config()))
    .get('/state', (c) => c.json(ctx.state))
    .post('/subject-token', body('POST /__svc/subject-token'), async (c) =>
      c.json(await refusing(() => actions['POST /__svc/subject-token'](c.req.valid('json')))),
    )
    .post('/message', body('POST /__svc/message'), (c) =>
      changeState(c, () => actions['POST /__svc/message'](c.req.valid('json'))),
    )
    .post('/install', body('POST /__svc/install'), (c) =>
      changeState(c, () => actions['POST /__svc/install'](c.req.valid('json'))),
    )
    .post('/uninstall', body('POST /__svc/uninstall'), (c) =>
      changeState(c, () => actions['POST /__svc/uninstall'](c.req.valid('json'))),
    )
    .post('/deprovision', body('POST /__svc/deprovision'), (c) =>
      changeState(c, () => actions['POST /__svc/deprovision'](c.req.valid('json'))),
    )
    .post('/grant', body('POST /__svc/grant'), (c) =>
      changeState(c, () => actions['POST /__svc/grant'](c.req.valid('json'))),
    )
    .post('/revoke', body('POST /__svc/revoke'), (c) =>
      changeState(c, () => actions['POST /__svc/revoke'](c.req.valid('json'))),
    )
    .post('/revoke-version', body('POST /__svc/revoke-version'), (c) =>
      changeState(c, () => actions['POST /__svc/revoke-version'](c.req.valid('json'))),
    )
    .post('/rotate-secret', body('POST /__svc/rotate-secret'), (c) =>
      changeState(c, () => actions['POST /__svc/rotate-secret'](c.req.valid('json'))),
    )
    .post('/rooms', body('POST /__svc/rooms'), (c) =>
      changeState(c, () => actions['POST /__svc/rooms'](c.req.valid('json'))),
    )
    .patch('/settings', body('PATCH /__svc/settings'), (c) =>
      changeState(c, () => actions['PATCH /__svc/settings'](c.req.valid('json'))),
    )
    .post('/storage', body('POST /__svc/storage'), (c) =>
      changeState(c, () => actions['POST /__svc/storage'](c.req.valid('json'))),
    )
    .post('/notifications/read', body('POST /__svc/notifications/read'), (c) =>
      changeState(c, () => actions['POST /__svc/notifications/read'](c.req.valid('json'))),
    )
    .post('/deliveries/resend', body('POST /__svc/deliveries/resend'), (c) =>
      changeState(c, () => actions['POST /__svc/deliveries/resend'](c.req.valid('json'))),
    )
    .post('/deliveries/resend-failed', body('POST /__svc/deliveries/resend-failed'), (c) =>
      changeState(c, () => actions['POST /__svc/deliveries/resend-failed']({})),
    )
    .post('/deliveries/test', body('POST /__svc/deliveries/test'), (c) =>
      changeState(c, () => actions['POST /__svc/deliveries/test'](c.req.valid('json'))),
    )
    .post('/reset', body('POST /__svc/reset'), (c) => changeState(c, () => actions['POST /__svc/reset']({})))
    .post('/page-event', body('POST /__svc/page-event'), (c) => {
      ctx.pageEvent(c.req.valid('json'));
      return c.body(null, 204);
    })
    .post('/mcp/progress', jsonBody<ControlRoutes['POST /__svc/mcp/progress']['request']>(), async (c) =>
      c.json(await relay('POST /__svc/mcp/progress', c.req.valid('json'))),
    )
    .post('/mcp/result', jsonBody<ControlRoutes['POST /__svc/mcp/result']['request']>(), async (c) =>
      c.json(await relay('POST /__svc/mcp/result', c.req.valid('json'))),
    )
    .post('/mcp/elicit', jsonBody<ControlRoutes['POST /__svc/mcp/elicit']['request']>(), async (c) =>
      c.json(await relay('POST /__svc/mcp/elicit', c.req.valid('json'))),
    );
  // Any other method or path under the prefix: the guard first (a foreign page learns nothing), then what exists.
  const known = app.routes
    .filter((r) => r.method !== 'ALL')
    .map((r) => `${r.method} ${r.path}`)
    .join(', ');
  app.all('/*', (c) => {
    throw new ProblemError(
      'not-found',
      `There is no control route ${c.req.method} ${new URL(c.req.url).pathname}: use one of ${known}.`,
    );
  });
  return app;
}

/** The control API's type: what Hono's typed client (`hc<ControlApp>`) calls. @internal */
export type ControlApp = ReturnType<typeof createControlApp>;
