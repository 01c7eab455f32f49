/**
 * `svc-sdk/dev`: the local platform of `svc dev` (identity provider, server API emulator, webhooks, control API).
 * @packageDocumentation
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkControlRequest } from './platform/checkControlRequest';
import { createIdentityProvider } from './platform/createIdentityProvider';
import { createWebhookSender } from './platform/createWebhookSender';
import { createRequestBucket, handleServerApi } from './platform/handleServerApi';
import { initialState } from './platform/initialState';
import { loadState, saveState } from './platform/stateFile';
import { CONTROL_PREFIX, CONTROL_TOKEN_HEADER, type DevState } from './protocol';

export * from './protocol';

/** A control request body (fields of the protocol's request types). */
interface ActionBody {
  user_id?: string;
  agent_id?: string;
  scope?: string;
  removed_by?: string;
  reason?: string;
  overlap_seconds?: number;
  room_id?: string;
  text?: string;
  name?: string;
  is_encrypted?: boolean;
  id?: string;
  theme?: 'light' | 'dark';
  locale?: string;
  current_user_id?: string;
  current_room_id?: string;
}

/** Options of {@link startDevPlatform}. @public */
export interface DevPlatformOptions {
  miniAppId: string;
  /** The manifest's audience: exchanged tokens carry exactly this `aud`. */
  audience: string;
  version?: string;
  /** Port on 127.0.0.1; default a free one. */
  port?: number;
  /** The backend's webhook URL (`--webhooks`). */
  webhooks?: string;
  /** State file path (`--state`); saved atomically after every change. */
  statePath?: string;
  /** Backoff multiplier for webhook retries (`--retry-scale`). */
  retryScale?: number;
  realm?: string;
}

/**
 * Starts the local platform on 127.0.0.1.
 * @remarks Unfinished: the app package server and the `act as person/admin` helper calls are not yet wired
 * (see docs/dev.md); the control API covers them over HTTP.
 * @example
 * ```ts
 * const p = await startDevPlatform({ miniAppId: 'polls', audience: 'https://polls.example' });
 * await p.close();
 * ```
 * @public
 */
