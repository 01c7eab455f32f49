import * as z from 'zod';
import { SERVER_API_RATE } from './createRateLimiter';
import { WEBHOOK_EVENTS, type WebhookEventName } from './events';
import { PROBLEMS, type ProblemName } from './problems';
import {
  COMMON_PROBLEMS,
  EXAMPLE_MINI_APP_ID,
  SERVER_API_ENDPOINTS,
  type ServerApiEndpoint,
} from './serverApiEndpoints';
import { SERVER_API_LIMITS } from './serverApiLimits';
import { SERVER_API_SCHEMAS } from './serverApiSchemas';
import { SIGNATURE_HEADERS } from './signRequest';
import { REPLAY_WINDOW_SECONDS } from './verifySignature';
import { WEBHOOK_SCHEMAS } from './webhookSchemas';

type Json = Record<string, unknown>;

/** The component name of each event's payload: the name `svc-sdk/server` exports its type under. */
const EVENT_SCHEMA_NAMES: Record<WebhookEventName, string> = {
  'installation.created': 'InstallationCreatedEvent',
  'installation.deleted': 'InstallationDeletedEvent',
  'scope.granted': 'ScopeGrantedEvent',
  'scope.revoked': 'ScopeRevokedEvent',
  'user.deprovisioned': 'UserDeprovisionedEvent',
  'app.revoked': 'AppRevokedEvent',
};

const ERRORS_URL = 'https://errors.svc.example';

const SIGNING = `Every server API request and every webhook is signed with HMAC-SHA256 and the signing secret.

1. Take the timestamp: whole seconds since the Unix epoch, as 1 to 15 decimal digits (\`1767000000\`).
2. Build the signing base: the bytes of the text \`v0:\`, the timestamp, \`:\`, then the raw body, exactly the bytes sent or received, before any JSON parsing or re-serialising. A request without a body (GET) signs the empty body: \`v0:1767000000:\`.
3. The signature is the text \`v0=\` followed by the lowercase hexadecimal HMAC-SHA256 of the signing base, keyed with the signing secret's UTF-8 bytes (64 hex digits).
4. Send \`${SIGNATURE_HEADERS.timestamp}\` (the timestamp), \`${SIGNATURE_HEADERS.signature}\` (exactly one signature, nothing else in the header), \`${SIGNATURE_HEADERS.miniApp}\` (the mini app's id: its manifest \`id\`) and \`Content-Type: application/json\`, which the platform's rules list for every request (a GET has no body to type: svc dev does not refuse one without it). \`${SIGNATURE_HEADERS.miniApp}\` is outside the signing base: a webhook receiver may route by it, then trusts the signed body's \`mini_app_id\`.

To verify, in this order (the first check that fails names the refusal; the vectors hold one request with two faults): refuse a request without either header (an empty one counts as none), a timestamp that is not 1 to 15 decimal digits 0-9 alone (no sign, fraction or space; \`^[0-9]{1,15}$\`), one that differs from now by more than ${REPLAY_WINDOW_SECONDS} seconds (either way), where the receiver serves one mini app (the platform does; a webhook receiver may) an \`X-Svc-Mini-App\` that is missing or empty (\`missing-header\`) or names another (\`wrong-mini-app\`), and a signature header that is not exactly \`v0=\` and 64 lowercase hex digits (a repeated header arrives joined by \`, \`: refuse it); then compute the signature over the bytes received (with the timestamp header's text exactly as received, leading zeros included, not the number written again), and compare in constant time. During a secret rotation's one-hour overlap the old and the new secret both verify: the header still carries one signature (made with the current secret), so a verifier holds both secrets and accepts a match with either. Test vectors: \`schema/signing-vectors.json\` (\`svc-sdk/signing-vectors.json\`).

What the signature does not cover: the method, the path and the query, and so the room or the person a path names. Within the ${REPLAY_WINDOW_SECONDS} s window a captured request verifies again, sent again or sent to another path of the same method (a notification signed for one person verifies for another). Keep the secret and the traffic private (HTTPS to and from the platform, no signed request in a log), and make webhook handlers idempotent.`;

