import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createAdaptorServer, type HttpBindings } from '@hono/node-server';
import { compareVersions, type Manifest } from '../../manifest';
import { manifestFacts } from '../../manifest/manifestFacts';
import type { DevEvent } from '../DevEvent';
import type { DevNotice, DevPlatformOptions } from '../DevPlatformOptions';
import type { DevConfig, DevState } from '../devContract';
import { LIMITS } from '../limits';
import { attachMcp, MCP_PATH } from '../mcp/attachMcp';
import { removeDiscovery, writeDiscovery } from '../mcp/discoveryFile';
import { removeStoreDiscovery, writeStoreDiscovery } from './store/storeDiscovery';
import { mcpConfigs } from '../mcp/mcpConfigs';
import { answerMalformedRequests } from './answerMalformedRequests';
import { answerOtherUpgrades } from './answerOtherUpgrades';
import { closeServer } from './closeServer';
import { httpUrl } from '../httpUrl';
import { authorizeExchange } from './authorizeExchange';
import { type Changes, createChanges } from './createChanges';
import { createControlApp } from './createControlApp';
import { createGuards } from './createGuards';
import { createIdentityProvider, type IdentityProvider, newRealmKey } from './createIdentityProvider';
import { createPageChannel, type Pages } from './createPageChannel';
import { createPlatformApp, type PlatformApp } from './createPlatformApp';
import { createWebhookSender, type WebhookSender } from './createWebhookSender';
import { controlActions } from './controlActions';
import { createRequestBucket } from './handleServerApi';
import { identityRoutes } from './identityRoutes';
import { initialState } from './initialState';
import { pageRoutes } from './pageRoutes';
import { platformApps } from './platformApps';
import { serverApiRoutes } from './serverApiRoutes';
import { newSecret, type SigningSecrets, validSecrets } from './signingSecrets';
import { keptDeliveries } from './keptDeliveries';
import { openStateFile, type StateFile } from './stateFile';
import { platformHandle } from './platformHandle';
import { type DevApp, DevAppError, readAppDir } from './readAppDir';
import {
  type BlockedRequest,
  createPackageServer,
  type PackageServer,
  type PackageServerOptions,
} from './serve/createPackageServer';
import { createStore } from './store/createStore';
import { type DevPackageApp, openAppPackage } from './store/openAppPackage';
import { watchManifest } from './watchManifest';
import { mcpServerName } from '../mcpServerName';
import { isLoopbackHost } from '../isLoopbackHost';

export type { DevNotice, DevPlatformOptions } from '../DevPlatformOptions';

/** The mini app id, audience and version, from the manifest or the options. */
function appIdentity(options: DevPlatformOptions, manifest: Manifest | undefined) {
  if (manifest) {
    return { miniAppId: manifest.id, audience: manifestFacts(manifest).audience, version: manifest.version };
  }
  if (!options.miniAppId || options.audience === undefined)
    throw new TypeError('startDevPlatform(): pass { dir } (the app folder), or { miniAppId, audience } without one.');
  return { miniAppId: options.miniAppId, audience: options.audience, version: options.version ?? '0.0.0' };
}

/**
 * Reads the messenger page's script: beside this file in svc-sdk-dev's build, or from that build when the platform
 * runs from the sources (the tests).
 */
async function readPageScript(): Promise<string | undefined> {
  for (const candidate of ['./dev-ui.js', '../../../packages/svc-sdk-dev/dist/dev-ui.js']) {
    const text = await readFile(new URL(candidate, import.meta.url), 'utf8').catch(() => undefined);
    if (text) return text;
  }
  return undefined;
}

/**
 * The page's script for each load, read again each time (a page reloaded after a build runs the new script), the
 * first one read ahead as the platform starts: the first load, the one the printed URL opens, does not wait for the
 * disk (3 ms of its 10).
 */
function pageScriptReader(): () => Promise<string | undefined> {
  let ahead: Promise<string | undefined> | undefined = readPageScript();
  return () => {
    const read = ahead ?? readPageScript();
    ahead = undefined;
    return read;
  };
}

/**
 * The app (its folder, or its signed package verified) and the state file. A package's id is read before it is
 * verified: after a key rotation, the state's store holds the key to trust.
 */
async function openApp(options: DevPlatformOptions) {
  // Checked before anything opens or listens: a URL that fails later would leave the start half done.
  for (const [name, value] of [
    ['webhooks', options.webhooks],
    ['appUrl', options.appUrl],
  ] as const)
    if (value !== undefined && !httpUrl(value))
      throw new TypeError(
        `${name}: ${value} is not an http(s) URL with a valid port: write it whole, such as http://localhost:3000/svc/webhooks.`,
      );
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
  const identity = appIdentity(options, app?.manifest);
  const file = early ?? (options.statePath ? await openStateFile(options.statePath, identity.miniAppId) : undefined);
  return { app, packaged, file, ...identity };
}

