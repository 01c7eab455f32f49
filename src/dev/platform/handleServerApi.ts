import { createTokenBucket, SERVER_API_RATE } from '../../server/createRateLimiter';
import { createProblem, type ProblemName } from '../../server/problems';
import { verifySignature } from '../../server/verifySignature';
import type { DevCard, DevNotification, DevState } from '../devContract';
import { matchPath } from './matchPath';
import { LIMITS } from './limits';
import { decodeUtf8 } from './readRequestBody';

/** A server API request as received (raw body: the signature covers the exact bytes). @internal */
export interface ApiRequest {
  method: string;
  /** Path starting with `/v1` (still percent-encoded). */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The exact bytes received. */
  body: Uint8Array;
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
  /**
   * Consumes one request from the vendor's bucket: 0 when admitted, else the whole seconds to wait (over 600/min
   * burst 60).
   */
  take(): number;
  /** Verifies a token of this realm for the manifest's audience (agents/verify). */
  verifyToken(token: string): Promise<{ sub?: string; act?: { sub?: string } }>;
  /** The manifest scope whose grant allows notifications. */
  notificationsScope: string;
  /** Called after a change, so the platform saves and streams it; resolves once the change is durable. */
  changed(): void | Promise<void>;
}

/**
 * A token bucket that refuses (rather than waits) past the platform's 600 requests/minute, burst 60: one per
 * vendor, held for the platform's life. Returns 0 when a request is admitted, else the whole seconds until one
 * token is back (the `Retry-After`).
 * @internal
 */