// The token is the app's, sent to the vendor's own backend: no operation here takes it, but a backend written from
// this document alone must still find where its rules are.
const APP_TOKEN = `The token the mini app sends its own backend (\`Authorization: Bearer <token>\`, from \`svc.auth.getToken()\`) is not sent to this API. The backend verifies it against the realm's keys at \`{auth_url}/realms/{realm}/protocol/openid-connect/certs\` (a JWKS; on an unknown \`kid\`, fetched again at most every 30 s): the signature (RS256, PS256, ES256 or EdDSA, never \`none\` or an HMAC), \`iss\` exactly \`{auth_url}/realms/{realm}\`, \`aud\` exactly the app's declared audience (an array only as \`[audience]\`), \`exp\`, \`sub\`, \`iss\` and \`aud\` required, \`exp\` and \`nbf\` with 5 s of tolerance. \`sub\` is the person's \`app_user_id\`; \`scope\` the scopes the token exchange asked for that the manifest's \`auth.scopes\` declares, separated by spaces (split on spaces and drop empty strings: an empty claim is no scopes): what the token may be used for, not the person's permissions, which the installation's \`granted_scopes\` and the \`scope.*\` events give; \`act.sub\`, when present, the AI agent acting for them. The rules in order: svc-sdk's docs/backend.md, "Verifying the app's token". Test vectors: \`schema/token-vectors.json\` (\`svc-sdk/token-vectors.json\`).`;

const DELIVERY = `Delivery rules: the backend answers with a 2xx status within 5 seconds, or the delivery failed. The service posts to the registered URL only: a redirect (3xx) is not followed, and counts as a failed delivery. A failed delivery is retried with exponential backoff for 24 hours, then the service stops and raises an alert in the developer console. A retry sends the same body with a fresh timestamp and signature (svc-sdk's reading, marked \`x-svc-sdk-decision\`), so handlers must be idempotent (key on the SHA-256 of the body: events carry no id): a retry after a timeout on a request that was processed is normal. A retry can arrive while an earlier attempt is still running (an attempt that takes over 5 seconds has failed, and its retry follows): claim the key atomically before the work (insert it if absent, with a lease longer than the handler takes), answer a duplicate whose claim is held by another attempt with a 409 (the platform retries it later) and one already done with a 2xx without running it again, mark the key done when the work succeeds (keep it for at least 48 hours, longer than the 24 hours of retries), and release the claim when the work fails, so that the retry runs it. Acknowledge quickly and do slow work after answering. Ignore fields you do not know.`;

// What every request body is, beyond its schema: the encoding, and the byte cap answered 413.
const REQUEST_BODY = `A JSON object encoded as UTF-8 (\`Content-Type: application/json\`, with \`charset=utf-8\` or no charset; a body that is not UTF-8, or a header naming another charset, is 400), of at most ${SERVER_API_LIMITS.serverApiBody} bytes (${SERVER_API_LIMITS.serverApiBody / 1024 / 1024} MiB; a larger body is 413 \`payload-too-large\`). The cap leaves room for every field at its bound, however its characters are encoded (raw UTF-8, or \`\\u\` escapes as an encoder that writes ASCII does). Every string, and every property name, must be well-formed Unicode: a lone surrogate (a \`\\ud800\` escape not followed by its low half), which no UTF-8 can carry, is 400 naming the field; so is a number beyond a double's range (\`1e400\`). An object names each property once: a repeated name (also when one is written with \`\\u\` escapes) is 400 naming it, since JSON parsers differ on which value counts. Arrays and objects nest at most ${SERVER_API_LIMITS.bodyDepth} deep (the fields need 3): deeper is 400 naming where, whatever field holds it. \`detail\` quotes ids and header values as JSON strings with \`\\u\` escapes for every character beyond printable ASCII, so a trailing space or a look-alike character shows.`;

/** A JSON Schema of zod's, as an OpenAPI component: no `$schema` or `$id` of its own inside the document. */
function component(schema: Json): Json {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return open(rest);
}

/**
 * The schema with every object left open (`additionalProperties: false` taken out). The zod schemas of answers and
 * events are closed, so the project's conformance tests catch a field `svc dev` sends that the contract does not
 * state; a published closed object would tell a receiver in any language to refuse the fields a newer platform adds,
 * where the contract says to ignore them.
 */