/** The state and secrets to start from: the state file's (its oldest finished deliveries dropped, compacted), or fresh ones. */
async function loadState(
  file: StateFile | undefined,
  identity: { miniAppId: string; version: string; folder: boolean },
  notice: (kind: DevNotice['kind'], message: string) => Promise<void> | void,
  statePath: string | undefined,
) {
  const raw: DevState = file?.state ?? initialState(identity.miniAppId, identity.version);
  // The version the state last ran, which a revocation names.
  const ran = raw.version;
  // Everyone runs the version served: the installations say it, as the server API answers them.
  const published = raw.store?.highest;
  raw.version = identity.version;
  for (const installation of raw.installations) installation.version = identity.version;
  if (identity.folder && published !== undefined && published !== identity.version)
    await notice(
      'package-not-accepted',
      `the store holds version ${published} as published, and svc dev starts on the app folder: serving its version ${identity.version} (run svc dev on the published .swbn to serve ${published}).`,
    );
  // A folder set back to a version the store revoked runs (it is the developer's), but a host would not open it
  // (week45 F11: said nowhere).
  if (
    identity.folder &&
    !raw.version_revoked &&
    raw.store?.versions.some((v) => v.version === identity.version && v.revoked)
  )
    await notice(
      'package-not-accepted',
      `version ${identity.version}, which the app folder runs, was revoked in this store: svc dev serves the folder anyway, but a host would not open that version; give the folder a version higher than ${published ?? identity.version} to publish it.`,
    );
  // A revocation (Revoke version) outlives a restart and an edited version, as it does while running: said at the
  // start, or the page's "it cannot be opened" and the backend's 409 would be all there is to read (recheck47 F2).
  if (raw.version_revoked)
    await notice(
      'package-not-accepted',
      `version ${ran} was revoked (Revoke version)${ran === identity.version ? '' : `, and the revocation holds for the ${identity.version} served now`}: the messenger does not open the app and the server API answers 409 version-revoked until the store accepts a higher signed package (svc publish)${statePath ? ', or svc dev starts with --reset' : ''}.`,
    );
  // Dropped before anything holds a delivery: the state tracks writes by index, so none may move while it runs.
  raw.deliveries = keptDeliveries(raw.deliveries);
  const secrets: SigningSecrets = file?.secrets ?? { current: newSecret() };
  if (file && !file.secrets)
    await notice(
      'secret-changed',
      `a new signing secret, kept in ${statePath} from now on: give it to your backend (--backend-env writes it).`,
    );
  // The MCP endpoint's token (256 bits), kept with a state file too, so that the clients configured with it go on
  // working after a restart.
  const mcpToken = file?.mcpToken ?? randomBytes(32).toString('base64url');
  // The page's launch token too: a page left open across a restart connects again, and reloads for the new run.
  const controlToken = file?.controlToken ?? randomBytes(24).toString('base64url');
  // The realm's signing key too (week45 F4: each start made a new one, and a backend that had fetched the keys less
  // than 30 s before refused every token until it could fetch again).
  const realmKey = file?.realmKey ?? (await newRealmKey());
  if (file)
    await file.compact(() => ({
      state: raw,
      secrets,
      mcp_token: mcpToken,
      control_token: controlToken,
      realm_key: realmKey,
    }));
  return { raw, secrets, mcpToken, controlToken, realmKey };
}

/**
 * Throws, as a listen would, when a port given explicitly is taken, before the state is loaded: the package server
 * starts after it, and a start refused then had written the state file and told of a new signing secret.
 */
async function refuseTakenPort(port: number | undefined, option: string): Promise<void> {
  if (!port) return;
  const probe = createServer();
  await new Promise<void>((ok, fail) => probe.once('error', fail).listen(port, '127.0.0.1', ok)).catch((error) => {
    throw Object.assign(error as Error, { option });
  });
  await new Promise((done) => probe.close(done));
}

/** The messenger origin's server and the app it serves once built. */
interface Listening {
  server: Server;
  /** Serves `app` from now on (until then every request, WebSocket upgrades included, is answered 503). */
  serve(app: PlatformApp): void;
}

/**
 * The messenger origin's server, listening on 127.0.0.1 only, answering 503 until its app is ready (the port is known
 * before the app that names it is built). The app answers requests and the page's WebSocket upgrades alike
 * (@hono/node-server with `ws`; the app's guards run before any upgrade).
 */
async function listen(port: number | undefined, pages: Pages): Promise<Listening> {
  let fetch: (request: Request, env: HttpBindings) => unknown = () => new Response(null, { status: 503 });
  const server = createAdaptorServer({
    fetch: (request, env) => fetch(request, env as HttpBindings),
    // The platform leaves the process's own Request and Response alone (a test or a backend may run beside it).
    overrideGlobalObjects: false,
    websocket: { server: pages.server },
  }) as Server;
  answerOtherUpgrades(server);
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(port ?? 0, '127.0.0.1', ok)).catch(
    (error: Error) => {
      throw Object.assign(error, { option: '--port' });
    },
  );
  answerMalformedRequests(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return { server, serve: (app) => (fetch = app.fetch) };
}

/** What a platform has started so far: filled in as the start goes on, so a start that fails stops what it started. */
interface Started {
  stopWatching(): void;
  mcp?: ReturnType<typeof attachMcp>;
  app: DevApp | undefined;
  webhooks?: WebhookSender;
  pages: Pages;
  server?: Server;
  pkg?: PackageServer;
  file: StateFile | undefined;
  /** The store `svc publish` was told of (its file is removed with the platform). */
  storeUrl?: string;
}

