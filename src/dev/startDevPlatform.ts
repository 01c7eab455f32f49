import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compareVersions, type Manifest } from '../manifest';
import { manifestFacts } from '../manifest/manifestFacts';
import { type ControlHandlers, controlActions } from './platform/controlActions';
import { createIdentityProvider } from './platform/createIdentityProvider';
import { createWebhookSender } from './platform/createWebhookSender';
import { createRequestBucket } from './platform/handleServerApi';
import { initialState } from './platform/initialState';
import { createRouter } from './platform/createRouter';
import { openStateFile } from './platform/stateFile';
import { newSecret, type SigningSecrets, validSecrets } from './platform/signingSecrets';
import { patchesJson, type Patch, trackChanges } from './platform/trackChanges';
import { createProblem, PROBLEMS } from '../server/problems';
import { decodeUtf8, readRequestBody } from './platform/readRequestBody';
import { LIMITS } from './platform/limits';
import type { DevEvent } from './DevEvent';
import { checkControlRequest } from './platform/checkControlRequest';
import { CONTROL_PREFIX, type DevConfig, type DevState, type DevStreamEvents, streamFrame } from './devContract';
import { type DevApp, DevAppError, readAppDir } from './readAppDir';
import { type BlockedRequest, createPackageServer, type PackageServer } from './serve/createPackageServer';
import { attachMcp } from './mcp/attachMcp';
import { removeDiscovery, writeDiscovery } from './mcp/discoveryFile';
import { mcpConfigs } from './mcp/mcpConfigs';
import { platformHandle } from './platformHandle';
import { renderMessengerHtml, renderStaleTabHtml } from './ui/messengerHtml';
import { createStore } from './store/createStore';
import { openAppPackage } from './store/openAppPackage';
import { offeredTo } from './store/offeredTo';
import { watchManifest } from './watchManifest';
import type { DevNotice, DevPlatformOptions } from './DevPlatformOptions';

export type { DevNotice, DevPlatformOptions } from './DevPlatformOptions';

