import type { ProblemName } from './problems';
import { SERVER_API_LIMITS } from './serverApiLimits';
import type { SERVER_API_SCHEMAS } from './serverApiSchemas';

/** A schema's name in {@link SERVER_API_SCHEMAS}. */
type SchemaName = keyof typeof SERVER_API_SCHEMAS;

/** One endpoint of the server API. @internal */
export interface ServerApiEndpoint {
  method: 'GET' | 'POST';
  /** Relative to `{base_url}` (which ends in `/v1`), with `{name}` path parameters. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** Each path parameter and what it is. */
  params: Record<string, string>;
  request?: SchemaName;
  success: { status: 200 | 201; schema: SchemaName; description: string };
  /** The problems this endpoint answers besides the ones every endpoint answers, with when. */
  problems: Partial<Record<ProblemName, string>>;
  /** An example request body (when it takes one) and answer. */
  example: { request?: unknown; response: unknown };
}

// The 400 of an endpoint that takes a body: what its schema refuses, beside what every endpoint refuses.
const MALFORMED_BODY =
  'Malformed: a field missing, of the wrong type or too long (`detail` names it and its bound), a body that is not a JSON object, or a path with malformed percent-encoding.';

/**
 * The problems of an endpoint that posts into the tenant: a malformed body, the endpoint's own `problems`, then the
 * tenant's policy.
 */
const postProblems = (problems: Partial<Record<ProblemName, string>>): Partial<Record<ProblemName, string>> => ({
  'invalid-request': MALFORMED_BODY,
  ...problems,
  'tenant-policy': "The tenant's policy forbids it.",
});

/** The problems every endpoint answers, with when. @internal */
export const COMMON_PROBLEMS: Partial<Record<ProblemName, string>> = {
  'invalid-request':
    'Malformed: a path segment with malformed percent-encoding, a POST whose Content-Type is not application/json or names a charset other than utf-8, a body that is not a JSON object encoded as UTF-8, a string in it that is not well-formed Unicode (a lone surrogate, `detail` names the field), or an object in it that names a property twice.',
  'invalid-signature':
    'The signature is missing, does not match, or its timestamp differs from now by more than 300 s; or the X-Svc-Mini-App header is missing or names another mini app than the one the secret is for.',
  'rate-limited': 'More than 600 requests a minute (burst 60) for this vendor; `Retry-After` says when to retry.',
  'version-revoked':
    'The service revoked this version of the mini app (webhook `app.revoked`): every call is refused then, the reads too.',
  'not-found': 'Unknown room, user or mini app, or no endpoint at this path.',
  'method-not-allowed': 'The path exists with another method; `Allow` names it.',
  'payload-too-large': `The body is larger than ${SERVER_API_LIMITS.serverApiBody} bytes (${SERVER_API_LIMITS.serverApiBody / 1024 / 1024} MiB), the cap on every request body; \`detail\` gives both numbers. The cap leaves room for every field at its bound, however its characters are encoded, so only a body with fields over their bounds or far more whitespace than JSON needs meets it.`,
  'internal-error':
    'The platform failed on this request. `detail` says whether what it asked for is done: a POST it says is done must not be sent again, as it would be done twice.',
  unavailable: 'Retriable: back off and retry.',
};

/** The mini app id of the contract's examples: 16 hex characters, the form of an id its key derives. @internal */
export const EXAMPLE_MINI_APP_ID = '3f1c0a9b7d2e4c68';

/**
 * The four endpoints of the server API, in the platform's order: the local platform answers them, and the published
 * contract is generated from this table and {@link SERVER_API_SCHEMAS}.
 * @internal
 */
export const SERVER_API_ENDPOINTS: readonly ServerApiEndpoint[] = [
  {
    method: 'POST',
    path: '/rooms/{room_id}/cards',
    operationId: 'postCard',
    summary: 'Post a card into a room',
    description:
      "Posts a card into a room, for a person who is a member of it: the room the app runs in (`svc.room.current()`), which the app sends its backend. A room the person is not in, or an unknown one, answers 404 `not-found`; whether the person installed the app or opened it in that room is not checked. An end-to-end encrypted room answers 409 `room-encrypted`: the service holds no room keys, and no server-side path, scope or tier changes that; share from the person's client with `svc.message.send()` instead.",
    params: { room_id: 'The room.' },
    request: 'PostCardRequest',
    success: { status: 201, schema: 'PostCardResponse', description: 'Posted.' },
    problems: postProblems({ 'room-encrypted': 'The room is end-to-end encrypted.' }),
    example: {
      request: {
        mini_app_id: EXAMPLE_MINI_APP_ID,
        app_user_id: 'au-alice',
        card: {
          title: 'Lunch?',
          body: 'Pizza or sushi: vote by noon.',
          actions: [{ label: 'Vote', deep_link: '/poll?id=42' }],
        },
      },
      response: { event_id: '$9f1c2a7e-6d1b-4c1e-9a51-3f0e8b2d4c11' },
    },
  },
  {
    method: 'POST',
    path: '/users/{app_user_id}/notifications',
    operationId: 'notify',
    summary: 'Notify a person',
    description:
      'Sends a notification to one person. It needs the `notifications` scope granted by that person, which cannot be granted from the server: without it the answer is 403 `scope-not-granted` (never silence). Read the installation first to check it will land.',
    params: { app_user_id: "The person's app user id." },
    request: 'NotificationRequest',
    success: { status: 201, schema: 'NotificationResponse', description: 'Accepted.' },
    problems: postProblems({ 'scope-not-granted': 'The person has not granted the `notifications` scope.' }),
    example: {
      request: { mini_app_id: EXAMPLE_MINI_APP_ID, title: 'Poll closed', body: 'Pizza won.', deep_link: '/poll?id=42' },
      response: { notification_id: '0d7f3a52-3c1e-4f7b-8f0a-7a2b9c1d5e60' },
    },
  },
  {
    method: 'GET',
    path: '/apps/{mini_app_id}/installations/{app_user_id}',
    operationId: 'getInstallation',
    summary: 'Read the installation state for a person',
    description: 'Whether the person has the mini app installed, which version, and the scopes they granted.',
    params: { mini_app_id: 'The mini app.', app_user_id: "The person's app user id." },
    success: { status: 200, schema: 'Installation', description: 'The installation state.' },
    problems: {
      'invalid-request': `Malformed: a path segment with malformed percent-encoding, or an id of more than ${SERVER_API_LIMITS.id} characters.`,
    },
    example: {
      response: {
        installed: true,
        version: '1.2.0',
        granted_scopes: ['svc.identity.basic', 'svc.notifications'],
        tenant_id: 'acme',
      },
    },
  },
  {
    method: 'POST',
    path: '/agents/verify',
    operationId: 'verifyAgent',
    summary: "Verify an agent's token",
    description:
      "Verifies an app token an AI agent obtained (one with an `act` claim) and answers who acts for whom and the tenant's policy, so a backend can apply a lower limit to agent-initiated actions.",
    params: {},
    request: 'AgentVerifyRequest',
    success: { status: 200, schema: 'AgentDelegation', description: 'The delegation.' },
    problems: {
      'invalid-request': 'No token, a token that does not verify for this mini app, or one without an `act` claim.',
    },
    example: {
      request: { token: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhdS1hbGljZSIsImFjdCI6eyJzdWIiOiJhZ2VudC0xIn19.c2lnbmF0dXJl' },
      response: {
        subject: { app_user_id: 'au-alice' },
        actor: { agent_id: 'agent-1', kind: 'svc_agent' },
        tenant_policy: { max_approval_minor: 50000, currency_code: 'EUR' },
      },
    },
  },
];