/**
 * Stops what a platform started, in order: the watch, the agent bridge, webhooks, the pages, both servers, the file.
 * `parts` is read when it runs: what a failed start had not started yet is not there.
 */
function stopAll(parts: Started) {
  return async () => {
    parts.stopWatching();
    if (parts.mcp && parts.app) await removeDiscovery(parts.app.dir, parts.mcp.url);
    if (parts.storeUrl) await removeStoreDiscovery(parts.storeUrl);
    await parts.mcp?.close();
    parts.webhooks?.close();
    parts.pages.closeAll();
    await Promise.all([parts.server && closeServer(parts.server), parts.pkg?.close()]);
    await parts.file?.close();
  };
}

/** What the package server serves: the package's files, then each version the store accepts. */
interface Served {
  current: ReturnType<NonNullable<PackageServerOptions['source']>>;
}

/** Whether a URL names this machine's loopback at the port of `origin` (whatever the host's spelling). */
function onLoopbackPortOf(value: string, origin: string): boolean {
  const port = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');
  const url = URL.canParse(value) ? new URL(value) : undefined;
  return !!url && isLoopbackHost(url.hostname) && port(url) === port(new URL(origin));
}

/**
 * Refuses `--webhooks` naming the app's package origin, svc dev's too, which serves the app's files and takes no
 * webhook (recheck48 F2): known once the package is served, on the port kept or a free one.
 */
function refuseWebhooksAtPackage(options: DevPlatformOptions, pkg: PackageServer | undefined): void {
  if (pkg && options.webhooks !== undefined && onLoopbackPortOf(options.webhooks, pkg.origin))
    throw new DevAppError(
      `--webhooks ${options.webhooks} is the app's package origin, where svc dev serves the app's files, which takes no webhook: give your backend's webhook URL, on another port.`,
      { unreadable: true },
    );
}

/**
 * Refuses `--allow`, `--app-url` and `--webhooks` naming the platform's own address: opened to the app, it could
 * fetch the token endpoint and the server API, which it reaches through svc alone (sec44 F5: the advice for a blocked
 * request said to allow it); as the app's page, the frame would load the messenger itself, of the messenger's origin;
 * as the webhook URL, every delivery would be a 404.
 */
function refuseOwnAddress(options: DevPlatformOptions, origin: string): void {
  const own = (value: string) => onLoopbackPortOf(value, origin);
  const what = "svc dev's own platform (the messenger, its control API, the server API)";
  const allowed = options.allow?.find(own);
  if (allowed)
    throw new DevAppError(
      `--allow ${allowed} is ${what}: a mini app reaches it through svc, and its backend through the server API; allow your backend's origin, on another port.`,
      { unreadable: true },
    );
  if (options.appUrl !== undefined && own(options.appUrl))
    throw new DevAppError(
      `--app-url ${options.appUrl} is ${what}: give the URL your dev server prints (npm run dev), on another port.`,
      { unreadable: true },
    );
  // recheck47 F7.
  if (options.webhooks !== undefined && own(options.webhooks))
    throw new DevAppError(
      `--webhooks ${options.webhooks} is ${what}, which takes no webhook: give your backend's webhook URL, on another port.`,
      { unreadable: true },
    );
}

/**
 * The app's package on its own loopback origin, on the port the state kept (so the app's origin a backend allows
 * stays the same; an explicit one wins), or on a new one when that port is taken.
 */
async function servePackage(
  options: DevPlatformOptions,
  parts: {
    app: DevApp;
    origin: string;
    raw: DevState;
    served: Served;
    onBlocked(request: BlockedRequest): void;
    secrets(): string[];
  },
  notice: (kind: DevNotice['kind'], message: string) => Promise<void>,
): Promise<PackageServer> {
  const keptPort = options.packagePort === undefined ? parts.raw.package_port : undefined;
  const serve = (port: number | undefined) =>
    createPackageServer({
      dir: parts.app.dir,
      manifest: parts.app.manifest,
      messengerOrigin: parts.origin,
      allow: options.allow,
      port,
      exclude: [...(options.statePath ? [resolve(options.statePath)] : []), ...(options.neverServe ?? [])],
      keyForms: options.keyForms && (() => options.keyForms!(parts.app.manifest.id)),
      source: () => parts.served.current,
      onBlocked: parts.onBlocked,
      secrets: parts.secrets,
    });
  return serve(options.packagePort ?? keptPort)
    .catch(async (error: NodeJS.ErrnoException) => {
      if (keptPort === undefined || error.code !== 'EADDRINUSE') throw error;
      const moved = await serve(0);
      // Told before the platform runs: a handler that throws fails the start, which stops this server too.
      await notice(
        'package-port-moved',
        `the app's port ${keptPort} (kept in ${options.statePath}) is taken, so it is served from ${moved.origin} now: give your backend the new origin (--backend-env writes it as SVC_APP_ORIGIN).`,
      ).catch(async (error) => {
        await moved.close();
        throw error;
      });
      return moved;
    })
    .catch((error) => {
      // The option the terminal names when the start fails here.
      throw Object.assign(error as Error, { option: '--package-port' });
    });
}

