import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha256';
import { randomId } from '../protocol/randomId';
import { fromBase64Url, fromUtf8, toBase64Url, toHex, utf8 } from '../protocol/bytes';

/**
 * The HS256 key the mock signs its tokens with. Public on purpose: mock tokens prove nothing outside tests, and a
 * test of a backend can verify them with it.
 * @public
 */
export const MOCK_TOKEN_KEY = 'svc-sdk mock signing key: never trust outside tests';

/**
 * The claims of a token the mock hands out, as the platform's specification lists them for an exchanged token.
 * @public
 */
export interface MockTokenClaims {
  /** The subject: the app user id. */
  sub: string;
  /** The declared audience, exactly (`svc-exchange`); the `client_id` under `external-oauth`. */
  aud: string;
  /** The issuer. */
  iss: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** A fresh id per token: two calls never return the same token. */
  jti: string;
  /** The manifest's `auth.scopes` (OAuth scopes of the exchange, not permission scopes), space-separated; empty when none. */
  scope: string;
  /** Present only while an action invoked by an agent runs: the agent's id. */
  act?: { sub: string };
  /** The tenant. */
  tenant_id: string;
}

// HMAC with @noble/hashes: synchronous (these functions are public and synchronous) and the same in browsers,
// workers, Node and jsdom, where node:crypto and Buffer are missing.
const b64 = (value: object) => toBase64Url(utf8(JSON.stringify(value)));
const sign = (data: string) => hmac(sha256, utf8(MOCK_TOKEN_KEY), utf8(data));

/** Mints a signed mock JWT (HS256) with the given claims. */
export function mintMockToken(claims: MockTokenClaims): string {
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${head}.${toBase64Url(sign(head))}`;
}

/**
 * Options of {@link decodeMockToken}.
 * @public
 */
export interface DecodeMockTokenOptions {
  /** When given, `aud` must equal it exactly (what a backend must check). */
  audience?: string;
  /** When given, `exp` must be later than this (seconds since the epoch). */
  now?: number;
}

/**
 * Verifies the signature of a token from a mock host's `svc.auth.getToken()` and returns its claims.
 * @throws TypeError when the token is malformed, not signed by a mock host, or fails `audience` or `now`.
 * @example
 * ```ts
 * const { access_token } = await host.svc.auth.getToken();
 * const claims = decodeMockToken(access_token, { audience: 'polls-backend' });
 * expect(claims.sub).toBe((await host.svc.identity.get()).app_user_id);
 * ```
 * @public
 */
export function decodeMockToken(token: string, options: DecodeMockTokenOptions = {}): MockTokenClaims {
  const parts = typeof token === 'string' ? token.split('.') : [];
  if (parts.length !== 3) throw new TypeError('decodeMockToken(): not a JWT (three dot-separated parts expected)');
  const [head, body, sig] = parts as [string, string, string];
  const expected = sign(`${head}.${body}`);
  let given: Uint8Array;
  try {
    given = fromBase64Url(sig);
  } catch {
    throw new TypeError('decodeMockToken(): the signature is not base64url');
  }
  // Compared in full whatever the first difference (a mock key is public, but a backend copying this should not leak).
  let difference = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) difference |= (given[i] ?? 0) ^ expected[i]!;
  if (difference !== 0) throw new TypeError('decodeMockToken(): the signature does not verify with the mock key');
  const claims = JSON.parse(fromUtf8(fromBase64Url(body))) as MockTokenClaims;
  if (options.audience !== undefined && claims.aud !== options.audience)
    throw new TypeError(`decodeMockToken(): aud is '${claims.aud}', expected exactly '${options.audience}'`);
  if (options.now !== undefined && claims.exp <= options.now)
    throw new TypeError('decodeMockToken(): the token has expired');
  return claims;
}

/** A fresh token id. */
export const tokenId = (): string => randomId();

/**
 * The `app_user_id` a host derives for a person and a mini app: lowercase hex HMAC-SHA256 keyed by the tenant key
 * over `<platform user id>:<mini app id>`, so two mini apps serving one person get different ids.
 * @example
 * ```ts
 * expect((await host.svc.identity.get()).app_user_id).toBe(deriveAppUserId('user-1', manifest.id));
 * ```
 * @public
 */
export function deriveAppUserId(userId: string, miniAppId: string, tenantKey = 'mock-tenant-key'): string {
  return toHex(hmac(sha256, utf8(tenantKey), utf8(`${userId}:${miniAppId}`)));
}
