import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Manifest } from '../manifest';
import { controlActions } from './platform/controlActions';
import { createIdentityProvider } from './platform/createIdentityProvider';
import { createWebhookSender } from './platform/createWebhookSender';
import { createRequestBucket } from './platform/handleServerApi';
import { initialState } from './platform/initialState';
import { routeRequest } from './platform/routeRequest';
import { loadState, saveState } from './platform/stateFile';
import type { DevEvent } from './DevEvent';
import { checkControlRequest } from './platform/checkControlRequest';
import { CONTROL_PREFIX, type DevConfig, type DevState } from './protocol';
import { readAppDir } from './readAppDir';
import { type BlockedRequest, createPackageServer, type PackageServer } from './serve/createPackageServer';
import { platformHandle } from './platformHandle';
import { renderMessengerHtml, renderStaleTabHtml } from './ui/messengerHtml';

/** Options of {@link startDevPlatform}. @public */
export interface DevPlatformOptions {
  /** The mini app's folder: its `manifest.json` is validated and its files are served on their own origin. */
  dir?: string;
  /** Without `dir`: the mini app id. */
  miniAppId?: string;
  /** Without `dir`: the audience exchanged tokens carry (`auth.audience` of an `svc-exchange` manifest). */
  audience?: string;
  /** Without `dir`: the version. */
  version?: string;
  /** Port of the messenger and the platform on 127.0.0.1; default a free one. */
  port?: number;
  /** Port of the package server (another origin); default a free one. */
  packagePort?: number;
  /** The backend's webhook URL (`--webhooks`). */
  webhooks?: string;
  /** Loopback backends the app may reach besides the manifest's `network` (`--allow`). */
  allow?: string[];
  /** Load the app from the developer's own dev server instead of serving `dir` (`--app-url`, e.g. Vite). */
  appUrl?: string;
  /** State file path (`--state`); saved atomically after every change. */
  statePath?: string;
  /** Backoff multiplier for webhook retries (`--retry-scale`); 0.01 makes a minute's retries take a second. */
  retryScale?: number;
  /** The identity provider's realm; default `svc-dev`. */
  realm?: string;
  /** Told after every change of the state (the CLI rewrites the env file on a rotation). */
  onChange?: (state: DevState) => void;
  /** Told of each event: launches, webhook attempts, server API calls, blocked requests (the CLI prints them). */
  onEvent?: (event: DevEvent) => void;
}

/** The mini app id, audience and version, from the manifest or the options. */
function appIdentity(options: DevPlatformOptions, manifest: Manifest | undefined) {
  if (manifest) {
    const auth = manifest.auth;
    const audience = auth.type == 'svc-exchange' ? auth.audience : auth.type == 'external-oauth' ? auth.client_id : '';
    return { miniAppId: manifest.id, audience, version: manifest.version };
  }
  if (!options.miniAppId || options.audience === undefined)
    throw new TypeError('startDevPlatform(): pass { dir } (the app folder), or { miniAppId, audience } without one.');
  return { miniAppId: options.miniAppId, audience: options.audience, version: options.version ?? '0.0.0' };
}

/** Reads the messenger page's script from the build (dist/dev-ui.js), from dist/ or from the source tree. */
async function readPageScript(): Promise<string | undefined> {
  for (const candidate of ['./dev-ui.js', '../dev-ui.js', '../../dist/dev-ui.js']) {
    const text = await readFile(new URL(candidate, import.meta.url), 'utf8').catch(() => undefined);
    if (text) return text;
  }
  return undefined;
}

/**
 * Starts the local platform on 127.0.0.1: the messenger page, the identity provider, the server API, webhooks, the
 * guarded control API, and (with `dir`) the app's package on its own origin.
 * @throws {@link DevAppError} when `dir` has no valid manifest (the message lists each problem).
 * @example
 * ```ts
 * const platform = await startDevPlatform({ dir: 'examples/polls', port: 0 });
 * console.log(platform.url); // open it in a browser
 * await platform.close();
 * ```
 * @public
 */
