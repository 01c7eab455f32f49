import { toHex } from '../protocol/bytes';
import { hmacKey, signingBase } from './hmac';
import { type RawBody, toBytes } from './rawBody';

/**
 * The header names of the platform's request signing.
 * @public
 */
export const SIGNATURE_HEADERS = {
  timestamp: 'X-Svc-Request-Timestamp',
  signature: 'X-Svc-Signature',
  miniApp: 'X-Svc-Mini-App',
} as const;

/**
 * What {@link signRequest} signs.
 * @public
 */
export interface SignRequestInput {
  /** The exact body that will be sent (a string or bytes). */
  body: RawBody;
  /** The signing secret. */
  secret: string;
  /** The mini app's id, sent as `X-Svc-Mini-App`. */
  miniAppId: string;
  /** Seconds since the Unix epoch; default now. */
  timestamp?: number;
}

/**
 * Signs a server API request or a webhook: HMAC-SHA256 of `v0:<timestamp>:<raw body>`, with the platform's four
 * headers.
 *
 * @example
 * ```ts
 * const body = JSON.stringify({ mini_app_id, app_user_id, card });
 * const headers = await signRequest({ body, secret, miniAppId: mini_app_id });
 * await fetch(url, { method: 'POST', headers, body });
 * ```
 * @public
 */
export async function signRequest(input: SignRequestInput): Promise<Record<string, string>> {
  const { secret, miniAppId } = input;
  if (typeof secret !== 'string' || secret === '')
    throw new TypeError('signRequest(): secret must be a non-empty string.');
  if (typeof miniAppId !== 'string' || miniAppId === '')
    throw new TypeError('signRequest(): miniAppId must be a non-empty string.');
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new TypeError('signRequest(): timestamp must be whole seconds since the Unix epoch.');
  const mac = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(secret),
    signingBase(timestamp, typeof input.body === 'string' ? input.body : toBytes(input.body)),
  );
  return {
    [SIGNATURE_HEADERS.timestamp]: String(timestamp),
    [SIGNATURE_HEADERS.signature]: `v0=${toHex(mac)}`,
    [SIGNATURE_HEADERS.miniApp]: miniAppId,
    'Content-Type': 'application/json',
  };
}
