import { redactPath } from '../redactPath';
import { redactSecrets } from '../redactSecrets';
import type * as z from 'zod';
import { createTokenBucket, SERVER_API_RATE } from '../../server/createRateLimiter';
import { createProblem, type ProblemName } from '../../server/problems';
import { verifySignature } from '../../server/verifySignature';
import { isSvcSignatureError } from '../../server/SvcSignatureError';
import { SERVER_API_ENDPOINTS } from '../../server/serverApiEndpoints';
import { SERVER_API_SCHEMAS } from '../../server/serverApiSchemas';
import type { DevNotification, DevState } from '../devContract';
import { matchPath } from './matchPath';
import { deepLinkProblem } from '../../manifest/deepLinkProblem';
import { LIMITS } from '../limits';
import { parseJsonObject } from './parseJsonObject';
import { findMalformedValue } from '../../manifest/findMalformedValue';
import { jsonQuote as q } from '../../manifest/jsonQuote';

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
  /** The routes the served manifest declares, which a deep link must match; none without a manifest. */
  routes?(): readonly { path: string }[] | undefined;
  /** The scopes the served manifest declares; undefined without a manifest. */
  declared?(): ReadonlySet<string> | undefined;
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

/** Decodes a path's segments, or undefined when one has malformed percent-encoding. */
function decodeSegments(path: string): string[] | undefined {
  try {
    return path.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

/** Builds a problem answer about this request. */
type ProblemOf = (name: ProblemName, detail: string, headers?: Record<string, string>) => ApiAnswer;

/** Endpoint answers by operationId, given the parameters decoded from the path. */
type Answers = Record<string, (params: Record<string, string>) => Promise<ApiAnswer>>;

/** The rules every request passes first: its signature, the vendor's rate limit, a version not revoked. */
async function admit(request: ApiRequest, ctx: ServerApiContext, problem: ProblemOf): Promise<ApiAnswer | undefined> {
  try {
    await verifySignature(
      { body: request.body, headers: request.headers },
      {
        secrets: ctx.secrets(),
        miniAppId: ctx.state.mini_app_id,
      },
    );
  } catch (error) {
    // Said to the one who signs (not to a verifier): one piece of advice, the rule that failed.
    const detail =
      isSvcSignatureError(error) && error.reason === 'bad-signature'
        ? 'The signature matches neither the current signing secret nor, during a rotation, the previous one: sign v0:<timestamp>:<the exact body bytes sent> with the current secret: the lowercase hex HMAC-SHA256, keyed with its UTF-8 bytes, written v0=<64 hex digits>.'
        : (error as Error).message;
    return problem('invalid-signature', detail);
  }
  const wait = ctx.take();
  if (wait > 0)
    return problem(
      'rate-limited',
      `More than 600 requests a minute (burst 60) for this vendor: retry after ${wait} s (Retry-After).`,
      { 'retry-after': String(wait) },
    );
  if (ctx.state.version_revoked)
    return problem(
      'version-revoked',
      // Not named: the version served may have been edited since (folder mode), and the revocation stays.
      'The version of this mini app that was running was revoked, and stays so until a higher version is published to the store: stop serving it and ship a new version.',
    );
}

/**
 * Why a POST's Content-Type is refused, or undefined when it is JSON in UTF-8: `application/json`, with
 * `charset=utf-8` (any case, quoted or not) or no charset. The value is quoted with JSON escapes, so a stray space or
 * a byte that is not ASCII shows.
 */
function contentTypeFault(type: string): string | undefined {
  const [media = '', ...params] = type.split(';');
  if (media.trim().toLowerCase() !== 'application/json')
    return `The Content-Type header is ${type ? q(type.slice(0, 100)) : 'missing'}: send the JSON body with Content-Type: application/json.`;
  for (const param of params) {
    const [name = '', value = ''] = param.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    const charset = value.trim().replace(/^"(.*)"$/, '$1');
    // The body is read as UTF-8 whatever the header says: one that names another charset says it is not.
    if (charset.toLowerCase() !== 'utf-8')
      return `The Content-Type header is ${q(type.slice(0, 100))}, which names the charset ${q(charset.slice(0, 40))}: send the JSON body encoded as UTF-8, with charset=utf-8 or no charset.`;
  }
  return undefined;
}

/** A POST's body as a JSON object (`{}` for other methods), or the problem that says what is wrong with it. */
function readBody(request: ApiRequest, problem: ProblemOf): { body: Record<string, unknown> } | { refused: ApiAnswer } {
  if (request.method !== 'POST') return { body: {} };
  // The platform's rule for every signed request with a body; a backend that leaves it out would fail there only.
  const typeFault = contentTypeFault(String(request.headers['content-type'] ?? ''));
  if (typeFault) return { refused: problem('invalid-request', typeFault) };
  const read = parseJsonObject(request.body);
  if ('fault' in read)
    return {
      refused: problem(
        'invalid-request',
        read.fault === 'refused'
          ? read.message
          : read.fault === 'utf8'
            ? 'The body is not valid UTF-8: send JSON encoded as UTF-8.'
            : 'The body is not a JSON object: send a JSON object such as {"mini_app_id": …}.',
      ),
    };
  // What JSON.parse lets through but is not text (a lone `\ud800` escape) or not a number (1e400): refused as sent,
  // here, instead of stored and served to people whose clients cannot encode it.
  const malformed = findMalformedValue(read.value);
  if (malformed)
    return {
      refused: problem('invalid-request', `${fieldPath(malformed.path)} ${malformed.problem}: ${malformed.fix}`),
    };
  return { body: read.value };
}

/** What the endpoints share: the state, the body checked against a schema, and the refusals they have in common. */
function answerHelpers(ctx: ServerApiContext, body: Record<string, unknown>, problem: ProblemOf) {
  const { state } = ctx;
  const userByAppId = (id: string) => state.users.find((u) => u.app_user_id === id && !u.deprovisioned);
  const appUsers = () =>
    state.users
      .filter((u) => !u.deprovisioned)
      .map((u) => q(u.app_user_id))
      .join(', ');
  // The body checked against the contract's schema: the first issue names its field and bound.
  const parse = <T>(schema: z.ZodType<T>): { data: T } | { refused: ApiAnswer } => {
    const result = schema.safeParse(body);
    if (result.success) return { data: result.data };
    const issue = result.error.issues[0]!;
    return { refused: problem('invalid-request', `${fieldPath(issue.path)} ${issue.message}`) };
  };
  const checkApp = (id: string): ApiAnswer | undefined =>
    id === state.mini_app_id
      ? undefined
      : problem(
          'not-found',
          `mini_app_id ${q(id)} is not the mini app this platform runs: send ${q(state.mini_app_id)} (SVC_MINI_APP_ID).`,
        );
  const unknownUser = (id: string) =>
    problem(
      'not-found',
      `app_user_id ${q(id)} is unknown or left the tenant: use the sub of the person's token (known now: ${appUsers()}).`,
    );

  // A deep link a person could not open (a URL, or a route the manifest does not declare) is refused when posted,
  // not when someone presses it; so is one no URL library would write, whatever the manifest declares.
  const checkLink = (field: string, link: string): ApiAnswer | undefined => {
    const bad = deepLinkProblem(link, ctx.routes?.());
    return bad ? problem('invalid-request', `${field} ${bad}`) : undefined;
  };

  return { ctx, state, problem, userByAppId, parse, checkApp, unknownUser, checkLink };
}

/** The helpers of one request. */
type Helpers = ReturnType<typeof answerHelpers>;

/** The endpoints that post into the messenger: a card into a room, a notification to a person. */
function postingAnswers(helpers: Helpers): Answers {
  const { ctx, state, problem, userByAppId, parse, checkApp, unknownUser, checkLink } = helpers;
  return {
    postCard: async ({ room_id = '' }) => {
      const parsed = parse(SERVER_API_SCHEMAS.PostCardRequest);
      if ('refused' in parsed) return parsed.refused;
      const { mini_app_id, app_user_id, card } = parsed.data;
      const bad = checkApp(mini_app_id);
      if (bad) return bad;
      const room = state.rooms.find((r) => r.id === room_id);
      const user = userByAppId(app_user_id);
      if (!room) {
        // The rooms named are the person's: another tenant's would be refused too, and are not theirs to learn.
        const theirs = user ? state.rooms.filter((r) => r.members.includes(user.id)).map((r) => q(r.id)) : [];
        return problem(
          'not-found',
          `room ${q(room_id)} is unknown: post into a room the person is in, as svc.room.current() names it${theirs.length ? ` (${q(app_user_id)} is in ${theirs.join(', ')})` : ''}.`,
        );
      }
      if (!user) return unknownUser(app_user_id);
      // The card is for a person in the room: never posted into a room of theirs they are not in, or another tenant's.
      if (!room.members.includes(user.id))
        return problem(
          'not-found',
          `room ${q(room_id)} is not one ${q(app_user_id)} is in: post into a room the person is in, as svc.room.current() names it.`,
        );
      for (const [i, action] of (card.actions ?? []).entries()) {
        const bad = checkLink(`card.actions[${i}].deep_link`, action.deep_link);
        if (bad) return bad;
      }
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
        app_user_id,
        card: {
          title: card.title,
          body: card.body,
          actions: (card.actions ?? []).map((a) => ({ label: a.label, deep_link: a.deep_link })),
        },
        at: new Date().toISOString(),
      });
      await ctx.changed();
      return json(201, { event_id });
    },
    notify: async ({ app_user_id = '' }) => {
      const parsed = parse(SERVER_API_SCHEMAS.NotificationRequest);
      if ('refused' in parsed) return parsed.refused;
      const { mini_app_id, title, body: text, deep_link } = parsed.data;
      const bad = checkApp(mini_app_id);
      if (bad) return bad;
      const user = userByAppId(app_user_id);
      if (!user) return unknownUser(app_user_id);
      const badLink = checkLink('deep_link', deep_link);
      if (badLink) return badLink;
      const grant = state.grants.find((g) => g.user_id === user.id && g.mini_app_id === state.mini_app_id);
      if (!grant?.scopes.includes(ctx.notificationsScope))
        return problem(
          'scope-not-granted',
          // Not declared, no person can grant it: asking inside the app would be refused (recheck46 F3).
          ctx.declared?.()?.has(ctx.notificationsScope) === false
            ? `The manifest served does not declare ${ctx.notificationsScope}, so no person can grant it: declare it in the manifest's permissions (a new version), then the person grants it in the app.`
            : 'The person has not granted notifications: ask for it inside the mini app.',
        );
      const notification: DevNotification = {
        id: crypto.randomUUID(),
        user_id: user.id,
        mini_app_id: state.mini_app_id,
        title,
        body: text,
        deep_link,
        at: new Date().toISOString(),
        read: false,
      };
      state.notifications.push(notification);
      await ctx.changed();
      return json(201, { notification_id: notification.id });
    },
  };
}

