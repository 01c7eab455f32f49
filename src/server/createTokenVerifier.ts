import { createRemoteJWKSet, customFetch, decodeJwt, errors, jwtVerify } from 'jose';
import type { WebCryptoKey } from '../protocol/WebCryptoKey';
import { SvcTokenError, type TokenFailure } from './SvcTokenError';

// The public types below are the package's own, not jose's: jose is published as an ES module only, and the CommonJS
// build's declarations cannot import an ES module's under `"module": "node16"`.

/**
 * A public key that verifies tokens: a Web Crypto `CryptoKey`, described by its members so that a backend compiled
 * with Node's types alone, without the DOM library, can name it.
 * @public
 */
export type TokenKey = WebCryptoKey;

/**
 * Finds the key that verifies a token, from its protected header. jose's `createLocalJWKSet(jwks)` and
 * `createRemoteJWKSet(url)` return one.
 * @public
 */
export type TokenKeyResolver = (
  protectedHeader: { alg?: string; kid?: string; [parameter: string]: unknown },
  token: { protected?: string; payload: string | Uint8Array; signature: string },
) => Promise<TokenKey> | TokenKey;

/**
 * A token's claims: the registered ones (RFC 7519, section 4.1), the platform's `scope` and `act`, and any other.
 * @public
 */
export interface TokenClaims {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  exp?: number;
  nbf?: number;
  iat?: number;
  jti?: string;
  /**
   * The scopes the token exchange asked for that the manifest's `auth.scopes` declares, separated by spaces: what the
   * token may be used for, not the person's permissions (the installation's `granted_scopes`).
   */
  scope?: string;
  /** The agent acting for the user, when one is. */
  act?: { sub?: string };
  [claim: string]: unknown;
}

/**
 * Options of {@link createTokenVerifier}.
 * @public
 */
export interface TokenVerifierOptions {
  /** The identity provider's base address (`{auth_url}`). */
  authUrl: string;
  /** The realm. The issuer is `{authUrl}/realms/{realm}`, the keys at `…/protocol/openid-connect/certs`. */
  realm: string;
  /** The mini app's declared audience: the token's `aud` must be exactly this. */
  audience: string;
  /** Accepted algorithms. Default asymmetric only: RS256, PS256, ES256, EdDSA. */
  algorithms?: string[];
  /** Seconds of clock skew tolerated on `exp`/`nbf`. Default 5. */
  clockTolerance?: number;
  /** Minimum ms between key refetches triggered by an unknown `kid`. Default 30 000. */
  cooldownMs?: number;
  /** Ms the keys are kept before a refetch. Default 600 000. */
  cacheMaxAgeMs?: number;
  /** A `fetch` for the key set (tests, proxies). */
  fetch?: typeof fetch;
  /** Keys to use instead of fetching them, such as jose's `createLocalJWKSet(jwks)`. */
  keys?: TokenKeyResolver;
}

/**
 * The identity a verified token carries.
 * @public
 */
export interface VerifiedToken {
  /** The identity to act on: the app user. */
  sub: string;
  /** The `scope` claim as a list (split on spaces, empty strings dropped). */
  scopes: string[];
  /** Present when an AI agent acts for the user (`act.sub`): apply the agent's limits. */
  actor?: { sub: string };
  /** Every claim. */
  claims: TokenClaims;
}

/**
 * Verifies the app's tokens. `verify` resolves the identity or throws {@link SvcTokenError}.
 * @public
 */
export interface TokenVerifier {
  verify(token: string): Promise<VerifiedToken>;
  /** Reads `Authorization: Bearer <token>` from a request (or its headers) and verifies it. */
  verifyRequest(request: Request | Headers | Record<string, string | string[] | undefined>): Promise<VerifiedToken>;
  /** The issuer tokens must carry. */
  readonly issuer: string;
}