function open(schema: unknown): Json {
  if (Array.isArray(schema)) return schema.map(open) as unknown as Json;
  if (!schema || typeof schema !== 'object') return schema as Json;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
      .map(([key, value]) => [key, open(value)]),
  );
}

/** The schemas of the contract by name, with references between them as `#/components/schemas/<name>`. */
function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(SERVER_API_SCHEMAS)) registry.add(schema, { id });
  for (const event of WEBHOOK_EVENTS) registry.add(WEBHOOK_SCHEMAS[event].schema, { id: EVENT_SCHEMA_NAMES[event] });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    // Input: request bodies keep unknown fields open (answers and events are opened by component()).
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
  });
  return {
    ...Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, component(schema as Json)])),
    RetryAfter: RETRY_AFTER_SCHEMA,
  };
}

/** What a `Retry-After` says, in both the forms RFC 9110 allows. */
const RETRY_AFTER =
  'When to retry: whole seconds to wait (what svc dev sends), or an HTTP date (RFC 9110 allows both; read both).';

/** `Retry-After`'s value: whole seconds, or an HTTP date in its preferred form (`Sun, 06 Nov 1994 08:49:37 GMT`). */
const RETRY_AFTER_SCHEMA: Json = {
  anyOf: [
    { type: 'integer', minimum: 1, description: 'Seconds to wait.' },
    {
      type: 'string',
      pattern:
        '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$',
      description: 'An HTTP date (IMF-fixdate): retry after it.',
    },
  ],
};