/**
 * The requests the package's policies blocked, each told to the terminal and the pages when it first comes (a page
 * retries a blocked request as often as it likes), the latest {@link LIMITS}.blockedRequests kept.
 */
function blockedRequests(tell: (event: DevEvent) => void, changes: Changes) {
  const blocked: BlockedRequest[] = [];
  const onBlocked = (request: BlockedRequest) => {
    if (blocked.some((b) => b.directive === request.directive && b.blocked === request.blocked)) return;
    if (blocked.push(request) > LIMITS.blockedRequests) blocked.shift();
    tell({ type: 'blocked', blocked: request.blocked, advice: request.advice });
    changes.broadcast('blocked', { type: 'blocked', request });
  };
  return { blocked, onBlocked };
}

/** Keeps the package's port in the state file, so the app's origin stays the same across restarts. */
async function keepPackagePort(pkg: PackageServer, changes: Changes): Promise<void> {
  const port = Number(new URL(pkg.origin).port);
  if (changes.state.package_port === port) return;
  changes.state.package_port = port;
  await changes.changed();
}

/**
 * An edited manifest.json is served from now on (the page's configuration and the package's CSP read it), and every
 * open page reloads to use it; the agent bridge hears of it first, so no call reaches a page with the old rules. An
 * edit that does not validate is reported in the terminal and the open pages, and changes nothing. Once the store
 * has accepted a version, its package is served until the folder's manifest.json is written again, edited or not
 * (a rebuild): the folder is what `svc dev <folder>` runs, so its next build is served, and its version named.
 */
function watchEdits(
  app: DevApp,
  parts: {
    mcp: ReturnType<typeof attachMcp> | undefined;
    pkg: PackageServer | undefined;
    changes: Changes;
    audience: string;
    served: Served;
    revokeDropped(manifest: Manifest): Promise<void>;
    actions: ReturnType<typeof platformActions>;
  },
  notice: (kind: DevNotice['kind'], message: string) => Promise<void> | void,
) {
  // The folder's own manifest, which an accepted package's takes the place of in `app` while it is served; or the
  // package svc dev started with, served from its own files.
  let folder = app.manifest;
  const startPackage = 'files' in app ? parts.served.current : undefined;
  const serveFolder = (next: Manifest, message: string) => {
    folder = next;
    parts.mcp?.manifestEdited(next);
    // The audience is the platform's from its start (the token endpoint, the server API's token checks).
    const now = manifestFacts(next).audience;
    // A mode without an audience (auth.type none) is said as the mode, not as an empty audience (week45 F3).
    // external-oauth's audience is its client_id: named as the field it is (recheck46 F6).
    const field = next.auth.type === 'external-oauth' ? 'auth.client_id' : 'auth.audience';
    const edited = now
      ? `Its ${field} is ${JSON.stringify(now)}`
      : `Its auth (type ${JSON.stringify(next.auth.type)}) has no audience`;
    const audience =
      now === parts.audience
        ? ''
        : ` ${edited}: ${parts.audience ? `tokens are still exchanged for ${JSON.stringify(parts.audience)}, the one svc dev started with,` : 'svc dev started without one, so it exchanges tokens for none'} until it restarts.`;
    app.manifest = next;
    parts.served.current = startPackage && { ...startPackage, manifest: next };
    // The version served is the one events name and the backend's env file says.
    const { state } = parts.changes;
    if (state.version !== next.version || state.installations.some((i) => i.version !== next.version)) {
      state.version = next.version;
      for (const installation of state.installations) installation.version = next.version;
      parts.changes.changedInBackground();
    }
    parts.pkg?.setManifest(next);
    parts.changes.broadcast('manifest', { type: 'manifest' });
    void notice('manifest-edited', `${message}${audience}`);
    void parts.revokeDropped(next);
  };
  // The store's package that is served instead of the folder, if any: its version, for the message.
  const published = () => parts.served.current?.manifest.version;
  // A reset clears the store's record: what a first launch served is served again, the app folder or the package svc
  // dev started with (recheck47 F5: the published package stayed, and svc publish took its version for the folder's).
  const reset = parts.actions['POST /__svc/reset'];
  parts.actions['POST /__svc/reset'] = (body) => {
    reset(body);
    const store = published();
    // The store takes each version once: the same version is the same package.
    if (store === undefined || store === folder.version) return;
    serveFolder(
      folder,
      startPackage
        ? `Reset cleared the store's record: serving the package svc dev started with again (version ${folder.version}), not the one of ${store} published since; open pages reload with it.`
        : `Reset cleared the store's record: serving the app folder again (version ${folder.version}), not the package of ${store}; open pages reload with it.`,
    );
  };
  return watchManifest(app, {
    changed(next) {
      const store = published();
      serveFolder(
        next,
        store === undefined
          ? 'manifest.json changed: serving it now; open pages reload with it.'
          : `manifest.json changed: serving the app folder again (version ${next.version}), not the store's ${store}; open pages reload with it. The store keeps ${store} as published.`,
      );
    },
    rewritten(next) {
      const store = published();
      if (store === undefined) return;
      serveFolder(
        next,
        `manifest.json was written again (a rebuild): serving the app folder again (version ${next.version}), not the store's ${store}; open pages reload with it. The store keeps ${store} as published.`,
      );
    },
    invalid(message) {
      const kept = `${message}\nStill serving the last valid manifest.json until the file validates.`;
      parts.changes.broadcast('problem', { type: 'problem', message: kept });
      void notice('manifest-invalid', kept);
    },
    fixed() {
      parts.changes.broadcast('manifest-valid', { type: 'manifest-valid' });
      void notice('manifest-edited', 'manifest.json is valid again, and the same as the one served.');
    },
  });
}

