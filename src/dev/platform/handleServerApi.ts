import { SERVER_API_RATE } from '../../server/createRateLimiter';
import { createProblem, type ProblemName } from '../../server/problems';
import { verifySignature } from '../../server/verifySignature';
import type { DevCard, DevNotification, DevState } from '../protocol';

/** A server API request as received (raw body: the signature covers the exact bytes). @internal */
export interface ApiRequest {
  method: string;
  /** Path starting with `/v1`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A server API answer. @internal */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** What the emulator needs from the platform. @internal */
export interface ServerApiContext {
  state: DevState;
  errorsUrl: string;
  /** The secrets that verify now: the current one, plus the previous one during a rotation's overlap. */
  secrets(): string[];
  /** Consumes one request from the app's bucket; false when over 600/min burst 60. */
  take(): boolean;
  /** Verifies a token of this realm for the manifest's audience (agents/verify). */
  verifyToken(token: string): Promise<{ sub?: string; act?: { sub?: string } }>;
  /** The manifest scope whose grant allows notifications. */
  notificationsScope: string;
  /** Called after a change, so the platform saves and streams it. */
  changed(event: { type: 'card'; room_id: string } | { type: 'notification'; notification: DevNotification }): void;
}

/**
 * A token bucket that refuses (rather than waits) past the interface's 600 requests/minute, burst 60.
 * @internal
 */
export function createRequestBucket(now: () => number = Date.now): () => boolean {
  let tokens: number = SERVER_API_RATE.burst;
  let updated = now();
  return () => {
    const t = now();
    tokens = Math.min(SERVER_API_RATE.burst, tokens + ((t - updated) / 60_000) * SERVER_API_RATE.perMinute);
    updated = t;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): ApiAnswer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body,
});

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * The server API emulator (`/v1`): every endpoint and rule of the interface, as a pure request → answer function
 * over the platform state.
 * @internal
 */