/** The problems an endpoint answers, grouped by status. */
function problemsByStatus(own: Partial<Record<ProblemName, string>>): Map<number, [ProblemName, string][]> {
  const byStatus = new Map<number, [ProblemName, string][]>();
  for (const [name, when] of Object.entries({ ...COMMON_PROBLEMS, ...own }) as [ProblemName, string][]) {
    const { status } = PROBLEMS[name];
    byStatus.set(status, [...(byStatus.get(status) ?? []), [name, when]]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** The path parameters of the examples. */
const EXAMPLE_PARAMS: Record<string, string> = {
  room_id: 'room-1',
  app_user_id: 'au-alice',
  mini_app_id: EXAMPLE_MINI_APP_ID,
};

/**
 * The example details that differ by endpoint, as `svc dev` words them: a field of that endpoint's request, an id of
 * its path.
 */
const ENDPOINT_DETAILS: Record<string, Partial<Record<ProblemName, string>>> = {
  postCard: {
    'invalid-request': 'card.title is missing: send the card title as a non-empty string.',
    'not-found':
      'room "room-9" is unknown: post into a room the person is in, as svc.room.current() names it ("au-alice" is in "room-1", "room-2").',
  },
  notify: {
    'invalid-request': 'title has 300 characters: send at most 256.',
    'not-found': 'app_user_id "au-zed" is unknown or left the tenant: use the sub of the person\'s token.',
  },
  getInstallation: {
    'invalid-request': 'app_user_id has 300 characters: send at most 256.',
    'not-found': `mini app "0000000000000000" is not the one this platform runs: ask for "${EXAMPLE_MINI_APP_ID}".`,
  },
  verifyAgent: {
    'invalid-request': 'token is missing: send the app token that carries the act claim.',
    'not-found': "The token's subject is no longer known: stop acting for this person.",
  },
};

/** Example detail sentences, one per problem, as `svc dev` words them, where the endpoint does not change them. */
const EXAMPLE_DETAILS: Partial<Record<ProblemName, string>> = {
  'invalid-signature':
    'The signature matches neither the current signing secret nor, during a rotation, the previous one: sign v0:<timestamp>:<the exact body bytes sent> with the current secret: the lowercase hex HMAC-SHA256, keyed with its UTF-8 bytes, written v0=<64 hex digits>.',
  'scope-not-granted': 'The person has not granted notifications: ask for it inside the mini app.',
  'tenant-policy': "The tenant's policy forbids this for the mini app: ask the tenant's administrator.",
  'room-encrypted': 'The room is end-to-end encrypted: ask the person to share with svc.message.send().',
  'version-revoked':
    'The version of this mini app that was running was revoked, and stays so until a higher version is published to the store: stop serving it and ship a new version.',
  'payload-too-large': `The body has 3000000 bytes, more than the ${SERVER_API_LIMITS.serverApiBody} this endpoint accepts: send a smaller body.`,
  'rate-limited': 'More than 600 requests a minute (burst 60) for this vendor: retry after 2 s (Retry-After).',
  'internal-error':
    'The change is applied but not saved to /home/dev/polls/.svc-dev/state.jsonl (ENOSPC): ENOSPC: no space left on device, write. Free space on that disk; the next change saves the whole state again. Do not send the request again: what it asked for is done.',
  unavailable: 'The service is briefly unavailable: retry with backoff.',
};

/** The example detail of `name` answered by `endpoint` at `instance`. */
function exampleDetail(name: ProblemName, endpoint: ServerApiEndpoint, instance: string): string {
  if (name === 'method-not-allowed') {
    const other = endpoint.method === 'GET' ? 'POST' : 'GET';
    return `${instance} does not take ${other}: send ${endpoint.method} /v1${endpoint.path}.`;
  }
  return ENDPOINT_DETAILS[endpoint.operationId]?.[name] ?? EXAMPLE_DETAILS[name] ?? PROBLEMS[name].title;
}

/**
 * The extension that marks a part of the contract the platform does not state, so a client generated from it knows
 * where to be lenient: the sentence says what svc-sdk decided and what a backend should tolerate.
 */
const SDK_DECISION = 'x-svc-sdk-decision';

/** What the platform does not say about a retry's body, and what a backend that cannot rely on it does. */
const RETRY_DECISION =
  "That a retry resends the same bytes, so that the SHA-256 of the body keys it, is svc-sdk's reading: the platform states only that handlers must be idempotent and that a retry after a processed request is normal. A backend that cannot rely on it keys on the event's own fields instead (its name, the person or tenant, occurred_at): svc-sdk/server's deliveryKey option.";
/** The problem names the platform itself states; the others are svc-sdk's. */
const PLATFORM_PROBLEMS = new Set(['scope-not-granted', 'room-encrypted']);
/** The one event whose payload the platform documents. */
const PLATFORM_EVENT = 'user.deprovisioned';

/** The error answers of one endpoint: problem details whose `type` ends in one of the status's problem names. */
function errorResponses(endpoint: ServerApiEndpoint): Json {
  const { path, problems: own } = endpoint;
  const instance = `/v1${path.replace(/\{(\w+)\}/g, (_, param: string) => EXAMPLE_PARAMS[param] ?? param)}`;
  const responses: Json = {};
  for (const [status, problems] of problemsByStatus(own)) {
    const names = problems.map(([name]) => name);
    const headers: Json = {};
    if (status === 429) headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
    if (status === 503) headers['Retry-After'] = { $ref: '#/components/headers/RetryAfterWhenSent' };
    if (status === 405) headers.Allow = { $ref: '#/components/headers/Allow' };
    const ours = names.filter((name) => !PLATFORM_PROBLEMS.has(name));
    responses[String(status)] = {
      description: problems.map(([name, when]) => `\`${name}\`: ${when}`).join(' '),
      ...(ours.length
        ? {
            [SDK_DECISION]: `The problem names ${ours.map((n) => `\`${n}\``).join(', ')} are svc-sdk's (the platform states its status codes, and of the names only scope-not-granted and room-encrypted): switch on the status first, then the name.`,
          }
        : {}),
      ...(Object.keys(headers).length ? { headers } : {}),
      content: {
        'application/problem+json': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/Problem' },
              {
                properties: {
                  type: { pattern: `/(${names.join('|')})$` },
                  status: { const: status },
                },
              },
            ],
          },
          examples: Object.fromEntries(
            names.map((name) => [
              name,
              {
                summary: PROBLEMS[name].title,
                value: {
                  type: `${ERRORS_URL}/${name}`,
                  title: PROBLEMS[name].title,
                  status,
                  detail: exampleDetail(name, endpoint, instance),
                  instance,
                },
              },
            ]),
          ),
        },
      },
    };
  }
  return responses;
}

