/**
 * Writes schema/signing-vectors.json: test vectors for the platform's request signing, for a backend in any
 * language. The signatures are computed here with node:crypto, not with svc-sdk/server, so the SDK's tests that run
 * them check it against an independent computation. test/server/signingVectors.test.ts fails while the committed
 * file is stale.
 *
 *   npm run schema:signing-vectors
 */
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';

/** Where the vectors live, relative to the repository root. */
export const SIGNING_VECTORS_FILE = 'schema/signing-vectors.json';

const NOW = 1767225600; // 2026-01-01T00:00:00Z
const SECRET = 'whsec_vectors_current_9f8e7d6c5b4a';
const OLD_SECRET = 'whsec_vectors_previous_1a2b3c4d5e6f';
const APP = '3f1c0a9b7d2e4c68';

const sign = (secret: string, timestamp: number | string, body: Buffer) =>
  `v0=${createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`v0:${timestamp}:`), body]))
    .digest('hex')}`;

interface Vector {
  name: string;
  kind: 'server-api' | 'webhook';
  method: string;
  path: string;
  /** The secrets the verifier holds (the current one first). */
  secrets: string[];
  /**
   * The mini app the verifier serves, when it checks `X-Svc-Mini-App` (the platform does; a backend serving one app
   * may): a request naming another is refused.
   */
  mini_app_id?: string;
  /** The verifier's clock, in seconds. */
  now: number;
  body_base64: string;
  headers: Record<string, string>;
  valid: boolean;
  /** For a valid vector: the secret that signed, so a signer can reproduce `headers`. */
  signed_with?: string;
  /** For an invalid one: svc-sdk/server's `SvcSignatureError.reason`. */
  reason?: string;
  why: string;
}

function vector(
  name: string,
  kind: Vector['kind'],
  body: Buffer,
  options: {
    signWith?: string;
    /** The timestamp header, a number or a text of another form (`+1767225600`); the signature covers its text. */
    timestamp?: number | string;
    secrets?: string[];
    /** The verifier's own mini app, when it checks `X-Svc-Mini-App`. */
    miniAppId?: string;
    signature?: (real: string) => string;
    sentBody?: Buffer;
    /** Headers left out of the request. */
    omit?: string[];
    reason?: string;
    why: string;
    method?: string;
    path?: string;
  },
): Vector {
  const timestamp = String(options.timestamp ?? NOW);
  const signWith = options.signWith ?? SECRET;
  const real = sign(signWith, timestamp, body);
  const valid = options.reason === undefined;
  return {
    name,
    kind,
    method: options.method ?? 'POST',
    path: options.path ?? (kind === 'webhook' ? '/your/webhook/path' : '/v1/rooms/room-1/cards'),
    secrets: options.secrets ?? [SECRET],
    ...(options.miniAppId === undefined ? {} : { mini_app_id: options.miniAppId }),
    now: NOW,
    body_base64: (options.sentBody ?? body).toString('base64'),
    headers: Object.fromEntries(
      Object.entries({
        'X-Svc-Request-Timestamp': timestamp,
        'X-Svc-Signature': options.signature ? options.signature(real) : real,
        'X-Svc-Mini-App': APP,
        'Content-Type': 'application/json',
      }).filter(([name]) => !options.omit?.includes(name)),
    ),
    valid,
    ...(valid ? { signed_with: signWith } : { reason: options.reason }),
    why: options.why,
  };
}