export async function startDevPlatform(options: DevPlatformOptions) {
  const app = options.dir ? await readAppDir(options.dir) : undefined;
  const { miniAppId, audience, version } = appIdentity(options, app?.manifest);
  const realm = options.realm ?? 'svc-dev';
  const saved = options.statePath ? await loadState(options.statePath, miniAppId) : undefined;
  const state: DevState = saved ?? initialState(miniAppId, version);
  state.version = version;
  const secrets = { current: [randomBytes(24).toString('base64url')] };
  const controlToken = randomBytes(24).toString('base64url');
  const streams = new Set<ServerResponse>();
  const blocked: BlockedRequest[] = [];
  let saving = Promise.resolve();
  const broadcast = (type: string, data: unknown) => {
    const frame = `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const res of streams) res.write(frame);
  };
  const tell = (event: DevEvent) => options.onEvent?.(event);
  // Attempts already told, per delivery: a change reports only the new ones.
  const toldAttempts = new Map<string, number>();
  const changed = () => {
    state.revision = (state.revision ?? 0) + 1;
    for (const d of state.deliveries) {
      const told = toldAttempts.get(d.id) ?? 0;
      d.attempts.slice(told).forEach((a, i) => {
        tell({
          type: 'webhook',
          event: d.event,
          delivery_id: d.id,
          attempt: told + i + 1,
          duration_ms: a.duration_ms,
          ...(a.status === undefined ? { error: a.error } : { status: a.status }),
          ...(d.resend_of ? { resend_of: d.resend_of } : {}),
        });
      });
      toldAttempts.set(d.id, d.attempts.length);
    }
    if (options.statePath) {
      const path = options.statePath;
      saving = saving.then(() => saveState(path, state));
    }
    broadcast('state', { type: 'state', state });
    options.onChange?.(state);
  };

  let route: (req: Parameters<typeof routeRequest>[1], res: ServerResponse) => Promise<void> = async (_q, res) =>
    void res.writeHead(503).end();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path.startsWith('/v1/')) {
      const started = Date.now();
      res.once('finish', () =>
        tell({
          type: 'server-api',
          method: req.method ?? 'GET',
          path,
          status: res.statusCode,
          duration_ms: Date.now() - started,
        }),
      );
    }
    if (path === `${CONTROL_PREFIX}/page-event` && req.method === 'POST') return void pageEvent(req, res);
    // A tab from an earlier run (an old launch token): a page that says what to do, not a bare refusal.
    if (path === '/' && req.method === 'GET' && req.headers.host === new URL(origin).host && !launchToken(req.url))
      return void res
        .writeHead(403, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
        })
        .end(renderStaleTabHtml());
    route(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(options.port ?? 0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Whether a page URL carries this run's launch token (compared in constant time).
  const launchToken = (url = '/') => {
    const given = Buffer.from(new URL(url, origin).searchParams.get('token') ?? '');
    const token = Buffer.from(controlToken);
    return given.length === token.length && timingSafeEqual(given, token);
  };
  // What only the page knows (a launch, an app that never said hello), told to the terminal.
  const pageEvent = async (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const refusal = checkControlRequest(req.headers, { token: controlToken, origin });
    if (refusal)
      return void res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: refusal }));
    const event = (() => {
      try {
        return JSON.parse(body) as { type?: string; user?: unknown; room?: unknown; seconds?: unknown };
      } catch {
        return {};
      }
    })();
    if (event.type === 'launch') tell({ type: 'launch', user: String(event.user), room: String(event.room) });
    else if (event.type === 'no-hello')
      tell({ type: 'no-hello', seconds: Number(event.seconds), app_url: options.appUrl ?? pkg?.entryUrl ?? '' });
    else
      return void res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ detail: "type must be 'launch' or 'no-hello'." }));
    res.writeHead(204).end();
  };

  const idp = await createIdentityProvider({
    authUrl: origin,
    realm,
    authorize: ({ userId, audience: asked, scopes }) => {
      const user = state.users.find((u) => u.id === userId);
      if (asked !== audience) return { refuse: `audience must be ${audience}.` };
      if (!user || user.deprovisioned) return { refuse: 'the person left the tenant.' };
      if (state.version_revoked) return { refuse: 'this version of the mini app was revoked.' };
      const installed = state.installations.some((i) => i.user_id === userId && i.installed);
      if (!installed) return { refuse: 'the mini app is not installed for this person.' };
      // With a manifest: the token's scopes are its auth.scopes (consented at install). Without one (a backend's
      // test naming only an id), the person's grants stand in.
      const auth = app?.manifest.auth;
      const allowed = auth
        ? auth.type == 'none'
          ? []
          : (auth.scopes ?? [])
        : (state.grants.find((g) => g.user_id === userId)?.scopes ?? []);
      return { appUserId: user.app_user_id, scopes: scopes.filter((s) => allowed.includes(s)) };
    },
  });
  const webhooks = options.webhooks
    ? createWebhookSender({
        url: options.webhooks,
        miniAppId,
        secret: () => secrets.current[0] ?? '',
        retryScale: options.retryScale,
        changed,
      })
    : undefined;
  const pkg: PackageServer | undefined =
    app && !options.appUrl
      ? await createPackageServer({
          dir: app.dir,
          manifest: app.manifest,
          messengerOrigin: origin,
          allow: options.allow,
          port: options.packagePort,
          onBlocked: (request) => {
            blocked.push(request);
            tell({ type: 'blocked', blocked: request.blocked, advice: request.advice });
            broadcast('blocked', { type: 'blocked', request });
          },
        })
      : undefined;
  const appUrl = options.appUrl ?? pkg?.entryUrl ?? '';
  const appOrigin = appUrl ? new URL(appUrl).origin : '';
  const config = (): DevConfig => ({
    appOrigin,
    appUrl,
    manifest: (app?.manifest ?? {}) as Record<string, unknown>,
    authUrl: origin,
    realm,
    baseUrl: `${origin}/v1`,
    blocked,
    ...(options.statePath ? { statePath: options.statePath } : {}),
  });
  const actions = controlActions({ state, miniAppId, idp, webhooks, secrets });
  route = (req, res) =>
    routeRequest(
      {
        origin,
        realm,
        audience,
        controlToken,
        state,
        idp,
        actions,
        secrets,
        take: createRequestBucket(),
        streams,
        changed,
        config,
        pageCsp: [
          "default-src 'self'",
          "style-src 'self' 'unsafe-inline'",
          `frame-src ${appOrigin || "'none'"}`,
          "img-src 'self' data: http: https:",
          "object-src 'none'",
          "base-uri 'none'",
          "frame-ancestors 'none'",
        ].join('; '),
        page: async () => ({
          html: renderMessengerHtml({ scriptUrl: '/__svc/ui.js' }),
          script: await readPageScript(),
        }),
      },
      req,
      res,
    );

  return platformHandle({
    origin,
    controlToken,
    realm,
    miniAppId,
    audience,
    state,
    secrets,
    actions,
    changed,
    idp,
    appUrl,
    appOrigin,
    manifest: app?.manifest,
    blocked,
    async close() {
      webhooks?.close();
      for (const r of streams) r.end();
      server.closeAllConnections();
      await Promise.all([new Promise<void>((ok) => server.close(() => ok())), pkg?.close()]);
      await saving;
    },
  });
}

/** A running platform. @public */
export type DevPlatform = Awaited<ReturnType<typeof startDevPlatform>>;