/** The server API's paths. */
function paths(): Json {
  const out: Record<string, Json> = {};
  for (const endpoint of SERVER_API_ENDPOINTS) {
    const operation: Json = {
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      description: endpoint.description,
      tags: ['server API'],
      ...(Object.keys(endpoint.params).length
        ? {
            parameters: Object.entries(endpoint.params).map(([name, description]) => ({
              name,
              in: 'path',
              required: true,
              description,
              schema: { type: 'string', minLength: 1, maxLength: SERVER_API_LIMITS.id },
            })),
          }
        : {}),
      ...(endpoint.request
        ? {
            requestBody: {
              required: true,
              description: REQUEST_BODY,
              [SDK_DECISION]:
                endpoint.operationId === 'verifyAgent'
                  ? "This body is svc-sdk's decision: the platform states the endpoint, not its body. Its bounds (maxLength) are svc-sdk's too."
                  : "The bounds of its fields (maxLength, maxItems) are svc-sdk's decisions: the platform states none. Stay within them.",
              content: {
                'application/json': {
                  schema: { $ref: `#/components/schemas/${endpoint.request}` },
                  example: endpoint.example.request,
                },
              },
            },
          }
        : {}),
      responses: {
        [String(endpoint.success.status)]: {
          description: endpoint.success.description,
          ...(endpoint.operationId === 'notify'
            ? {
                [SDK_DECISION]:
                  "The platform states no success answer for a notification: 201 and its body are svc-sdk's. Take any 2xx as sent.",
              }
            : {}),
          content: {
            'application/json': {
              schema: { $ref: `#/components/schemas/${endpoint.success.schema}` },
              example: endpoint.example.response,
            },
          },
        },
        ...errorResponses(endpoint),
      },
    };
    out[endpoint.path] = { ...out[endpoint.path], [endpoint.method.toLowerCase()]: operation };
  }
  return out;
}

/** The webhooks: one POST per event, signed like the server API. */
function webhooks(): Json {
  const header = (name: string, description: string, schema: Json, required = true) => ({
    name,
    in: 'header',
    required,
    description,
    schema,
  });
  return Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => [
      event,
      {
        post: {
          operationId: `on${EVENT_SCHEMA_NAMES[event].replace(/Event$/, '')}`,
          summary: WEBHOOK_SCHEMAS[event].summary,
          description: `${WEBHOOK_SCHEMAS[event].summary}\n\nSigned like a server API request (see the signing rules above), with the current secret. ${DELIVERY}`,
          [SDK_DECISION]: `${event === PLATFORM_EVENT ? '' : `The payload of ${event} is svc-sdk's decision: the platform documents only ${PLATFORM_EVENT}'s. Tolerate fields missing or added. `}${RETRY_DECISION}`,
          tags: ['webhooks'],
          parameters: [
            header(SIGNATURE_HEADERS.timestamp, 'Whole seconds since the Unix epoch.', {
              type: 'string',
              pattern: '^[0-9]{1,15}$',
            }),
            header(SIGNATURE_HEADERS.signature, '`v0=` and 64 lowercase hex digits: exactly one signature.', {
              type: 'string',
              pattern: '^v0=[0-9a-f]{64}$',
            }),
            header(SIGNATURE_HEADERS.miniApp, "The mini app's id: its manifest `id`.", {
              type: 'string',
              minLength: 1,
            }),
            header(
              'X-Svc-Delivery-Id',
              'Sent by `svc dev` only, to tell deliveries apart in its inspector; the platform sends no delivery id, so do not key on it: key on the SHA-256 of the body.',
              { type: 'string' },
              false,
            ),
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: `#/components/schemas/${EVENT_SCHEMA_NAMES[event]}` },
                examples: {
                  [event]: { summary: WEBHOOK_SCHEMAS[event].summary, value: WEBHOOK_SCHEMAS[event].example },
                },
              },
            },
          },
          responses: {
            '2XX': {
              description:
                'Acknowledged, within 5 seconds. Any other answer (a redirect included: it is not followed), a network error or no answer in 5 seconds is a failure, retried with exponential backoff for 24 hours.',
            },
          },
        },
      },
    ]),
  );
}

