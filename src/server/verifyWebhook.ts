import { toHex } from '../protocol/bytes';
import type { UnknownWebhookEvent, WebhookEvent } from './events';
import { type RawBody, refuseReadRequest, toBytes } from './rawBody';
import type { HeaderBag } from './readHeader';
import { SvcSignatureError } from './SvcSignatureError';
import { verifySignature, type VerifySignatureOptions } from './verifySignature';
import { findMalformedValue } from '../manifest/findMalformedValue';
import { formatJsonPath } from '../manifest/ManifestIssue';

/**
 * A verified webhook delivery: the event and what identifies the delivery.
 * @public
 */
export interface WebhookDelivery<E = WebhookEvent | UnknownWebhookEvent> {
  event: E;
  /**
   * The idempotency key: hex SHA-256 of the raw body. The platform gives events no id, and a retry resends the
   * same body with a new timestamp header, so the body identifies the delivery.
   */
  key: string;
  /** The verified `X-Svc-Request-Timestamp`, in seconds. */
  timestamp: number;
}

// Fatal: invalid UTF-8 is refused rather than read with U+FFFD in place of the bad bytes.
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Reads a Request's body once, as bytes, or passes a `{ body, headers }` pair through. */
async function readSigned(
  input: Request | { body: RawBody; headers: HeaderBag },
): Promise<{ body: RawBody; headers: HeaderBag }> {
  if (typeof Request !== 'undefined' && input instanceof Request) {
    refuseReadRequest(input);
    return { body: new Uint8Array(await input.arrayBuffer()), headers: input.headers };
  }
  return input as { body: RawBody; headers: HeaderBag };
}

/**
 * Verifies a webhook (signature, timestamp window) and returns the typed event with its delivery key.
 *
 * @remarks
 * An event name this SDK does not know (a newer platform) is returned as it is, never refused; unknown fields are
 * kept.
 * @throws {@link SvcSignatureError} on a bad signature, a stale timestamp, a parsed body, or a payload that is not
 * a JSON object with an `event` name (`invalid-payload`).
 * @public
 */
export async function verifyWebhookDelivery(
  input: Request | { body: RawBody; headers: HeaderBag },
  options: VerifySignatureOptions,
): Promise<WebhookDelivery> {
  const signed = await readSigned(input);
  const timestamp = await verifySignature(signed, options);
  const bytes = toBytes(signed.body);
  let event: unknown;
  try {
    event = JSON.parse(decoder.decode(bytes));
  } catch {
    throw new SvcSignatureError('invalid-payload', 'the webhook body is not JSON encoded as UTF-8.');
  }
  if (
    typeof event !== 'object' ||
    event === null ||
    Array.isArray(event) ||
    typeof (event as { event?: unknown }).event !== 'string'
  )
    throw new SvcSignatureError('invalid-payload', "the webhook body is not an event object with an 'event' name.");
  // What JSON.parse lets through and no UTF-8 carries (a `\ud800` escape without its low half), which the server API
  // refuses when the handler sends it back, and other languages' decoders throw on: not an event the platform sends.
  const malformed = findMalformedValue(event);
  if (malformed)
    throw new SvcSignatureError(
      'invalid-payload',
      `the webhook body's ${formatJsonPath(malformed.path)} ${malformed.problem}: not an event the platform sends.`,
    );
  // The header is outside the signing base; the signed body's id is the one to trust.
  if (options.miniAppId !== undefined && (event as { mini_app_id?: unknown }).mini_app_id !== options.miniAppId)
    throw new SvcSignatureError(
      'wrong-mini-app',
      "the signed body's mini_app_id names another mini app than this one: this endpoint serves one mini app.",
    );
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  const key = toHex(digest);
  return { event: event as WebhookEvent, key, timestamp };
}

/**
 * Verifies a webhook and returns its typed event.
 * @example
 * ```ts
 * const event = await verifyWebhook(request, { secrets: [process.env.SVC_SIGNING_SECRET!] });
 * // An event this version does not know has a string `event` too: isWebhookEvent narrows by the name.
 * if (isWebhookEvent(event, 'user.deprovisioned')) await deleteUser(event.app_user_id);
 * ```
 * @throws {@link SvcSignatureError}
 * @public
 */
export async function verifyWebhook(
  input: Request | { body: RawBody; headers: HeaderBag },
  options: VerifySignatureOptions,
): Promise<WebhookEvent | UnknownWebhookEvent> {
  return (await verifyWebhookDelivery(input, options)).event;
}