/** Webhook deliveries to `--webhooks`; those a stopped platform left pending are sent again (at least once). */
async function startWebhooks(
  options: DevPlatformOptions,
  parts: { miniAppId: string; secrets: SigningSecrets; changes: Changes },
  notice: (kind: DevNotice['kind'], message: string) => Promise<void> | void,
): Promise<WebhookSender | undefined> {
  if (!options.webhooks) return undefined;
  const { state } = parts.changes;
  const webhooks = createWebhookSender({
    url: options.webhooks,
    miniAppId: parts.miniAppId,
    secrets: () => validSecrets(parts.secrets),
    retryScale: options.retryScale,
    add: (delivery) => {
      state.deliveries.push(delivery);
      return state.deliveries.at(-1)!;
    },
    changed: parts.changes.changedInBackground,
  });
  const resumed = state.deliveries.filter((d) => d.state === 'pending' && d.url === webhooks.url);
  for (const delivery of resumed) webhooks.resume(delivery);
  if (resumed.length) await notice('deliveries-resumed', `${resumed.length} pending webhook deliveries resumed.`);
  return webhooks;
}

/**
 * Revokes every grant of a scope `manifest` does not declare (week45 F1: a scope taken out of the manifest stayed
 * granted and usable by the backend, with no row left in Settings to revoke it): a scope.revoked event for each
 * person's (none for one who left the tenant), so the backend stops relying on it, and a version that declares it
 * again asks again. The sentence for the terminal, or undefined when nothing was revoked.
 */
function revokeUndeclared(
  manifest: Manifest,
  state: DevState,
  revoke: (body: { user_id: string; scope: string }) => unknown,
): string | undefined {
  const { manifestScopes } = manifestFacts(manifest);
  const revoked = new Map<string, string[]>();
  for (const grant of [...state.grants])
    for (const scope of [...grant.scopes]) {
      if (manifestScopes.has(scope)) continue;
      if (state.users.find((u) => u.id === grant.user_id)?.deprovisioned)
        grant.scopes = grant.scopes.filter((s) => s !== scope);
      else revoke({ user_id: grant.user_id, scope });
      revoked.set(scope, [...(revoked.get(scope) ?? []), grant.user_id]);
    }
  if (revoked.size === 0) return undefined;
  const list = [...revoked].map(([scope, users]) => `${scope} (granted by ${users.join(', ')})`).join(', ');
  return `the manifest no longer declares ${list}: revoked, and scope.revoked sent to the backend; a version that declares it again asks the person again.`;
}

/** What revokes, saves and tells of the grants a manifest served no longer declares ({@link revokeUndeclared}). */
function grantsFollowManifest(
  state: DevState,
  revoke: (body: { user_id: string; scope: string }) => unknown,
  changes: Changes,
  notice: (kind: DevNotice['kind'], message: string) => Promise<void> | void,
) {
  return async (manifest: Manifest | undefined) => {
    const told = manifest && revokeUndeclared(manifest, state, revoke);
    if (!told) return;
    changes.changedInBackground();
    await notice('grants-revoked', told);
  };
}