/** The mini app id, audience and version, from the manifest or the options. */
function appIdentity(options: DevPlatformOptions, manifest: Manifest | undefined) {
  if (manifest) {
    return { miniAppId: manifest.id, audience: manifestFacts(manifest).audience, version: manifest.version };
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
  // A package's id is read before it is verified: after a key rotation, the state's store holds the key to trust.
  const opened = options.package ? await openAppPackage(options.package) : undefined;
  const early = opened && options.statePath ? await openStateFile(options.statePath, opened.id) : undefined;
  const bound = early?.state?.store?.key;
  const packaged = await opened
    ?.verify(bound ? [new Uint8Array(Buffer.from(bound, 'base64'))] : [])
    .catch(async (error) => {
      await early?.close();
      throw error;
    });
  const app: DevApp | undefined = packaged ?? (options.dir ? await readAppDir(options.dir) : undefined);
  const { miniAppId, audience, version } = appIdentity(options, app?.manifest);
  const realm = options.realm ?? 'svc-dev';
  const file = early ?? (options.statePath ? await openStateFile(options.statePath, miniAppId) : undefined);
  const raw: DevState = file?.state ?? initialState(miniAppId, version);
  raw.version = version;
  const secrets: SigningSecrets = file?.secrets ?? { current: newSecret() };
  const notice = (kind: DevNotice['kind'], message: string) => options.onNotice?.({ kind, message });
  if (file && !file.secrets)
    await notice(
      'secret-changed',
      `a new signing secret, kept in ${options.statePath} from now on: give it to your backend (--backend-env writes it).`,
    );
  if (file) await file.compact(() => ({ state: raw, secrets }));
  // Every write through `state` is recorded, so a change appends only what it changed to the journal.
  let patches: Patch[] = [];
  const state = trackChanges(raw, (patch) => patches.push(patch));
  let secretsChanged = false;
  const controlToken = randomBytes(24).toString('base64url');
  const streams = new Set<ServerResponse>();
  const blocked: BlockedRequest[] = [];
  const broadcast = <K extends keyof DevStreamEvents>(type: K, data: DevStreamEvents[K]) => {
    // Serialising the state costs as much as the state is large: only when a page listens.
    if (streams.size === 0) return;
    const frame = streamFrame(type, data);
    for (const res of streams) res.write(frame);
  };
  const tell = (event: DevEvent) => options.onEvent?.(event);
  // Attempts already told, per delivery: a change reports only the new ones. Those a saved state holds were told
  // by the run that made them, so a restart does not print an old delivery as new.
  const toldAttempts = new Map<string, number>(raw.deliveries.map((d) => [d.id, d.attempts.length]));
  const tellAttempts = () => {
    for (const d of raw.deliveries) {
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
  };
  // Pages get the whole state when they connect, then each change as the patches it made (what the journal
  // appends): a change costs the page the same whatever the size of the state.
  const broadcastPatches = (batch: Patch[]) => {
    if (streams.size === 0 || batch.length === 0) return;
    const frame = `event: patch\ndata: {"type":"patch","revision":${raw.revision ?? 0},"p":${patchesJson(batch)}}\n\n`;
    for (const res of streams) res.write(frame);
  };
  // Resolves once the change is on disk (with --state), so a change is answered only when it is durable; a failed
  // save is reported in the terminal and the page, and rejects with the reason (never an unhandled rejection).
  const changed = async (): Promise<void> => {
    state.revision = (state.revision ?? 0) + 1;
    tellAttempts();
    options.onChange?.(raw);
    const batch = patches;
    patches = [];
    broadcastPatches(batch);
    if (!file) return;
    const line = `{"p":${patchesJson(batch)}${secretsChanged ? `,"secrets":${JSON.stringify(secrets)}` : ''}}\n`;
    secretsChanged = false;
    try {
      await file.append(line);
    } catch (error) {
      const message = (error as Error).message;
      broadcast('problem', { type: 'problem', message });
      await notice('save-failed', message);
      throw error;
    }
  };
  /** For changes nobody waits on (webhook attempts): a failure is reported by `changed` itself. */
  const changedInBackground = () => void changed().catch(() => {});

  let route: (req: IncomingMessage, res: ServerResponse) => Promise<void> = async (_q, res) =>
    void res.writeHead(503).end();
  let mcp: Awaited<ReturnType<typeof attachMcp>> | undefined;
  let store: ReturnType<typeof createStore> | undefined;
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
    if (mcp?.owns(req)) return void mcp.handle(req, res);
    if (store?.owns(req)) return void store.handle(req, res).catch(() => res.headersSent || res.writeHead(500).end());
    route(req, res).catch((error: Error) => {
      if (res.headersSent) return void res.end();
      const problem = createProblem(
        `${origin}/errors`,
        'internal-error',
        `The platform failed on this request (${error.message}): retry, and report it if it happens again.`,
        path,
      );
      res.writeHead(500, { 'content-type': 'application/problem+json' }).end(JSON.stringify(problem));
    });
  });
  try {
    await new Promise<void>((ok, fail) => server.once('error', fail).listen(options.port ?? 0, '127.0.0.1', ok));
  } catch (error) {
    await file?.close();
    throw Object.assign(error as Error, { option: '--port' });
  }
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Whether a page URL carries this run's launch token (compared in constant time).
  const launchToken = (url = '/') => {
    const given = Buffer.from(new URL(url, origin).searchParams.get('token') ?? '');
    const token = Buffer.from(controlToken);
    return given.length === token.length && timingSafeEqual(given, token);
  };
  // What only the page knows (a launch, an app that never said hello), told to the terminal.
  const pageEvent = async (req: IncomingMessage, res: ServerResponse) => {
    const refuse = (name: 'forbidden' | 'invalid-request' | 'payload-too-large', detail: string) =>
      void res
        .writeHead(PROBLEMS[name].status, { 'content-type': 'application/problem+json' })
        .end(JSON.stringify(createProblem(`${origin}/errors`, name, detail, `${CONTROL_PREFIX}/page-event`)));
    const refusal = checkControlRequest(req.headers, { token: controlToken, origin });
    if (refusal) return refuse('forbidden', refusal);
    const read = await readRequestBody(req, LIMITS.controlBody);
    if ('tooLarge' in read)
      return refuse('payload-too-large', `The body is over ${LIMITS.controlBody} bytes: send a page event only.`);
    const event = (() => {
      try {
        return JSON.parse(decodeUtf8(read.bytes) ?? '') as {
          type?: string;
          user?: unknown;
          room?: unknown;
          seconds?: unknown;
        };
      } catch {
        return {};
      }
    })();
    if (event.type === 'launch') tell({ type: 'launch', user: String(event.user), room: String(event.room) });
    else if (event.type === 'no-hello')
      tell({ type: 'no-hello', seconds: Number(event.seconds), app_url: options.appUrl ?? pkg?.entryUrl ?? '' });
    else return refuse('invalid-request', "type must be 'launch' or 'no-hello': send one of them.");
    res.writeHead(204).end();
  };

  const idp = await createIdentityProvider({
    authUrl: origin,
    realm,
    authorize: ({ userId, audience: asked, scopes }) => {
      const user = state.users.find((u) => u.id === userId);
      if (asked !== audience)
        return {
          refuse: `audience ${asked} is not this mini app's: send ${audience} (auth.audience in the manifest).`,
          error: 'invalid_target',
        };
      if (!user || user.deprovisioned)
        return {
          refuse: 'The person left the tenant (an administrator removed them): the app can no longer act for them.',
        };
      if (state.version_revoked)
        return {
          refuse: `Version ${state.version} of the mini app was revoked: update the app to a published version.`,
        };
      const running = current?.manifest ?? app?.manifest;
      const notOffered = running && offeredTo(running, user.tenant_id);
      if (notOffered) return { refuse: notOffered };
      const installed = state.installations.some((i) => i.user_id === userId && i.installed);
      if (!installed) return { refuse: 'The mini app is not installed for this person: install it first.' };
      // With a manifest: the token's scopes are its auth.scopes (consented at install). Without one (a backend's
      // test naming only an id), the person's grants stand in.
      const auth = app?.manifest.auth;
      const allowed = auth
        ? auth.type === 'none'
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
        secrets: () => validSecrets(secrets),
        retryScale: options.retryScale,
        add: (delivery) => {
          state.deliveries.push(delivery);
          return state.deliveries.at(-1)!;
        },
        changed: changedInBackground,
      })
    : undefined;
  // What the package server serves: the package's files, then each version the store accepts.
  let current = packaged ? { manifest: packaged.manifest, files: packaged.files } : undefined;
  let pkg: PackageServer | undefined;
  // The port the state kept, so the app's origin a backend allows stays the same; an explicit one wins.
  const keptPort = options.packagePort === undefined ? raw.package_port : undefined;
  const servePackage = (port: number | undefined) =>
    createPackageServer({
      dir: app!.dir,
      manifest: app!.manifest,
      messengerOrigin: origin,
      allow: options.allow,
      port,
      exclude: [...(options.statePath ? [resolve(options.statePath)] : []), ...(options.neverServe ?? [])],
      source: () => current,
      onBlocked: (request) => {
        blocked.push(request);
        tell({ type: 'blocked', blocked: request.blocked, advice: request.advice });
        broadcast('blocked', { type: 'blocked', request });
      },
    });
  try {
    if (app && !options.appUrl) {
      pkg = await servePackage(options.packagePort ?? keptPort).catch(async (error: NodeJS.ErrnoException) => {
        if (keptPort === undefined || error.code !== 'EADDRINUSE') throw error;
        const moved = await servePackage(0);
        await notice(
          'package-port-moved',
          `the app's port ${keptPort} (kept in ${options.statePath}) is taken, so it is served from ${moved.origin} now: give your backend the new origin (--backend-env writes it as SVC_APP_ORIGIN).`,
        );
        return moved;
      });
    }
  } catch (error) {
    // Nothing may keep running when the start fails: the caller reports the error and exits.
    webhooks?.close();
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
    await file?.close();
    throw Object.assign(error as Error, { option: '--package-port' });
  }
  // Deliveries a stopped platform left pending are sent again (webhooks are at least once; the backend dedupes).
  const resumed = webhooks ? state.deliveries.filter((d) => d.state === 'pending' && d.url === options.webhooks) : [];
  for (const delivery of resumed) webhooks!.resume(delivery);
  if (resumed.length) await notice('deliveries-resumed', `${resumed.length} pending webhook deliveries resumed.`);
  const packagePort = pkg ? Number(new URL(pkg.origin).port) : undefined;
  if (file && packagePort !== undefined && raw.package_port !== packagePort) {
    state.package_port = packagePort;
    await changed();
  }
  const publishToken = randomBytes(24).toString('base64url');
  store = createStore({
    state,
    changed,
    origin,
    controlToken,
    publishToken,
    accepted: (accepted) => {
      // Served from now on; the page reloads its config and relaunches the app (it follows state.version).
      current = { manifest: accepted.manifest, files: accepted.files };
      if (app) app.manifest = accepted.manifest;
      mcp?.setManifest(accepted.manifest);
    },
  });
  const appUrl = options.appUrl ?? pkg?.entryUrl ?? '';
  const appOrigin = appUrl ? new URL(appUrl).origin : '';
  const config = (): DevConfig => ({
    appOrigin,
    appUrl,
    manifest: (current?.manifest ?? app?.manifest ?? {}) as Manifest,
    authUrl: origin,
    realm,
    baseUrl: `${origin}/v1`,
    blocked,
    ...(options.statePath ? { statePath: options.statePath } : {}),
    ...(mcp ? { mcp: { url: mcp.url, header: `Authorization: Bearer ${mcp.token}` } } : {}),
  });
  // One bucket per vendor for the platform's life: every server API request draws from it.
  const take = createRequestBucket();
  const actions = controlActions({
    state,
    miniAppId,
    idp,
    webhooks,
    secrets,
    rotated: async (endedOverlap) => {
      secretsChanged = true;
      const until = new Date(secrets.previous?.until ?? Date.now()).toISOString();
      const generation = state.secret.generation;
      await notice(
        'secret-changed',
        `the signing secret was rotated (generation ${generation}); the previous one verifies until ${until}.` +
          (endedOverlap
            ? ` The secret of generation ${generation - 2} stopped verifying now, before its overlap ended (two secrets verify at most): a backend holding only it gets 401 from the server API and refuses webhooks; give it the current and previous secrets.`
            : ''),
      );
    },
  });
  // The store's record says which version was revoked as soon as it is (the version still counts as published).
  const revokeVersion = actions['POST /__svc/revoke-version'];
  actions['POST /__svc/revoke-version'] = (body) => {
    revokeVersion(body);
    const record = state.store?.versions.find((v) => v.version === state.version);
    if (record) record.revoked = true;
  };
  let configs: string | undefined;
  if (app && options.mcp !== false) {
    mcp = attachMcp({
      options,
      app,
      origin,
      streams,
      secrets: () => [controlToken, ...validSecrets(secrets)],
    });
    configs = mcpConfigs(mcp.url, mcp.token, app.dir);
    // For `svc mcp <dir>` (stdio clients): where this platform is, whichever way it was started.
    const written = await writeDiscovery({ dir: app.dir, url: mcp.url, token: mcp.token, pid: process.pid }).catch(
      (error: Error) => error,
    );
    if (written instanceof Error)
      configs += `\n  (svc mcp cannot find this platform: ${written.message}; set SVC_STATE_DIR to a writable folder.)`;
  }
  // An edited manifest.json is served from now on (the page's configuration and the package's CSP read it), and every
  // open page reloads to use it; the agent bridge hears of it first, so no call reaches a page with the old rules.
  const stopWatching = app
    ? watchManifest(app, (next) => {
        mcp?.manifestEdited(next);
        app.manifest = next;
        pkg?.setManifest(next);
        broadcast('manifest', { type: 'manifest' });
      })
    : () => {};
  const routes: Partial<ControlHandlers> = { ...actions, 'GET /__svc/config': config, ...mcp?.routes };
  route = createRouter({
    origin,
    realm,
    audience,
    controlToken,
    state,
    idp,
    actions: routes,
    secrets,
    take,
    streams,
    changed,
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
  });

  const handle = platformHandle({
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
    get manifest() {
      return app?.manifest;
    },
    blocked,
    mcpUrl: mcp?.url,
    mcpToken: mcp?.token,
    mcpConfigs: configs,
    async close() {
      stopWatching();
      if (mcp && app) await removeDiscovery(app.dir, mcp.url);
      await mcp?.close();
      webhooks?.close();
      for (const r of streams) r.end();
      server.closeAllConnections();
      await Promise.all([new Promise<void>((ok) => server.close(() => ok())), pkg?.close()]);
      await file?.close();
    },
  });
  if (packaged) {
    // The package svc dev starts with is uploaded to the store (the first one binds the id to its key); one the
    // store already holds is run again as it is, if it is signed by the key the id is bound to.
    const bound = state.store?.key;
    const known = state.store && compareVersions(packaged.manifest.version, state.store.highest) <= 0;
    const refused = known
      ? packaged.signers.some((s) => Buffer.from(s.publicKey).toString('base64') === bound)
        ? undefined
        : `the id ${packaged.manifest.id} is bound to the key ${state.store?.key_id} in this state, and ${packaged.file} is not signed by it; sign it with that key, or start afresh with --reset`
      : await store
          .upload(packaged.bytes)
          .then((a) => (a.ok ? undefined : `the store refused ${packaged.file}: ${a.body.detail}`));
    if (refused) {
      await handle.close();
      throw new DevAppError(refused);
    }
  }
  return Object.assign(handle, {
    /** The token `svc publish` sends to the store: kept in a file only this user can read, never printed. */
    publishToken,
    /** The local store (`svc publish` and the messenger's settings upload through it). */
    store,
  });
}

/** A running platform. @public */
export type DevPlatform = Awaited<ReturnType<typeof startDevPlatform>>;