/** The `iss` of a JWT, read without verifying it, or undefined when it has none or is not a JWT. */
function readIssuer(token: string): string | undefined {
  try {
    const iss = (decodeJwt(token) as { iss?: unknown }).iss;
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}

const DEFAULT_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

function failure(error: unknown, audience: string, token: string): SvcTokenError {
  if (error instanceof SvcTokenError) return error;
  const code = (error as { code?: string })?.code;
  const claim = (error as { claim?: string })?.claim;
  const map: Record<string, [TokenFailure, string]> = {
    ERR_JWT_EXPIRED: ['expired', 'the token has expired: the app calls svc.auth.getToken() before each use.'],
    ERR_JWS_SIGNATURE_VERIFICATION_FAILED: [
      'bad-signature',
      'the token signature does not verify against the realm keys.',
    ],
    // Not "after a refetch": within cooldownMs of the last fetch, no fetch is made (week45 F4).
    ERR_JWKS_NO_MATCHING_KEY: [
      'unknown-key',
      "no key of the realm matches the token's kid: the keys are fetched again for an unknown kid at most once every cooldownMs (default 30 s), so a key the realm made since the last fetch is found only after that.",
    ],
    ERR_JWKS_TIMEOUT: ['keys-unavailable', 'the realm keys could not be fetched in time.'],
    ERR_JOSE_ALG_NOT_ALLOWED: ['algorithm-not-allowed', 'the token is signed with an algorithm that is not allowed.'],
    ERR_JWS_INVALID: ['malformed', 'the token is not a well-formed JWS.'],
    ERR_JWT_INVALID: ['malformed', 'the token is not a well-formed JWT.'],
  };
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
    const reason = (error as { reason?: string }).reason;
    if (reason === 'missing') return new SvcTokenError('missing-claim', `the token has no '${claim}' claim.`);
    if (claim === 'iss')
      return new SvcTokenError('wrong-issuer', 'the token was issued by another issuer than this realm.');
    if (claim === 'aud') {
      // Audiences name backends, not secrets: both are said, so the mismatch can be found.
      let aud: unknown;
      try {
        aud = decodeJwt(token).aud;
      } catch {
        aud = undefined;
      }
      return new SvcTokenError(
        'wrong-audience',
        `the token is for ${JSON.stringify(aud ?? null)}, not for this backend's audience ${JSON.stringify(audience)}: set audience (SVC_AUDIENCE) to the manifest's auth.audience, or the app sent the token of another backend.`,
      );
    }
    return new SvcTokenError('invalid-claim', `the token's '${claim}' claim is invalid.`);
  }
  const known = code ? map[code] : undefined;
  if (known) return new SvcTokenError(known[0], known[1]);
  if (error instanceof errors.JOSEError) return new SvcTokenError('malformed', `the token was refused (${code}).`);
  if (error instanceof TypeError) return new SvcTokenError('keys-unavailable', 'the realm keys could not be fetched.');
  return new SvcTokenError('malformed', 'the token was refused.');
}

