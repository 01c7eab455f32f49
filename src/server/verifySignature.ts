import { fromHex32, hmacKey, signingBase } from './hmac';
import { type RawBody, toBytes } from './rawBody';
import { type HeaderBag, readHeader } from './readHeader';
import { SIGNATURE_HEADERS } from './signRequest';
import { SvcSignatureError } from './SvcSignatureError';

/**
 * A signed request as received.
 * @public
 */
export interface SignedRequest {
  /** The raw body: the exact bytes received (or their text). A parsed object is refused. */
  body: RawBody;
  /** The request headers: a `Headers` or a plain object, any header case. */
  headers: HeaderBag;
}

/**
 * Options of {@link verifySignature}.
 * @public
 */
export interface VerifySignatureOptions {
  /**
   * The secrets that may have signed: during a rotation, the new and the old one (both verify for the one-hour
   * overlap). Tried in turn.
   */
  secrets: readonly string[] | string;
  /** Now, in seconds since the epoch (tests). Default the clock. */
  now?: number;
  /** Seconds a timestamp may differ from now, either way. Default 300 (the platform's replay window). */
  tolerance?: number;
  /** When set, `X-Svc-Mini-App` must equal it. */
  miniAppId?: string;
}

/** The platform's replay window, in seconds. @public */
export const REPLAY_WINDOW_SECONDS = 300;

/**
 * Verifies a signed server API request or webhook: the signature over `v0:<timestamp>:<raw body>` with any of
 * `secrets`, and a timestamp within 300 seconds of now in either direction. Resolves the verified timestamp.
 *
 * @remarks
 * The comparison is Web Crypto's `verify`, which is constant-time; a signature of the wrong length fails before
 * any secret is tried. Errors never contain a secret or a signature.
 * @throws {@link SvcSignatureError} naming what is wrong (`reason`).
 * @example
 * ```ts
 * await verifySignature({ body: await request.text(), headers: request.headers }, { secrets: [current, previous] });
 * ```
 * @public
 */
export async function verifySignature(request: SignedRequest, options: VerifySignatureOptions): Promise<number> {
  const secrets = (typeof options.secrets === 'string' ? [options.secrets] : [...(options.secrets ?? [])]).filter(
    (s) => typeof s === 'string' && s !== '',
  );
  if (secrets.length === 0)
    throw new SvcSignatureError(
      'no-secret',
      'no signing secret configured: pass secrets: [current] (and the previous one during a rotation).',
    );
  // Checked first: a parsed body is the commonest mistake, and its message says how to fix it.
  const body = typeof request.body === 'string' ? request.body : toBytes(request.body);
  const { stamp, mac } = checkSignatureHeaders(request.headers, options);
  const base = signingBase(stamp, body);
  for (const secret of secrets) {
    const found = hmacKey(secret);
    const key = found instanceof CryptoKey ? found : await found;
    if (await crypto.subtle.verify('HMAC', key, mac, base)) return Number(stamp);
  }
  throw new SvcSignatureError(
    'bad-signature',
    `the signature matches none of the ${secrets.length} configured secret(s). Check the secret (no surrounding ` +
      'whitespace; the current one, and the previous one during a rotation), and that nothing re-serialised the body ' +
      '(a proxy or a JSON parser) before verification.',
  );
}

/**
 * The signing headers' checks, which need no body: present, well formed, a timestamp within the window, the mini
 * app's id when `options.miniAppId` is given. A receiver runs them before it reads a body, so that an unsigned
 * request is refused without reading what it sends.
 * @throws {@link SvcSignatureError} naming what is wrong (`reason`).
 * @internal
 */
export function checkSignatureHeaders(
  headers: SignedRequest['headers'],
  options: Pick<VerifySignatureOptions, 'miniAppId' | 'now' | 'tolerance'>,
): { stamp: string; mac: Uint8Array<ArrayBuffer> } {
  if (!headers || typeof headers !== 'object')
    throw new SvcSignatureError('missing-header', 'no headers given: pass the request headers.');

  const stamp = readHeader(headers, SIGNATURE_HEADERS.timestamp);
  const signature = readHeader(headers, SIGNATURE_HEADERS.signature);
  for (const [name, value] of [
    [SIGNATURE_HEADERS.timestamp, stamp],
    [SIGNATURE_HEADERS.signature, signature],
  ] as const)
    if (!value)
      throw new SvcSignatureError('missing-header', `the ${name} header is missing: the request is not signed.`);
  if (!/^[0-9]{1,15}$/.test(stamp!))
    throw new SvcSignatureError(
      'malformed-header',
      `${SIGNATURE_HEADERS.timestamp} must be whole seconds since the Unix epoch: 1 to 15 decimal digits.`,
    );

  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.tolerance ?? REPLAY_WINDOW_SECONDS;
  const skew = Number(stamp) - now;
  if (skew < -tolerance)
    throw new SvcSignatureError(
      'stale-timestamp',
      `the timestamp is ${-skew} s old, more than the ${tolerance} s window: a replay, or this server's clock is wrong.`,
      -skew,
    );
  if (skew > tolerance)
    throw new SvcSignatureError(
      'future-timestamp',
      `the timestamp is ${skew} s in the future, more than the ${tolerance} s window: check this server's clock.`,
      skew,
    );

  if (options.miniAppId !== undefined) {
    const app = readHeader(headers, SIGNATURE_HEADERS.miniApp);
    if (!app)
      throw new SvcSignatureError(
        'missing-header',
        `the ${SIGNATURE_HEADERS.miniApp} header is missing: send this mini app's id in it with every signed request.`,
      );
    if (app !== options.miniAppId)
      throw new SvcSignatureError(
        'wrong-mini-app',
        `${SIGNATURE_HEADERS.miniApp} names another mini app than this one: sign with this mini app's id.`,
      );
  }

  // The header holds exactly one signature, made with the secret that signs now. The rotation's overlap lives on
  // this side: the verifier holds the new and the old secret, and the one signature matches either.
  const mac = signature!.startsWith('v0=') ? fromHex32(signature!.slice(3)) : undefined;
  if (!mac)
    throw new SvcSignatureError(
      'malformed-signature',
      `${SIGNATURE_HEADERS.signature} must be exactly 'v0=' followed by 64 lowercase hex digits.`,
    );
  return { stamp: stamp!, mac };
}