export function createRequestBucket(
  now: () => number = Date.now,
  rate: { perMinute: number; burst: number } = SERVER_API_RATE,
): () => number {
  const bucket = createTokenBucket(rate, now);
  return () => {
    const wait = bucket();
    return wait > 0 ? Math.max(1, Math.ceil(wait / 1000)) : 0;
  };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): ApiAnswer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body,
});

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** Decodes a path's segments, or undefined when one has malformed percent-encoding. */
function decodeSegments(path: string): string[] | undefined {
  try {
    return path.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

/**
 * The server API emulator (`/v1`): every endpoint and rule of the platform's server API, as a pure request → answer function
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
  const wait = ctx.take();
  if (wait > 0)
    return problem(
      'rate-limited',
      `More than 600 requests a minute (burst 60) for this mini app: wait ${wait} s (Retry-After) and retry, or pace calls with createServerClient's rate limiter.`,
      { 'retry-after': String(wait) },
    );
  if (ctx.state.version_revoked)
    return problem(
      'version-revoked',
      `Version ${ctx.state.version} was revoked: stop serving it and ship a new version.`,
    );

  let body: Record<string, unknown> = {};
  if (request.method === 'POST') {
    const text = decodeUtf8(request.body);
    if (text === undefined)
      return problem('invalid-request', 'The body is not valid UTF-8: send JSON encoded as UTF-8.');
    try {
      const parsed: unknown = JSON.parse(text);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error();
      body = parsed as Record<string, unknown>;
    } catch {
      return problem(
        'invalid-request',
        'The body is not a JSON object: send a JSON object such as {"mini_app_id": …}.',
      );
    }
  }
  const segments = decodeSegments(instance);
  if (!segments)
    return problem(
      'invalid-request',
      `The path ${instance} has malformed percent-encoding: encode each segment with encodeURIComponent.`,
    );
  const { state } = ctx;
  const userByAppId = (id: string) => state.users.find((u) => u.app_user_id === id && !u.deprovisioned);
  const appUsers = () =>
    state.users
      .filter((u) => !u.deprovisioned)
      .map((u) => u.app_user_id)
      .join(', ');
  // A field that is missing, not a string, or too long: the sentence names it and its bound.
  const text = (value: unknown, field: string, max: number, what: string): ApiAnswer | undefined => {
    if (!isText(value)) return problem('invalid-request', `${field} is missing: send ${what} as a non-empty string.`);
    if (value.length > max)
      return problem('invalid-request', `${field} has ${value.length} characters: send at most ${max}.`);
    return undefined;
  };
  const checkApp = (): ApiAnswer | undefined => {
    const bad = text(body.mini_app_id, 'mini_app_id', LIMITS.id, 'your mini app id');
    if (bad) return bad;
    if (body.mini_app_id !== state.mini_app_id)
      return problem(
        'not-found',
        `mini_app_id ${body.mini_app_id} is not the mini app this platform runs: send ${state.mini_app_id} (SVC_MINI_APP_ID).`,
      );
    return undefined;
  };
  const unknownUser = (id: string) =>
    problem(
      'not-found',
      `app_user_id ${id} is unknown or left the tenant: use the sub of the person's token (known now: ${appUsers()}).`,
    );

  // The endpoints, each with its parameters decoded from the path.
  const endpoints: { method: string; path: string; answer(params: Record<string, string>): Promise<ApiAnswer> }[] = [
    {
      method: 'POST',
      path: '/v1/rooms/:room_id/cards',
      answer: async ({ room_id = '' }) => {
        const bad = checkApp() ?? text(body.app_user_id, 'app_user_id', LIMITS.id, "the sub of the person's token");
        if (bad) return bad;
        const card = body.card as DevCard | undefined;
        if (!card || typeof card !== 'object' || Array.isArray(card))
          return problem('invalid-request', 'card is missing: send {title, body, actions?}.');
        const badCard =
          text(card.title, 'card.title', LIMITS.cardTitle, 'the card title') ??
          (typeof card.body !== 'string'
            ? problem('invalid-request', 'card.body is missing: send the card text as a string.')
            : card.body.length > LIMITS.cardBody
              ? problem(
                  'invalid-request',
                  `card.body has ${card.body.length} characters: send at most ${LIMITS.cardBody}.`,
                )
              : undefined);
        if (badCard) return badCard;
        const actions = card.actions ?? [];
        if (!Array.isArray(actions) || !actions.every((a) => a && isText(a.label) && isText(a.deep_link)))
          return problem(
            'invalid-request',
            'card.actions must be an array of {label, deep_link} strings: fix or omit it.',
          );
        if (actions.length > LIMITS.cardActions)
          return problem(
            'invalid-request',
            `card.actions has ${actions.length} actions: send at most ${LIMITS.cardActions}.`,
          );
        for (const [i, a] of actions.entries()) {
          const badAction =
            text(a.label, `card.actions[${i}].label`, LIMITS.actionLabel, 'a button label') ??
            text(a.deep_link, `card.actions[${i}].deep_link`, LIMITS.deepLink, 'a route inside the app');
          if (badAction) return badAction;
        }
        const room = state.rooms.find((r) => r.id === room_id);
        if (!room)
          return problem(
            'not-found',
            `room ${room_id.slice(0, LIMITS.id)} is unknown: post into a room the app was opened in (rooms: ${state.rooms.map((r) => r.id).join(', ')}).`,
          );
        if (!userByAppId(body.app_user_id as string)) return unknownUser(body.app_user_id as string);
        if (room.is_encrypted)
          return problem(
            'room-encrypted',
            'The room is end-to-end encrypted: ask the person to share with svc.message.send().',
          );
        const event_id = `$${crypto.randomUUID()}`;
        room.timeline.push({
          kind: 'card',
          event_id,
          mini_app_id: state.mini_app_id,
          app_user_id: body.app_user_id as string,
          card: {
            title: card.title,
            body: card.body,
            actions: actions.map((a) => ({ label: a.label, deep_link: a.deep_link })),
          },
          at: new Date().toISOString(),
        });
        await ctx.changed();
        return json(201, { event_id });
      },
    },
    {
      method: 'POST',
      path: '/v1/users/:app_user_id/notifications',
      answer: async ({ app_user_id = '' }) => {
        const bad =
          checkApp() ??
          text(body.title, 'title', LIMITS.notificationTitle, 'the notification title') ??
          text(body.body, 'body', LIMITS.notificationBody, 'the notification text') ??
          text(body.deep_link, 'deep_link', LIMITS.deepLink, 'a route inside the app');
        if (bad) return bad;
        const user = userByAppId(app_user_id);
        if (!user) return unknownUser(app_user_id.slice(0, LIMITS.id));
        const grant = state.grants.find((g) => g.user_id === user.id && g.mini_app_id === state.mini_app_id);
        if (!grant?.scopes.includes(ctx.notificationsScope))
          return problem(
            'scope-not-granted',
            'The person has not granted notifications: ask for it inside the mini app.',
          );
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
        await ctx.changed();
        return json(201, { notification_id: notification.id });
      },
    },
    {
      method: 'GET',
      path: '/v1/apps/:mini_app_id/installations/:app_user_id',
      answer: async ({ mini_app_id = '', app_user_id = '' }) => {
        if (mini_app_id !== state.mini_app_id)
          return problem(
            'not-found',
            `mini app ${mini_app_id.slice(0, LIMITS.id)} is not the one this platform runs: ask for ${state.mini_app_id}.`,
          );
        const user = userByAppId(app_user_id);
        if (!user) return unknownUser(app_user_id.slice(0, LIMITS.id));
        const inst = state.installations.find((i) => i.user_id === user.id && i.mini_app_id === state.mini_app_id);
        const grant = state.grants.find((g) => g.user_id === user.id && g.mini_app_id === state.mini_app_id);
        return json(200, {
          installed: Boolean(inst?.installed),
          version: inst?.version ?? state.version,
          granted_scopes: inst?.installed ? (grant?.scopes ?? []) : [],
          tenant_id: user.tenant_id,
        });
      },
    },
    {
      method: 'POST',
      path: '/v1/agents/verify',
      answer: async () => {
        if (!isText(body.token))
          return problem('invalid-request', 'token is missing: send the app token that carries the act claim.');
        let claims: { sub?: string; act?: { sub?: string } };
        try {
          claims = await ctx.verifyToken(body.token);
        } catch {
          return problem(
            'invalid-request',
            "The token does not verify for this mini app (signature, issuer, audience or expiry): send the person's current app token.",
          );
        }
        if (!claims.act?.sub)
          return problem(
            'invalid-request',
            'The token has no act claim, so no agent is acting: call /agents/verify only with tokens an agent obtained.',
          );
        const user = state.users.find((u) => u.app_user_id === claims.sub);
        const tenant = state.tenants.find((t) => t.id === user?.tenant_id);
        if (!user || !tenant)
          return problem('not-found', "The token's subject is no longer known: stop acting for this person.");
        return json(200, {
          subject: { app_user_id: user.app_user_id },
          actor: { agent_id: claims.act.sub, kind: 'svc_agent' },
          tenant_policy: { max_approval_minor: tenant.max_approval_minor, currency_code: tenant.currency_code },
        });
      },
    },
  ];
  for (const endpoint of endpoints) {
    if (endpoint.method !== request.method) continue;
    const params = matchPath(endpoint.path, segments);
    if (params) return endpoint.answer(params);
  }
  return problem(
    'not-found',
    `There is no server API endpoint ${request.method} ${instance}: see the endpoints in docs/server.md.`,
  );
}
