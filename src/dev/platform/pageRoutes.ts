import { createHash } from 'node:crypto';
import { upgradeWebSocket } from '@hono/node-server';
import { Hono } from 'hono';
import { CHANNEL_PATH, CONTROL_PREFIX, type DevConfig, type DevState, type McpRouteHandlers } from '../devContract';
import { canInlineScript, renderMessengerHtml, renderStaleTabHtml } from '../messenger/messengerHtml';
import type { Guards } from './createGuards';
import type { Pages } from './createPageChannel';
import type { PlatformEnv } from './PlatformEnv';
import { answerRelayed } from './answerRelayed';
import { ProblemError } from './ProblemError';
import { sameToken } from '../sameToken';

/** What the page's routes need. @internal */
export interface PageRoutesContext {
  controlToken: string;
  /** This start's id ({@link DevConfig}'s `run`). */
  run: string;
  guards: Guards;
  pages: Pages;
  state: DevState;
  /** What the page starts from besides the state (inlined in its HTML, as `GET /__svc/config` answers it). */
  config(): DevConfig;
  /**
   * The messenger page's own Content-Security-Policy (it may frame the app's origin only), allowing the inline
   * script of this hash (`sha256-...`) when given.
   */
  pageCsp(scriptHash?: string): string;
  /** The page's script, read from the build (absent until built). */
  script(): Promise<string | undefined>;
  /** The agent bridge's answer routes while it runs (the page answers relayed calls on its channel). */
  mcpRoutes(): McpRouteHandlers | undefined;
}

/** Where the page's script is served. */
const SCRIPT_PATH = `${CONTROL_PREFIX}/ui.js`;

/**
 * The messenger page (`/`, with the launch token in its URL), its script, its channel (`/__svc/channel`, a WebSocket:
 * the whole state unless `?revision=` names the one the page has, then each change and each relayed MCP call; the
 * page's answers to those calls come back on it), and the same events as server-sent events for readers
 * (`/__svc/events`). A page of another origin can read none of them (no CORS, and the WebSocket's Origin is checked
 * before the upgrade), and each needs the per-launch token, so a guessed URL gets nothing.
 * @internal
 */
export function pageRoutes(ctx: PageRoutesContext) {
  const { guards } = ctx;
  // What a page gets first: the whole state, serialised when it connects.
  const first = (): [string, string] => ['state', JSON.stringify({ type: 'state', state: ctx.state })];
  return new Hono<PlatformEnv>()
    .get('/', guards.ownHost, async (c) => {
      // A tab from an earlier run (an old launch token): a page that says what to do, not a bare refusal.
      if (!sameToken(c.req.query('token'), ctx.controlToken))
        return c.html(renderStaleTabHtml(), 403, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
        });
      // Its configuration and state inlined: the first screen renders without a request (only this page, with this
      // run's token, gets them; no-store keeps them out of the cache). Its script too, allowed by its hash: one
      // request in all. Read on each load, so a page reloaded after a build runs the new script.
      const start = { config: ctx.config(), state: ctx.state };
      const read = await ctx.script();
      const script = read !== undefined && canInlineScript(read) ? read : undefined;
      const hash = script && `sha256-${createHash('sha256').update(script).digest('base64')}`;
      // The page connects its channel once its script has run: the WebSocket server loads meanwhile.
      setImmediate(() => ctx.pages.server.load());
      return c.html(renderMessengerHtml({ scriptUrl: SCRIPT_PATH, start, script }), 200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'content-security-policy': ctx.pageCsp(hash),
      });
    })
    .get(SCRIPT_PATH, guards.ownHost, async (c) => {
      const script = await ctx.script();
      if (!script) throw new ProblemError('not-found', 'The page script is not built: run npm run build.');
      return c.body(script, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
    })
    .get(`${CONTROL_PREFIX}/events`, guards.control(true), (c) => ctx.pages.follow(c, first()))
    .get(
      CHANNEL_PATH,
      guards.control(true),
      upgradeWebSocket((c) => {
        // A page that has this revision (its HTML carried the state) is not sent it again; checked as the page joins,
        // so a change made since reaches it either as the state or as its patches.
        const has = c.req.query('revision');
        // A page of an earlier start (its token kept with --state) holds that start's configuration: it reloads.
        const earlier = c.req.query('run') !== undefined && c.req.query('run') !== ctx.run;
        const firstUnlessHad = (): [string, string] | undefined =>
          earlier
            ? ['restarted', '{"type":"restarted"}']
            : has === String(ctx.state.revision ?? 0)
              ? undefined
              : first();
        return ctx.pages.socket(firstUnlessHad, ({ route, body }) => answerRelayed(ctx.mcpRoutes(), route, body));
      }),
      () => {
        throw new ProblemError(
          'invalid-request',
          `${CHANNEL_PATH} is a WebSocket: open it with new WebSocket(), or follow ${CONTROL_PREFIX}/events for the events alone.`,
        );
      },
    );
}