export async function handleServerApi(request: ApiRequest, ctx: ServerApiContext): Promise<ApiAnswer> {
  const instance = request.path.split('?')[0] ?? request.path;
  const problem = (name: ProblemName, detail: string, headers: Record<string, string> = {}) => {
    const p = createProblem(ctx.errorsUrl, name, detail, instance);
    return json(p.status, p, { 'content-type': 'application/problem+json', ...headers });
  };
  try {
    await verifySignature(
      { body: request.body, headers: request.headers },
      {
        secrets: ctx.secrets(),
        miniAppId: ctx.state.mini_app_id,
      },
    );
  } catch (error) {
    return problem('invalid-signature', `${(error as Error).message} Sign with svc-sdk/server's signRequest.`);
  }
  if (!ctx.take())
    return problem('rate-limited', 'more than 600 requests a minute: wait and retry.', { 'retry-after': '1' });
  if (ctx.state.version_revoked)
    return problem('version-revoked', `version ${ctx.state.version} was revoked: stop serving it.`);

  let body: Record<string, unknown> = {};
  if (request.method === 'POST') {
    try {
      const parsed: unknown = JSON.parse(request.body);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error();
      body = parsed as Record<string, unknown>;
    } catch {
      return problem('invalid-request', 'the body must be a JSON object.');
    }
  }
  const segments: string[] = instance.split('/').filter(Boolean).map(decodeURIComponent);
  const at = (i: number) => segments[i] ?? '';
  const { state } = ctx;
  const userByAppId = (id: string) => state.users.find((u) => u.app_user_id === id && !u.deprovisioned);
  const checkApp = (): ApiAnswer | undefined => {
    if (!isText(body.mini_app_id)) return problem('invalid-request', 'mini_app_id is missing: send your mini app id.');
    if (body.mini_app_id !== state.mini_app_id)
      return problem('not-found', `mini_app_id ${body.mini_app_id} is unknown.`);
    return undefined;
  };

  // POST /v1/rooms/{room_id}/cards
  if (request.method === 'POST' && segments.length === 4 && segments[1] === 'rooms' && segments[3] === 'cards') {
    const bad = checkApp();
    if (bad) return bad;
    if (!isText(body.app_user_id)) return problem('invalid-request', 'app_user_id is missing.');
    const card = body.card as DevCard | undefined;
    if (!card || !isText(card.title) || typeof card.body !== 'string')
      return problem('invalid-request', 'card.title and card.body are required strings.');
    const actions = card.actions ?? [];
    if (!Array.isArray(actions) || !actions.every((a) => a && isText(a.label) && isText(a.deep_link)))
      return problem('invalid-request', 'card.actions must be an array of {label, deep_link} strings.');
    const room = state.rooms.find((r) => r.id === at(2));
    if (!room) return problem('not-found', `room ${at(2)} is unknown.`);
    if (!userByAppId(body.app_user_id)) return problem('not-found', `app_user_id ${body.app_user_id} is unknown.`);
    if (room.is_encrypted)
      return problem(
        'room-encrypted',
        'the room is end-to-end encrypted: ask the person to share with svc.message.send().',
      );
    const event_id = `$${crypto.randomUUID()}`;
    room.timeline.push({
      kind: 'card',
      event_id,
      mini_app_id: state.mini_app_id,
      app_user_id: body.app_user_id,
      card: {
        title: card.title,
        body: card.body,
        actions: actions.map((a) => ({ label: a.label, deep_link: a.deep_link })),
      },
      at: new Date().toISOString(),
    });
    ctx.changed({ type: 'card', room_id: room.id });
    return json(201, { event_id });
  }

  // POST /v1/users/{app_user_id}/notifications
  if (
    request.method === 'POST' &&
    segments.length === 4 &&
    segments[1] === 'users' &&
    segments[3] === 'notifications'
  ) {
    const bad = checkApp();
    if (bad) return bad;
    for (const field of ['title', 'body', 'deep_link'] as const)
      if (!isText(body[field])) return problem('invalid-request', `${field} is missing: send a non-empty string.`);
    const user = userByAppId(at(2));
    if (!user) return problem('not-found', `app_user_id ${segments[2]} is unknown.`);
    const grant = state.grants.find((g) => g.user_id === user.id && g.mini_app_id === state.mini_app_id);
    if (!grant?.scopes.includes(ctx.notificationsScope))
      return problem('scope-not-granted', 'the person has not granted notifications: ask for it inside the mini app.');
    const notification: DevNotification = {
      id: crypto.randomUUID(),
      user_id: user.id,
      mini_app_id: state.mini_app_id,
      title: body.title as string,
      body: body.body as string,
      deep_link: body.deep_link as string,
      at: new Date().toISOString(),
      read: false,
    };
    state.notifications.push(notification);
    ctx.changed({ type: 'notification', notification });
    return json(201, { notification_id: notification.id });
  }

  // GET /v1/apps/{mini_app_id}/installations/{app_user_id}
  if (request.method === 'GET' && segments.length === 5 && segments[1] === 'apps' && segments[3] === 'installations') {
    if (segments[2] !== state.mini_app_id) return problem('not-found', `mini app ${segments[2]} is unknown.`);
    const user = userByAppId(at(4));
    if (!user) return problem('not-found', `app_user_id ${segments[4]} is unknown.`);
    const inst = state.installations.find((i) => i.user_id === user.id && i.mini_app_id === state.mini_app_id);
    const grant = state.grants.find((g) => g.user_id === user.id && g.mini_app_id === state.mini_app_id);
    return json(200, {
      installed: Boolean(inst?.installed),
      version: inst?.version ?? state.version,
      granted_scopes: inst?.installed ? (grant?.scopes ?? []) : [],
      tenant_id: user.tenant_id,
    });
  }

  // POST /v1/agents/verify
  if (request.method === 'POST' && instance === '/v1/agents/verify') {
    if (!isText(body.token)) return problem('invalid-request', 'token is missing: send the app token carrying act.');
    let claims: { sub?: string; act?: { sub?: string } };
    try {
      claims = await ctx.verifyToken(body.token);
    } catch {
      return problem('invalid-request', 'token does not verify for this mini app: send a fresh token.');
    }
    if (!claims.act?.sub) return problem('invalid-request', 'token has no act claim: no agent is acting.');
    const user = state.users.find((u) => u.app_user_id === claims.sub);
    const tenant = state.tenants.find((t) => t.id === user?.tenant_id);
    if (!user || !tenant) return problem('not-found', 'the token subject is unknown.');
    return json(200, {
      subject: { app_user_id: user.app_user_id },
      actor: { agent_id: claims.act.sub, kind: 'svc_agent' },
      tenant_policy: { max_approval_minor: tenant.max_approval_minor, currency_code: tenant.currency_code },
    });
  }
  return problem('not-found', `no server API endpoint ${request.method} ${instance}.`);
}