/** The vectors, positive and negative. */
export function createSigningVectors() {
  const card = Buffer.from(
    JSON.stringify({
      mini_app_id: APP,
      app_user_id: 'au-alice',
      card: { title: 'Lunch?', body: 'Pizza or sushi', actions: [{ label: 'Vote', deep_link: '/polls/42' }] },
    }),
  );
  // Non-ASCII, a tab, spacing and a final newline: what a JSON parser would not give back byte for byte.
  const deprovisioned = Buffer.from(
    '{\n  "event": "user.deprovisioned",\n  "occurred_at": "2026-01-01T00:00:00.000Z",\n  "mini_app_id": "3f1c0a9b7d2e4c68",\n  "tenant_id": "acme",\n\t"app_user_id": "au-zoë-🦊"\n}\n',
    'utf8',
  );
  const granted = Buffer.from(
    JSON.stringify({
      event: 'scope.granted',
      occurred_at: '2026-01-01T00:00:00.000Z',
      mini_app_id: APP,
      tenant_id: 'acme',
      app_user_id: 'au-alice',
      scope: 'svc.notifications',
    }),
  );
  const vectors: Vector[] = [
    vector('server API: a card', 'server-api', card, { why: 'The signature of a POST body, as sent.' }),
    vector('server API: a GET signs the empty body', 'server-api', Buffer.alloc(0), {
      method: 'GET',
      path: `/v1/apps/${APP}/installations/au-alice`,
      why: 'The signing base is `v0:<timestamp>:` with nothing after it.',
    }),
    vector('webhook: non-ASCII, tabs, spacing and a final newline', 'webhook', deprovisioned, {
      why: 'The exact bytes received are signed, UTF-8 and whitespace included.',
    }),
    vector('webhook: a timestamp exactly 300 s old', 'webhook', granted, {
      timestamp: NOW - 300,
      why: 'The replay window is 300 s either way, inclusive.',
    }),
    vector('webhook: a timestamp exactly 300 s ahead', 'webhook', granted, {
      timestamp: NOW + 300,
      why: 'The replay window is 300 s either way, inclusive.',
    }),
    vector(
      'rotation overlap: a webhook signed with the new secret, the backend holding new and old',
      'webhook',
      granted,
      {
        secrets: [SECRET, OLD_SECRET],
        why: 'During the overlap the header carries one signature, the current secret’s; a backend that holds both verifies it.',
      },
    ),
    vector('rotation overlap: a server API call still signed with the old secret', 'server-api', card, {
      signWith: OLD_SECRET,
      secrets: [SECRET, OLD_SECRET],
      why: 'During the overlap the platform verifies with both secrets.',
    }),
    vector('wrong secret', 'webhook', granted, {
      signWith: 'whsec_someone_else',
      reason: 'bad-signature',
      why: 'Signed with a secret the verifier does not hold.',
    }),
    vector('rotation: a backend holding only the old secret', 'webhook', granted, {
      secrets: [OLD_SECRET],
      reason: 'bad-signature',
      why: 'The webhook is signed with the new secret only: give the backend both.',
    }),
    vector('a timestamp 301 s old', 'webhook', granted, {
      timestamp: NOW - 301,
      reason: 'stale-timestamp',
      why: 'Outside the 300 s replay window (401), even with a correct signature.',
    }),
    vector('a timestamp 301 s ahead', 'webhook', granted, {
      timestamp: NOW + 301,
      reason: 'future-timestamp',
      why: 'Outside the 300 s replay window (401), even with a correct signature.',
    }),
    vector('a timestamp with a sign', 'webhook', granted, {
      timestamp: `+${NOW}`,
      reason: 'malformed-header',
      why: "Whole seconds as decimal digits 0-9 and nothing else, even signed correctly: a number parser that takes a sign (Go's strconv.ParseInt, Java's Long.parseLong) is not the check.",
    }),
    vector('a timestamp with a fraction', 'webhook', granted, {
      timestamp: `${NOW}.0`,
      reason: 'malformed-header',
      why: 'Whole seconds, even signed correctly: a float parser is not the check.',
    }),
    vector('a timestamp of 16 digits', 'webhook', granted, {
      timestamp: `000000${NOW}`,
      reason: 'malformed-header',
      why: 'At most 15 decimal digits, even signed correctly and with the right value: check the text, not the number it parses to.',
    }),
    vector('a timestamp with leading zeros, 15 digits', 'webhook', granted, {
      timestamp: `00000${NOW}`,
      why: 'Leading zeros are allowed within 15 digits; the signing base uses the header text exactly as received, zeros included.',
    }),
    vector('uppercase hex', 'webhook', granted, {
      signature: (real) => `v0=${real.slice(3).toUpperCase()}`,
      reason: 'malformed-signature',
      why: 'The signature is lowercase hex; compare the exact text.',
    }),
    vector('a body re-serialised by a JSON parser', 'webhook', deprovisioned, {
      sentBody: Buffer.from(JSON.stringify(JSON.parse(deprovisioned.toString('utf8')))),
      reason: 'bad-signature',
      why: 'Verify the raw bytes received, before any JSON parsing: parsing and serialising again changes them.',
    }),
    vector('a truncated signature', 'webhook', granted, {
      signature: (real) => real.slice(0, -2),
      reason: 'malformed-signature',
      why: 'Of another length: refused before comparing (check equal length, then compare in constant time).',
    }),
    vector('two signatures in one header', 'webhook', granted, {
      secrets: [SECRET, OLD_SECRET],
      signature: (real) => `${real},${sign(OLD_SECRET, NOW, granted)}`,
      reason: 'malformed-signature',
      why: 'The header is exactly one `v0=` signature.',
    }),
    vector('no v0= prefix', 'webhook', granted, {
      signature: (real) => real.slice(3),
      reason: 'malformed-signature',
      why: 'The signature is the text `v0=` followed by the hex digits.',
    }),
    vector('the signature header repeated, as HTTP joins a repeated field', 'webhook', granted, {
      signature: (real) => `${real}, ${real}`,
      reason: 'malformed-signature',
      why: 'Two X-Svc-Signature fields arrive joined by `, ` (RFC 9110, section 5.3), even with the same signature twice: refuse, do not pick one.',
    }),
    vector('no X-Svc-Signature header', 'webhook', granted, {
      omit: ['X-Svc-Signature'],
      reason: 'missing-header',
      why: 'A request without its signature is not signed (401); an empty header counts as none.',
    }),
    vector('no X-Svc-Request-Timestamp header', 'server-api', card, {
      omit: ['X-Svc-Request-Timestamp'],
      reason: 'missing-header',
      why: 'The signature cannot be checked without the timestamp it covers.',
    }),
    vector('an empty X-Svc-Signature header', 'webhook', granted, {
      signature: () => '',
      reason: 'missing-header',
      why: 'An empty header counts as none: the request is not signed.',
    }),
    vector('server API: X-Svc-Mini-App checked, and as the verifier expects', 'server-api', card, {
      miniAppId: APP,
      why: 'A verifier that serves one mini app (the platform does) compares X-Svc-Mini-App with its id, exactly.',
    }),
    vector('server API: X-Svc-Mini-App names another mini app', 'server-api', card, {
      miniAppId: 'another-mini-app',
      reason: 'wrong-mini-app',
      why: 'The header is outside the signing base, and the signature is right, but the verifier serves another mini app (401): after the window, before the signature.',
    }),
    vector('server API: no X-Svc-Mini-App where the verifier checks it', 'server-api', card, {
      miniAppId: APP,
      omit: ['X-Svc-Mini-App'],
      reason: 'missing-header',
      why: 'A verifier that checks the mini app refuses a request without the header (401).',
    }),
    vector('two faults: a malformed signature and a stale timestamp', 'webhook', granted, {
      timestamp: NOW - 3600,
      signature: (real) => real.slice(0, -2),
      reason: 'stale-timestamp',
      why: 'The checks in order, the first that fails naming the reason: both headers present, the timestamp of 1 to 15 digits, the 300 s window, the mini app (where the verifier checks it), the signature of the form `v0=` and 64 lowercase hex digits, then the comparison.',
    }),
    vector('server API: a POST with an empty body', 'server-api', Buffer.alloc(0), {
      path: `/v1/users/au-alice/notifications`,
      why: 'An empty body is signed as one: `v0:<timestamp>:` and nothing after it (the platform then refuses the body, not the signature).',
    }),
  ];
  return {
    description:
      'Test vectors for the signing of svc server API requests and webhooks. For each vector: decode body_base64 to the exact bytes, and verify headers against them with the secrets the verifier holds, with now as the clock, and, where mini_app_id is given, as a verifier serving that mini app (X-Svc-Mini-App must name it). valid says whether verification must succeed; reason names the failure as svc-sdk/server reports it. A valid vector is also a signing test: HMAC-SHA256 over the signing base, keyed with signed_with, gives X-Svc-Signature.',
    signing_base: 'the bytes of `v0:` + X-Svc-Request-Timestamp + `:`, followed by the raw body bytes',
    signature: '`v0=` + lowercase hex of HMAC-SHA256(signing secret as UTF-8, signing base)',
    replay_window_seconds: 300,
    vectors,
  };
}

// Only write when run as a script, not when a test imports createSigningVectors().
if (process.argv[1]?.endsWith('signingVectors.mjs') || process.argv[1]?.endsWith('signingVectors.ts')) {
  writeFileSync(SIGNING_VECTORS_FILE, `${JSON.stringify(createSigningVectors(), null, 2)}\n`);
  console.log(`wrote ${SIGNING_VECTORS_FILE}`);
}