/**
 * Creates a verifier for the tokens a mini app sends its backend (`Authorization: Bearer`), on `jose`.
 *
 * @remarks
 * Checks all four rules of a platform token: the signature against the realm's keys (cached; refetched once on an unknown
 * `kid`, at most every `cooldownMs`), `iss`, `aud` exactly the declared audience (an `aud` array holding anything
 * else is refused: skipping this makes token leakage between mini apps exploitable), and `exp` (required). Only
 * the allowed algorithms pass, never `none`. Errors never contain the token.
 * @example
 * ```ts
 * const verifier = createTokenVerifier({ authUrl, realm: 'acme', audience: 'polls-api' });
 * const { sub, scopes, actor } = await verifier.verifyRequest(request);
 * if (actor) applyAgentLimits(actor.sub);
 * ```
 * @public
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  for (const field of ['authUrl', 'realm', 'audience'] as const)
    if (typeof options[field] !== 'string' || options[field] === '')
      throw new TypeError(`createTokenVerifier(): ${field} must be a non-empty string.`);
  const issuer = `${options.authUrl.replace(/\/+$/, '')}/realms/${options.realm}`;
  const keysUrl = `${issuer}/protocol/openid-connect/certs`;
  // The key set's last HTTP status, to name the cause when jose only says the answer was not 200.
  let keysStatus = 0;
  const fetchKeys: typeof fetch = async (input, init) => {
    const response = await (options.fetch ?? fetch)(input, init);
    keysStatus = response.status;
    return response;
  };
  const keys =
    options.keys ??
    createRemoteJWKSet(new URL(keysUrl), {
      cooldownDuration: options.cooldownMs ?? 30_000,
      cacheMaxAge: options.cacheMaxAgeMs ?? 600_000,
      [customFetch]: fetchKeys,
    });
  const algorithms = options.algorithms ?? DEFAULT_ALGORITHMS;

  async function verify(token: string): Promise<VerifiedToken> {
    if (typeof token !== 'string' || token.split('.').length !== 3)
      throw new SvcTokenError('malformed', 'the token is not a JWT (three dot-separated parts).');
    // The issuer is read before the signature: a token of another realm or another svc dev would otherwise fail
    // as an unknown key, hiding the cause. An issuer is not a secret; the token itself is never shown.
    const claimed = readIssuer(token);
    if (claimed !== undefined && claimed !== issuer)
      throw new SvcTokenError(
        'wrong-issuer',
        `the token was issued by ${claimed}, not by this realm (${issuer}): check authUrl and realm, or the app sent a token of another platform.`,
      );
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        audience: options.audience,
        algorithms,
        clockTolerance: options.clockTolerance ?? 5,
        requiredClaims: ['exp', 'sub', 'iss', 'aud'],
      });
      // jose accepts an aud array that merely contains the audience; the platform requires this audience alone.
      const aud = payload.aud;
      if (Array.isArray(aud) && (aud.length !== 1 || aud[0] !== options.audience))
        throw new SvcTokenError('wrong-audience', 'the token names other audiences besides this mini app: refused.');
      const claims = payload as VerifiedToken['claims'];
      // jose checks that sub is present, not what it is; the backend keys the person's data on it.
      if (typeof claims.sub !== 'string' || claims.sub === '')
        throw new SvcTokenError('invalid-claim', "the token's 'sub' claim is not a non-empty string: refused.");
      // Refused rather than read as less: a scope claim that is no string, or an act claim that names no agent,
      // would otherwise pass as a token with no scopes, or as the person's own (an agent's limits skipped).
      if (claims.scope !== undefined && typeof claims.scope !== 'string')
        throw new SvcTokenError(
          'invalid-claim',
          "the token's 'scope' claim is not a string of space-separated scopes.",
        );
      if (claims.act !== undefined && (typeof claims.act?.sub !== 'string' || claims.act.sub === ''))
        throw new SvcTokenError('invalid-claim', "the token's 'act' claim names no agent (act.sub): refused.");
      const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [];
      const result: VerifiedToken = { sub: claims.sub, scopes, claims };
      if (claims.act && typeof claims.act.sub === 'string') result.actor = { sub: claims.act.sub };
      return result;
    } catch (error) {
      if (keysStatus && keysStatus !== 200 && (error as { code?: string })?.code === 'ERR_JOSE_GENERIC')
        throw new SvcTokenError(
          'keys-unavailable',
          `the realm's key set at ${keysUrl} answered ${keysStatus}: check authUrl and realm.`,
        );
      throw failure(error, options.audience, token);
    }
  }

  return {
    issuer,
    verify,
    async verifyRequest(request) {
      const headers = typeof Request !== 'undefined' && request instanceof Request ? request.headers : request;
      const raw =
        typeof (headers as Headers).get === 'function'
          ? (headers as Headers).get('authorization')
          : Object.entries(headers as Record<string, string | string[] | undefined>).find(
              ([k]) => k.toLowerCase() === 'authorization',
            )?.[1];
      const value = Array.isArray(raw) ? raw[0] : raw;
      if (!value)
        throw new SvcTokenError(
          'missing-token',
          'no Authorization header: send Authorization: Bearer <token from svc.auth.getToken()>.',
        );
      const match = /^Bearer +([^\s]+)$/i.exec(value);
      if (!match) throw new SvcTokenError('malformed', "the Authorization header is not 'Bearer <token>'.");
      return verify(match[1]!);
    },
  };
}