export async function startDevPlatform(options: DevPlatformOptions) {
  const realm = options.realm ?? 'svc-dev';
  const saved = options.statePath ? await loadState(options.statePath, options.miniAppId) : undefined;
  const state: DevState = saved ?? initialState(options.miniAppId, options.version ?? '0.0.0');
  let secrets = [randomBytes(24).toString('base64url')];
  const controlToken = randomBytes(24).toString('base64url');
  const take = createRequestBucket();
  const streams = new Set<ServerResponse>();
  let saving = Promise.resolve();
  const changed = () => {
    if (options.statePath) saving = saving.then(() => saveState(options.statePath as string, state));
    const data = `event: state\ndata: ${JSON.stringify({ type: 'state', state })}\n\n`;
    for (const res of streams) res.write(data);
  };
  const server = createServer((req, res) => void route(req, res).catch(() => res.writeHead(500).end()));
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(options.port ?? 0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idp = await createIdentityProvider({
    authUrl: url,
    realm,
    authorize: ({ userId, audience, scopes }) => {
      const user = state.users.find((u) => u.id === userId);
      if (audience !== options.audience) return { refuse: `audience must be ${options.audience}.` };
      if (!user || user.deprovisioned) return { refuse: 'the person left the tenant.' };
      if (state.version_revoked) return { refuse: 'this version of the mini app was revoked.' };
      const inst = state.installations.find((i) => i.user_id === userId && i.installed);
      if (!inst) return { refuse: 'the mini app is not installed for this person.' };
      const granted = state.grants.find((g) => g.user_id === userId)?.scopes ?? [];
      return { appUserId: user.app_user_id, scopes: scopes.filter((s) => granted.includes(s)) };
    },
  });
  const webhooks = options.webhooks
    ? createWebhookSender({
        url: options.webhooks,
        miniAppId: options.miniAppId,
        secret: () => secrets[0] ?? '',
        retryScale: options.retryScale,
        changed,
      })
    : undefined;
  const emit = (event: string, fields: Record<string, unknown>) => {
    if (!webhooks) return;
    const tenant_id = state.tenants[0]?.id ?? '';
    const payload = {
      event,
      occurred_at: new Date().toISOString(),
      mini_app_id: options.miniAppId,
      tenant_id,
      ...fields,
    };
    state.deliveries.push(webhooks.send(event, payload));
  };
  const userOf = (id?: string) => {
    const user = state.users.find((u) => u.id === (id ?? state.settings.current_user_id));
    if (!user) throw new Error(`user_id ${id} is unknown.`);
    return user;
  };
  const actions: Record<string, (body: ActionBody) => Promise<unknown> | unknown> = {
    'GET /__svc/state': () => state,
    'POST /__svc/subject-token': async (b) => ({
      subject_token: await idp.subjectToken(userOf(b.user_id).id),
      actor_token: b.agent_id ? await idp.actorToken(String(b.agent_id)) : undefined,
      expires_in: 3600,
    }),
    'POST /__svc/install': (b) => {
      const user = userOf(b.user_id);
      state.installations = state.installations.filter((i) => i.user_id !== user.id);
      state.installations.push({
        user_id: user.id,
        mini_app_id: options.miniAppId,
        version: state.version,
        installed: true,
        installed_at: new Date().toISOString(),
      });
      emit('installation.created', { app_user_id: user.app_user_id, version: state.version });
    },
    'POST /__svc/uninstall': (b) => {
      const user = userOf(b.user_id);
      for (const i of state.installations) if (i.user_id === user.id) i.installed = false;
      emit('installation.deleted', {
        app_user_id: user.app_user_id,
        removed_by: b.removed_by === 'admin' ? 'admin' : 'user',
      });
    },
    'POST /__svc/deprovision': (b) => {
      const user = userOf(b.user_id);
      user.deprovisioned = true;
      emit('user.deprovisioned', { app_user_id: user.app_user_id });
    },
    'POST /__svc/grant': (b) => setScope(userOf(b.user_id).id, String(b.scope ?? ''), true),
    'POST /__svc/revoke': (b) => setScope(userOf(b.user_id).id, String(b.scope ?? ''), false),
    'POST /__svc/message': (b) => {
      const room = state.rooms.find((r) => r.id === b.room_id);
      if (!room) throw new Error(`room_id ${b.room_id} is unknown.`);
      if (typeof b.text !== 'string' || !b.text) throw new Error('text is missing: send the confirmed message.');
      const sender = userOf().id;
      const at = new Date().toISOString();
      room.timeline.push({
        kind: 'message',
        event_id: `$${randomUUID()}`,
        sender,
        text: b.text,
        at,
        via_app: options.miniAppId,
      });
    },
    'POST /__svc/rooms': (b) => {
      if (typeof b.name !== 'string' || !b.name) throw new Error('name is missing.');
      const members = state.users.map((u) => u.id);
      state.rooms.push({
        id: randomUUID(),
        name: b.name,
        is_encrypted: b.is_encrypted === true,
        members,
        timeline: [],
      });
    },
    'PATCH /__svc/settings': (b) => {
      if (b.theme !== undefined && b.theme !== 'light' && b.theme !== 'dark')
        throw new Error("theme must be 'light' or 'dark'.");
      if (b.current_user_id !== undefined) userOf(b.current_user_id);
      if (b.current_room_id !== undefined && !state.rooms.some((r) => r.id === b.current_room_id))
        throw new Error(`current_room_id ${b.current_room_id} is unknown.`);
      const { theme, locale, current_user_id, current_room_id } = b;
      const patch = Object.entries({ theme, locale, current_user_id, current_room_id }).filter(
        ([, v]) => v !== undefined,
      );
      Object.assign(state.settings, Object.fromEntries(patch));
    },
    'POST /__svc/notifications/read': (b) => {
      const note = state.notifications.find((n) => n.id === b.id);
      if (!note) throw new Error(`id ${b.id} is not a notification.`);
      note.read = true;
    },
    'POST /__svc/deliveries/resend': (b) => {
      const old = state.deliveries.find((d) => d.id === b.id);
      if (!old) throw new Error(`id ${b.id} is not a delivery.`);
      if (!webhooks) throw new Error('no webhook URL: start with --webhooks.');
      state.deliveries.push(webhooks.send(old.event, old.payload));
    },
    'POST /__svc/revoke-version': (b) => {
      state.version_revoked = true;
      emit('app.revoked', { version: state.version, ...(b.reason ? { reason: String(b.reason) } : {}) });
    },
    'POST /__svc/rotate-secret': (b) => {
      const overlap = Number(b.overlap_seconds ?? 3600);
      secrets = [randomBytes(24).toString('base64url'), secrets[0] ?? ''];
      state.secret = {
        generation: state.secret.generation + 1,
        previous_valid_until: new Date(Date.now() + overlap * 1000).toISOString(),
      };
      setTimeout(() => (secrets = secrets.slice(0, 1)), overlap * 1000).unref();
    },
  };
  function setScope(userId: string, scope: string, on: boolean) {
    if (!scope) throw new Error('scope is missing: send a manifest scope name.');
    let grant = state.grants.find((g) => g.user_id === userId);
    if (!grant) {
      grant = { user_id: userId, mini_app_id: options.miniAppId, scopes: [] };
      state.grants.push(grant);
    }
    grant.scopes = grant.scopes.filter((s) => s !== scope).concat(on ? [scope] : []);
    emit(on ? 'scope.granted' : 'scope.revoked', { app_user_id: userOf(userId).app_user_id, scope });
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    let body = '';
    for await (const chunk of req) body += chunk;
    const path = new URL(req.url ?? '/', url).pathname;
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    const oidc = `/realms/${realm}/protocol/openid-connect`;
    if (path === `${oidc}/certs`) return send(200, idp.jwks);
    if (path === `${oidc}/token` && req.method === 'POST') {
      const answer = await idp.exchange(new URLSearchParams(body));
      return send(answer.status, answer.body, { 'cache-control': 'no-store' });
    }
    if (path.startsWith('/v1/')) {
      const answer = await handleServerApi(
        { method: req.method ?? 'GET', path, headers: req.headers, body },
        {
          state,
          errorsUrl: `${url}/errors`,
          secrets: () => secrets,
          take,
          notificationsScope: 'svc.notifications',
          verifyToken: async (t) => (await idp.verify(t, options.audience)).payload as { sub?: string },
          changed,
        },
      );
      return send(answer.status, answer.body, answer.headers);
    }
    if (path === `${CONTROL_PREFIX}/events` && req.method === 'GET') {
      const query = new URL(req.url ?? '/', url).searchParams.get('token');
      const refusal = checkControlRequest(req.headers, { token: controlToken, origin: url }, query);
      if (refusal) return send(403, { title: 'Forbidden', status: 403, detail: refusal, instance: path });
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(`event: state\ndata: ${JSON.stringify({ type: 'state', state })}\n\n`);
      streams.add(res);
      req.once('close', () => streams.delete(res));
      return;
    }
    if (path.startsWith(CONTROL_PREFIX)) {
      const refusal = checkControlRequest(req.headers, { token: controlToken, origin: url });
      if (refusal) return send(403, { title: 'Forbidden', status: 403, detail: refusal, instance: path });
      const action = actions[`${req.method} ${path}`];
      if (!action)
        return send(404, { title: 'Not found', status: 404, detail: `no control route ${path}.`, instance: path });
      try {
        const result = await action(body ? JSON.parse(body) : {});
        if (result === undefined) changed();
        return send(200, result ?? state);
      } catch (error) {
        return send(400, { title: 'Bad request', status: 400, detail: (error as Error).message, instance: path });
      }
    }
    send(404, { title: 'Not found', status: 404, detail: `no route ${path}.`, instance: path });
  }

  return {
    url,
    baseUrl: `${url}/v1`,
    authUrl: url,
    realm,
    get signingSecret() {
      return secrets[0] ?? '';
    },
    miniAppId: options.miniAppId,
    rooms: state.rooms,
    state,
    /** The per-launch control token (send it as {@link CONTROL_TOKEN_HEADER}). */
    controlToken,
    async close() {
      webhooks?.close();
      for (const r of streams) r.end();
      await new Promise<void>((ok) => server.close(() => ok()));
      await saving;
    },
  };
}

/** A running platform. @public */
export type DevPlatform = Awaited<ReturnType<typeof startDevPlatform>>;