/**
 * Builds the published contract of the server API and the webhooks, `schema/server-api.openapi.json` (OpenAPI 3.1),
 * from the same zod schemas, endpoint table, problem names and signing constants the local platform and
 * `svc-sdk/server` use.
 *
 * @remarks
 * scripts/serverApiSchema.ts writes it; a test fails when the committed file differs from what this returns.
 * @internal
 */
export function createServerApiDocument(version: string): Json {
  const signatureScheme = (name: string, description: string) => ({
    type: 'apiKey',
    in: 'header',
    name,
    description,
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc server API and webhooks',
      version,
      summary: "The mini app platform's server API for vendor backends, and the webhooks it sends them.",
      description: `# Signing\n\n${SIGNING}\n\n# Errors\n\nEvery error is RFC 9457 problem details (\`application/problem+json\`): \`type\` is \`{errors_url}/<problem name>\`, \`detail\` a sentence saying what to do. 429 carries \`Retry-After\` in whole seconds (the rate is ${SERVER_API_RATE.perMinute} requests a minute per vendor, burst ${SERVER_API_RATE.burst}); a client should read an HTTP date there too, as RFC 9110 allows. 503 is retriable: wait its \`Retry-After\` when it has one, else back off (svc-sdk's own client waits 0.5 s, doubling up to 5 s, with jitter, at most 3 times within 30 s).\n\n# Sending a request again\n\nThe POSTs are not idempotent: each one that arrives is done, and the same body sent twice posts two cards or two notifications. Send a POST again after a 429 (once \`Retry-After\` has passed), a 503, a 500 whose \`detail\` says nothing was done, or when the connection was refused (nothing was sent). When the connection failed after the request was sent (a reset, a timeout), the outcome is unknown: sending it again may do it twice, so do that only where a duplicate is harmless. A GET may always be sent again.\n\n# Webhooks\n\n${DELIVERY}\n\n# The app's token\n\n${APP_TOKEN}\n\nBounds the platform does not state (field lengths, the notification's 201, the body of \`/agents/verify\`, the payloads of five events, that a webhook's retry resends the same bytes, problem names beyond two) are the decisions of svc-sdk, recorded in its docs/decisions.md, and are what \`svc dev\` enforces. Each such part carries \`${SDK_DECISION}\`, a sentence saying what to tolerate.`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: '{base_url}',
        description: 'The server API base the platform gives; it ends in /v1 (svc dev prints its own).',
        variables: {
          base_url: {
            default: 'http://127.0.0.1:4310/v1',
            description:
              "The server API base, ending in /v1: svc dev's on its default port (it prints its own as SVC_API_BASE).",
          },
        },
      },
    ],
    security: [{ svcTimestamp: [], svcSignature: [], svcMiniApp: [] }],
    tags: [
      { name: 'server API', description: 'Calls a vendor backend makes, signed.' },
      { name: 'webhooks', description: 'Events the platform sends to the vendor backend, signed.' },
    ],
    paths: paths(),
    webhooks: webhooks(),
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        svcTimestamp: signatureScheme(
          SIGNATURE_HEADERS.timestamp,
          `Whole seconds since the Unix epoch, 1 to 15 decimal digits (\`^[0-9]{1,15}$\`), signed as the text sent; refused (401) when it differs from now by more than ${REPLAY_WINDOW_SECONDS} s.`,
        ),
        svcSignature: signatureScheme(
          SIGNATURE_HEADERS.signature,
          '`v0=` + lowercase hex HMAC-SHA256 of `v0:<timestamp>:<raw body>` keyed with the signing secret: exactly one signature.',
        ),
        svcMiniApp: signatureScheme(SIGNATURE_HEADERS.miniApp, "The mini app's id: its manifest `id`."),
      },
      headers: {
        'Retry-After': {
          description: RETRY_AFTER,
          required: true,
          schema: { $ref: '#/components/schemas/RetryAfter' },
        },
        RetryAfterWhenSent: {
          description: `${RETRY_AFTER} Sent when the platform knows when it will be back; without it, back off.`,
          required: false,
          schema: { $ref: '#/components/schemas/RetryAfter' },
        },
        Allow: {
          description: 'The methods this path takes, comma-separated (a path that takes GET answers HEAD too).',
          required: true,
          schema: { type: 'string' },
        },
      },
    },
  };
}