/** The endpoints that read: an installation, and who an agent acts for. */
function readingAnswers({ ctx, state, problem, userByAppId, parse, unknownUser }: Helpers): Answers {
  return {
    getInstallation: async ({ mini_app_id = '', app_user_id = '' }) => {
      if (mini_app_id !== state.mini_app_id)
        return problem(
          'not-found',
          `mini app ${q(mini_app_id)} is not the one this platform runs: ask for ${q(state.mini_app_id)}.`,
        );
      const user = userByAppId(app_user_id);
      if (!user) return unknownUser(app_user_id);
      const inst = state.installations.find((i) => i.user_id === user.id && i.mini_app_id === state.mini_app_id);
      const grant = state.grants.find((g) => g.user_id === user.id && g.mini_app_id === state.mini_app_id);
      return json(200, {
        installed: Boolean(inst?.installed),
        version: inst?.version ?? state.version,
        granted_scopes: inst?.installed ? (grant?.scopes ?? []) : [],
        tenant_id: user.tenant_id,
      });
    },
    verifyAgent: async () => {
      const parsed = parse(SERVER_API_SCHEMAS.AgentVerifyRequest);
      if ('refused' in parsed) return parsed.refused;
      let claims: { sub?: string; act?: { sub?: string } };
      try {
        claims = await ctx.verifyToken(parsed.data.token);
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
  };
}

/**
 * The server API emulator (`/v1`): every endpoint and rule of the platform's server API, as a pure request → answer function
 * over the platform state.
 * @internal
 */
export async function handleServerApi(request: ApiRequest, ctx: ServerApiContext): Promise<ApiAnswer> {
  const instance = request.path.split('?')[0] ?? request.path;
  const problem = (name: ProblemName, detail: string, headers: Record<string, string> = {}) => {
    // A path or a body holding a token (an id variable that held one) is answered without it: problems are logged.
    const p = createProblem(
      ctx.errorsUrl,
      name,
      redactSecrets(detail, ctx.secrets()),
      redactPath(instance, ctx.secrets()),
    );
    return json(p.status, p, { 'content-type': 'application/problem+json', ...headers });
  };
  const refused = await admit(request, ctx, problem);
  if (refused) return refused;
  // A doubled or trailing slash is refused, not read past: a backend joining `{base_url}/` and `/rooms` would pass
  // here and could fail against the platform, which documents each path with none.
  if (instance.split('/').slice(1).includes(''))
    return problem(
      'not-found',
      `The path ${instance} has an empty segment (a doubled or trailing slash): join the base URL, which ends in /v1, and the endpoint's path with one slash, as in /v1/rooms/{room_id}/cards, and check that no id in it is empty.`,
    );
  const segments = decodeSegments(instance);
  if (!segments)
    return problem(
      'invalid-request',
      `The path ${instance} has malformed percent-encoding: encode each segment with encodeURIComponent.`,
    );
  // The contract's endpoints at this path, each with its parameters decoded from it.
  const atPath = SERVER_API_ENDPOINTS.flatMap((endpoint) => {
    const params = matchPath(pattern(endpoint.path), segments);
    return params ? [{ endpoint, params }] : [];
  });
  // HEAD is answered wherever GET is, as RFC 9110 asks (the answer's body is left out where it is sent).
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const hit = atPath.find(({ endpoint }) => endpoint.method === method);
  if (hit) {
    // An id in the path has the bound an id in a body has (the contract's maxLength, in code points).
    for (const [name, value] of Object.entries(hit.params))
      if ([...value].length > LIMITS.id)
        return problem('invalid-request', `${name} has ${[...value].length} characters: send at most ${LIMITS.id}.`);
    // The body is read once the path and method name an endpoint: a POST to a GET's path is told its method (405),
    // not that its body is no JSON object.
    const read = readBody(request, problem);
    if ('refused' in read) return read.refused;
    // Each endpoint's answer, by its operationId in the contract.
    const helpers = answerHelpers(ctx, read.body, problem);
    const answers = { ...postingAnswers(helpers), ...readingAnswers(helpers) };
    return answers[hit.endpoint.operationId]!(hit.params);
  }
  // The package ships no docs: the answer itself says what exists.
  if (atPath.length)
    return problem(
      'method-not-allowed',
      `${instance} does not take ${request.method}: send ${atPath.map(({ endpoint: e }) => `${e.method} /v1${e.path}`).join(' or ')}.`,
      { allow: atPath.flatMap(({ endpoint: e }) => (e.method === 'GET' ? ['GET', 'HEAD'] : [e.method])).join(', ') },
    );
  return problem(
    'not-found',
    `There is no server API endpoint ${request.method} ${instance}: the endpoints are ${SERVER_API_ENDPOINTS.map((e) => `${e.method} /v1${e.path}`).join(', ')}.`,
  );
}

/** A contract path (`/rooms/{room_id}/cards`) as a pattern of matchPath's (`/v1/rooms/:room_id/cards`). */
const pattern = (path: string) => `/v1${path.replace(/\{(\w+)\}/g, ':$1')}`;

/**
 * A zod issue's path as a field name: `card.actions[2].label`; a name that is not a plain word is quoted with JSON
 * escapes (`card["\ud800"]`), so whatever it holds shows.
 */
function fieldPath(path: readonly PropertyKey[]): string {
  const part = (key: PropertyKey, i: number) =>
    typeof key === 'number'
      ? `[${key}]`
      : /^[A-Za-z_$][\w$]*$/.test(String(key))
        ? `${i ? '.' : ''}${String(key)}`
        : `[${q(String(key))}]`;
  return path.map(part).join('') || 'The body';
}