/** The control actions, told the terminal of a rotation; revoking a version marks it in the store's record too. */
function platformActions(
  parts: Parameters<typeof controlActions>[0],
  changes: Changes,
  notice: (kind: DevNotice['kind'], message: string) => Promise<void> | void,
) {
  const { state, secrets } = parts;
  const actions = controlActions({
    ...parts,
    rotated: async (endedOverlap) => {
      changes.secretsChanged();
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
  const reset = actions['POST /__svc/reset'];
  actions['POST /__svc/reset'] = (body) => {
    reset(body);
    // The state file is written whole: every person's stored data and the store's record leave it now, as the
    // Reset sheet says, not at the next start (recheck46 F5).
    changes.rewriteNext();
  };
  const revokeVersion = actions['POST /__svc/revoke-version'];
  actions['POST /__svc/revoke-version'] = (body) => {
    revokeVersion(body);
    const record = state.store?.versions.find((v) => v.version === state.version);
    if (record) record.revoked = true;
  };
  return actions;
}

/**
 * Leaves, for `svc publish`, where this platform's store is and its token, in a file only this user can read: every
 * way of starting svc dev for an app (the CLI, the starter's `npm run dev`) can be published to. The store's URL, or
 * undefined (said as a notice) when the file could not be written.
 */
async function announceStore(
  url: string,
  token: string,
  app: { miniAppId: string; state: string | undefined },
  notice: (kind: DevNotice['kind'], message: string) => Promise<void>,
): Promise<string | undefined> {
  const entry = {
    url,
    token,
    pid: process.pid,
    mini_app_id: app.miniAppId,
    ...(app.state ? { state: app.state } : {}),
  };
  const failed = await writeStoreDiscovery(entry).then(
    () => undefined,
    (error: Error) => error,
  );
  if (!failed) return url;
  await notice(
    'store-unfindable',
    `svc publish cannot find this store: ${failed.message}; set SVC_STATE_DIR to a writable folder, or upload from the messenger's Settings → Store.`,
  );
  return undefined;
}

/** The agent bridge (with an app folder, unless turned off), and the lines to print for MCP clients (written where `svc mcp <dir>` finds this platform). */
async function startMcp(
  app: DevApp | undefined,
  parts: Omit<Parameters<typeof attachMcp>[0], 'app'>,
  notice: (kind: DevNotice['kind'], message: string) => Promise<void>,
) {
  if (!app || parts.options.mcp === false) return undefined;
  const mcp = attachMcp({ ...parts, app });
  // `svc mcp` is started for what svc dev runs: the folder, or the package file (whose folder holds no manifest).
  const { statePath } = parts.options;
  let configs = mcpConfigs(
    mcp.url,
    mcp.token,
    {
      dir: 'file' in app ? (app as DevPackageApp).file : app.dir,
      name: app.manifest.name,
      id: app.manifest.id,
    },
    statePath && resolve(statePath),
  );
  const written = await writeDiscovery({ dir: app.dir, url: mcp.url, token: mcp.token, pid: process.pid }).catch(
    (error: Error) => error,
  );
  if (written instanceof Error)
    configs += `\n  (svc mcp cannot find this platform: ${written.message}; set SVC_STATE_DIR to a writable folder.)`;
  const before = written instanceof Error ? undefined : written;
  if (before)
    await notice(
      'folder-served-twice',
      `another svc dev (process ${before.pid}) serves this folder too: svc mcp forwards to this one while it runs, then to that one again.`,
    );
  return { mcp, configs };
}

/**
 * The messenger page's own Content-Security-Policy: it may frame the app's origin only, run its own script (and the
 * inline one of `scriptHash` alone), and open its channel.
 */
const pageCsp = (appOrigin: string, origin: string, scriptHash?: string) =>
  [
    "default-src 'self'",
    ...(scriptHash ? [`script-src 'self' '${scriptHash}'`] : []),
    // The page's channel: a WebSocket to its own server, named (not every engine counts ws: as 'self').
    `connect-src 'self' ${origin.replace(/^http:/, 'ws:')}`,
    "style-src 'self' 'unsafe-inline'",
    `frame-src ${appOrigin || "'none'"}`,
    "img-src 'self' data: http: https:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

/**
 * The package svc dev starts with is uploaded to the store (the first one binds the id to its key); one at or below
 * the highest version the store accepted is run again as it is, if it is signed by the key the id is bound to, and
 * the developer is told when that is not the latest accepted build. Returns why not, if not.
 */
async function startPackaged(
  packaged: NonNullable<Awaited<ReturnType<typeof openApp>>['packaged']>,
  state: DevState,
  store: ReturnType<typeof createStore>,
  notice: (kind: DevNotice['kind'], message: string) => Promise<void>,
): Promise<string | undefined> {
  const record = state.store;
  if (record && compareVersions(packaged.manifest.version, record.highest) <= 0) {
    if (!packaged.signers.some((s) => Buffer.from(s.publicKey).toString('base64') === record.key))
      return `the id ${packaged.manifest.id} is bound to the key ${record.key_id} in this state, and ${packaged.file} is not signed by it; sign it with that key, or start afresh with --reset`;
    const { version } = packaged.manifest;
    const sha256 = createHash('sha256').update(packaged.bytes).digest('hex');
    const accepted = record.versions.find((v) => v.version === version);
    // Run all the same (an older build is what one starts to compare), but never silently: the store's rules still
    // count the highest version, and a version is never reused.
    if (accepted?.sha256 !== sha256)
      await notice(
        'package-not-accepted',
        `${packaged.file} is version ${version}, but the store accepted ${accepted ? 'another build of it' : `no ${version}`}: svc dev runs it all the same; to publish it, raise its version above ${record.highest}.`,
      );
    else if (version !== record.highest)
      await notice(
        'package-not-accepted',
        `${packaged.file} is version ${version}, older than ${record.highest}, the highest the store accepted: svc dev runs ${version}; the next version to publish must still be above ${record.highest}.`,
      );
    return undefined;
  }
  const answer = await store.upload(packaged.bytes);
  return answer.ok ? undefined : `the store refused ${packaged.file}: ${answer.body.detail}`;
}

/**
 * The local store: each version it accepts is served from then on (the page reloads its config and relaunches the
 * app, as it follows `state.version`), and told to the terminal once the platform has started. The package `svc dev`
 * starts with goes through the store too, and its start line says so: the terminal's first line stays the URL.
 */
function openStore(
  options: Omit<Parameters<typeof createStore>[0], 'accepted'>,
  parts: {
    served: Served;
    app: DevApp | undefined;
    mcp: ReturnType<typeof attachMcp> | undefined;
    tell(event: DevEvent): void;
    versionServed: DevPlatformOptions['onVersionServed'];
    /** `--app-url`: the frame loads the developer's own server, whatever the store holds. */
    appUrl: string | undefined;
    revokeDropped(manifest: Manifest): Promise<void>;
  },
) {
  let running = false;
  const store = createStore({
    ...options,
    accepted: (accepted, binding) => {
      parts.served.current = { manifest: accepted.manifest, files: accepted.files };
      if (parts.app) parts.app.manifest = accepted.manifest;
      parts.mcp?.setManifest(accepted.manifest);
      if (!running) return undefined;
      void parts.revokeDropped(accepted.manifest);
      parts.tell({
        type: 'store',
        version: accepted.version,
        signers: accepted.signers.map((s) => s.id),
        ...binding,
        // An app folder's next rebuild is served again (watchEdits); a package's store is all there is; the developer's
        // own server (--app-url) is what the frame loads whatever the store holds.
        ...(parts.appUrl ? { app_url: parts.appUrl } : parts.app && !('files' in parts.app) ? { folder: true } : {}),
      });
      return Promise.resolve(parts.versionServed?.(accepted.version));
    },
  });
  return { store, started: () => (running = true) };
}

/** What {@link buildApp} assembles. */
interface AppParts {
  options: DevPlatformOptions;
  origin: string;
  controlToken: string;
  /** This start's id: a page of an earlier one (its launch token kept with --state) reloads when it connects. */
  run: string;
  realm: string;
  audience: string;
  idp: IdentityProvider;
  secrets: SigningSecrets;
  changes: Changes;
  tell(event: DevEvent): void;
  pages: Pages;
  store: ReturnType<typeof createStore>;
  actions: ReturnType<typeof platformActions>;
  /** The manifest served now: the store's latest version, else the folder's (edited) one. */
  running(): Manifest | undefined;
  blocked: BlockedRequest[];
  appUrl: string;
  appOrigin: string;
  mcp(): ReturnType<typeof attachMcp> | undefined;
}

/** The one app of the messenger origin, from the platform's parts. */
function buildApp(parts: AppParts) {
  const { origin, controlToken, changes, pages, tell } = parts;
  const { state, changed } = changes;
  const guards = createGuards({ origin, controlToken });
  const config = (): DevConfig => {
    const mcp = parts.mcp();
    return {
      appOrigin: parts.appOrigin,
      appUrl: parts.appUrl,
      ...(parts.options.appUrl ? { devServer: true } : {}),
      manifest: (parts.running() ?? {}) as Manifest,
      authUrl: origin,
      realm: parts.realm,
      baseUrl: `${origin}/v1`,
      run: parts.run,
      blocked: parts.blocked,
      ...(parts.options.statePath ? { statePath: parts.options.statePath } : {}),
      ...(parts.options.webhooks ? { webhooks: parts.options.webhooks } : {}),
      ...(mcp
        ? {
            mcp: {
              url: mcp.url,
              header: `Authorization: Bearer ${mcp.token}`,
              name: mcpServerName(parts.running() ?? { name: '', id: '' }),
            },
          }
        : {}),
    };
  };
  return createPlatformApp({
    origin,
    guards,
    identity: identityRoutes(parts.idp, parts.realm, guards),
    serverApi: serverApiRoutes({
      origin,
      audience: parts.audience,
      state,
      idp: parts.idp,
      guards,
      secrets: () => validSecrets(parts.secrets),
      // One bucket per vendor for the platform's life: every server API request draws from it.
      take: createRequestBucket(parts.options.now),
      changed,
      tell,
      routes: () => parts.running()?.routes,
      declared: () => {
        const manifest = parts.running();
        return manifest && manifestFacts(manifest).manifestScopes;
      },
    }),
    page: pageRoutes({
      controlToken,
      run: parts.run,
      guards,
      pages,
      state,
      config,
      pageCsp: (scriptHash) => pageCsp(parts.appOrigin, origin, scriptHash),
      script: pageScriptReader(),
      mcpRoutes: () => parts.mcp()?.routes,
    }),
    store: parts.store.routes,
    control: createControlApp({
      guards,
      actions: parts.actions,
      state,
      changed,
      config,
      mcpRoutes: () => parts.mcp()?.routes,
      pageEvent: (event) =>
        tell(event.type === 'launch' ? event : { type: 'no-hello', seconds: event.seconds, app_url: parts.appUrl }),
    }),
    mcp: parts.mcp,
    mcpPath: MCP_PATH,
  });
}

/**
 * Starts the local platform on 127.0.0.1: the messenger page, the identity provider, the server API, webhooks, the
 * guarded control API, and (with `dir`) the app's package on its own origin. Everything the messenger origin serves
 * is one Hono app (src/dev/platform/createPlatformApp.ts).
 * @throws {@link DevAppError} when `dir` has no valid manifest (the message lists each problem).
 * @example
 * ```ts
 * // dir: your app's folder, the one that holds its manifest.json ('.' for a plain app; 'dist' after the vite
 * // starter's npm run build)
 * const platform = await startDevPlatform({ dir: 'dist', port: 0 });
 * console.log(platform.url); // open it in a browser
 * await platform.close();
 * ```
 * @public
 */
export async function startDevPlatform(options: DevPlatformOptions) {
  const { app, packaged, file, miniAppId, audience, version } = await openApp(options);
  const realm = options.realm ?? 'svc-dev';
  // A handler that throws rejects, as one that returns a rejected promise does: a start it fails stops what it started.
  const notice = async (kind: DevNotice['kind'], message: string) => options.onNotice?.({ kind, message });
  const tell = (event: DevEvent) => options.onEvent?.(event);
  const pages = createPageChannel();
  // Nothing may keep running when the start fails (the state file that cannot be compacted, a port taken, a save
  // that fails, a notice's handler that throws): what has started is stopped, the state file given back, and the
  // caller reports the error and exits.
  const started: Started = { stopWatching() {}, app, pages, file };
  const close = stopAll(started);
  try {
    // The port first: a start refused for a taken port writes no state file and tells of no new secret.
    const listening = await listen(options.port, pages);
    const { server } = listening;
    started.server = server;
    if (app && !options.appUrl) await refuseTakenPort(options.packagePort, '--package-port');
    const identity = { miniAppId, version, folder: !!app && !packaged };
    const kept = await loadState(file, identity, notice, options.statePath);
    const { raw, secrets, mcpToken, controlToken, realmKey } = kept;
    const changes = createChanges({ raw, secrets, file, pages, tell, notice, onChange: options.onChange });
    const { state, changed } = changes;
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const served: Served = { current: packaged ? { manifest: packaged.manifest, files: packaged.files } : undefined };
    const running = () => served.current?.manifest ?? app?.manifest;
    const idp = await createIdentityProvider({
      authUrl: origin,
      realm,
      key: realmKey,
      authorize: authorizeExchange({ state, audience, running, manifest: () => app?.manifest }),
    });
    const { blocked, onBlocked } = blockedRequests(tell, changes);
    const publishToken = randomBytes(24).toString('base64url');
    // Every secret of this run, which no file the app's origin serves may hold (a copy of svc dev's files).
    const liveSecrets = () => [controlToken, mcpToken, publishToken, ...validSecrets(secrets)];
    refuseOwnAddress(options, origin);
    const pkg =
      app && !options.appUrl
        ? await servePackage(options, { app, origin, raw, served, onBlocked, secrets: liveSecrets }, notice)
        : undefined;
    started.pkg = pkg;
    refuseWebhooksAtPackage(options, pkg);
    const webhooks = await startWebhooks(options, { miniAppId, secrets, changes }, notice);
    started.webhooks = webhooks;
    if (file && pkg) await keepPackagePort(pkg, changes);
    const mcpParts = { options, origin, pages: pages.channel, secrets: liveSecrets, token: mcpToken };
    const bridge = await startMcp(app, mcpParts, notice);
    const mcp = bridge?.mcp;
    started.mcp = mcp;
    const actions = platformActions({ state, miniAppId, idp, webhooks, secrets, manifest: running }, changes, notice);
    // The scopes in force are the ones the manifest served declares: at the start, and at each edit or accepted version.
    const revokeDropped = grantsFollowManifest(state, actions['POST /__svc/revoke'], changes, notice);
    await revokeDropped(running());
    const { store, started: storeRuns } = openStore(
      { state, changed, origin, controlToken, publishToken, runs: packaged ? 'package' : 'folder' },
      { served, app, mcp, tell, versionServed: options.onVersionServed, appUrl: options.appUrl, revokeDropped },
    );
    started.stopWatching = app
      ? watchEdits(app, { mcp, pkg, changes, audience, served, revokeDropped, actions }, notice)
      : () => {};
    const appUrl = options.appUrl ?? pkg?.entryUrl ?? '';
    const appOrigin = appUrl ? new URL(appUrl).origin : '';
    const platformApp = buildApp({
      options,
      origin,
      controlToken,
      run: randomBytes(8).toString('hex'),
      realm,
      audience,
      idp,
      secrets,
      changes,
      tell,
      pages,
      store,
      actions,
      running,
      blocked,
      appUrl,
      appOrigin,
      mcp: () => mcp,
    });
    listening.serve(platformApp);
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
      mcpConfigs: bridge?.configs,
      close,
    });
    platformApps.set(handle, platformApp);
    const refused = packaged ? await startPackaged(packaged, state, store, notice) : undefined;
    storeRuns();
    if (refused) throw new DevAppError(refused);
    started.storeUrl = app && (await announceStore(origin, publishToken, { miniAppId, state: file?.path }, notice));
    return withStore(handle, publishToken, store);
  } catch (error) {
    await close();
    throw error;
  }
}

/** The platform's handle with what the start alone knows: the store's token and its upload. */
function withStore<H extends object>(
  handle: H,
  publishToken: string,
  store: Pick<ReturnType<typeof createStore>, 'upload'>,
) {
  return Object.assign(handle, {
    /** The token `svc publish` sends to the store: kept in a file only this user can read, never printed. */
    publishToken,
    /**
     * The local store (`svc publish` and the messenger's settings upload through it). Its upload only: its routes
     * are the platform's, and would put Hono's types in this package's declarations.
     */
    store: { upload: store.upload },
  });
}

/** A running platform. @public */
export type DevPlatform = Awaited<ReturnType<typeof startDevPlatform>>;
