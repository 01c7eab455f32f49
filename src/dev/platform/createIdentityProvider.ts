import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, createLocalJWKSet } from 'jose';
import type { TokenClaims } from '../../server/createTokenVerifier';
import { ACCESS_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT } from '../tokenExchangeForm';

/** The actor token type of the platform (RFC 8693 section 3). */
const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt';

/** Audience of the platform's own subject tokens (never accepted by a mini app's verifier). */
const PLATFORM_AUDIENCE = 'svc-platform';

/**
 * Options of {@link createIdentityProvider}.
 * @internal
 */
export interface IdentityProviderOptions {
  /** `{authUrl}`; the issuer is `{authUrl}/realms/{realm}`. */
  authUrl: string;
  realm: string;
  /** ES256 (default) or RS256. */
  algorithm?: 'ES256' | 'RS256';
  /** Lifetime of exchanged tokens in seconds. Default 300. */
  ttlSeconds?: number;
  /**
   * The realm's ES256 signing key, kept with a `--state` file ({@link newRealmKey}): a backend that fetched the realm's
   * keys goes on verifying tokens across a restart. Default a new key.
   */
  key?: RealmPrivateKey;
  /**
   * Decides an exchange: the app user id for `sub` and the granted scopes, or a refusal sentence
   * (uninstalled, deprovisioned, version revoked, wrong audience; an empty `audience` is one the request lacks).
   */
  authorize(input: {
    userId: string;
    audience: string;
    scopes: string[];
  }):
    | { appUserId: string; scopes: string[] }
    | { refuse: string; error?: 'invalid_grant' | 'invalid_target' | 'invalid_request' };
}

/**
 * A public key of the realm, as `…/protocol/openid-connect/certs` serves it (RFC 7517). The package's own type, not
 * jose's: jose is published as an ES module only, and the CommonJS build's declarations cannot import its types.
 * @internal
 */
export interface RealmKey {
  kid: string;
  alg: string;
  use: 'sig';
  kty?: string;
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
}

/** The realm's private signing key, as a state file keeps it: its id and its P-256 JWK (`d` included). @internal */
export interface RealmPrivateKey {
  kid: string;
  jwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string; d: string };
}

/** A new ES256 realm key, with an id of its own. @internal */
export async function newRealmKey(): Promise<RealmPrivateKey> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const { x, y, d } = await exportJWK(privateKey);
  return { kid: `dev-${crypto.randomUUID().slice(0, 8)}`, jwk: { kty: 'EC', crv: 'P-256', x: x!, y: y!, d: d! } };
}

/** Whether `value` is a realm key as {@link newRealmKey} makes it (what a state file may hold). @internal */
export function isRealmKey(value: unknown): value is RealmPrivateKey {
  const key = value as RealmPrivateKey | undefined;
  const b64url = (v: unknown) => typeof v === 'string' && /^[A-Za-z0-9_-]{43}$/.test(v);
  return (
    typeof key?.kid === 'string' &&
    /^dev-[0-9a-f]{8}$/.test(key.kid) &&
    key.jwk?.kty === 'EC' &&
    key.jwk.crv === 'P-256' &&
    b64url(key.jwk.x) &&
    b64url(key.jwk.y) &&
    b64url(key.jwk.d)
  );
}

/** An OAuth error answer of the token endpoint. @internal */
export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** The realm's signing key: a kept one (ES256 only), which signs on across restarts, or a new one for this launch. */
async function signingKey(alg: 'ES256' | 'RS256', key: RealmPrivateKey | undefined) {
  const kept = alg === 'ES256' ? key : undefined;
  const pair = kept ? undefined : await generateKeyPair(alg, { extractable: true });
  const privateKey = kept ? await importJWK(kept.jwk, alg) : pair!.privateKey;
  const kid = kept?.kid ?? `dev-${crypto.randomUUID().slice(0, 8)}`;
  const { d: _d, ...publicJwk } = kept ? kept.jwk : await exportJWK(pair!.publicKey);
  const jwk: RealmKey = { ...publicJwk, kid, alg, use: 'sig' };
  return { privateKey, kid, jwk };
}

/**
 * The local identity provider: a realm key set and an RFC 8693 token endpoint.
 *
 * @remarks
 * The key is generated per launch with jose, or kept with the state file (`key`); tokens are asymmetrically signed so that svc-sdk/server's
 * `createTokenVerifier` verifies them unchanged. Exchanged tokens carry `aud` = the requested audience only
 * (after `authorize` accepted it) and `act.sub` when an actor token is given.
 * @internal
 */
export async function createIdentityProvider(options: IdentityProviderOptions) {
  const alg = options.algorithm ?? 'ES256';
  const { privateKey, kid, jwk } = await signingKey(alg, options.key);
  const jwks = { keys: [jwk] };
  const keySet = createLocalJWKSet(jwks);
  const issuer = `${options.authUrl}/realms/${options.realm}`;
  const ttl = options.ttlSeconds ?? 300;

  const sign = (claims: Record<string, unknown>, sub: string, aud: string, seconds: number) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg, kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setSubject(sub)
      .setAudience(aud)
      .setIssuedAt()
      .setExpirationTime(`${seconds}s`)
      .sign(privateKey);

  /** A platform token's subject when it is a `kind`'s (a person's as an agent's would make the person `act.sub`). */
  const platformSubject = async (token: string, kind: 'user' | 'agent'): Promise<string | undefined> => {
    try {
      const { payload } = await jwtVerify(token, keySet, { issuer, audience: PLATFORM_AUDIENCE });
      return payload.kind === kind ? payload.sub : undefined;
    } catch {
      return undefined;
    }
  };

  const error = (status: number, code: string, description: string): TokenAnswer => ({
    status,
    body: { error: code, error_description: description },
  });

  const tokenEndpoint = `${issuer}/protocol/openid-connect/token`;
  /** The OpenID discovery document (what openid-client's `discovery()` and Keycloak clients read). */
  const discovery = {
    issuer,
    token_endpoint: tokenEndpoint,
    jwks_uri: `${issuer}/protocol/openid-connect/certs`,
    grant_types_supported: [TOKEN_EXCHANGE_GRANT],
    token_endpoint_auth_methods_supported: ['none'],
    response_types_supported: ['token'],
    subject_types_supported: ['pairwise'],
    id_token_signing_alg_values_supported: [alg],
    token_endpoint_auth_signing_alg_values_supported: [alg],
    claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'scope', 'act'],
  };

  return {
    issuer,
    jwks,
    discovery,
    /** Issues the person's platform token (what the native runtime holds). */
    subjectToken: (userId: string, seconds = 3600) => sign({ kind: 'user' }, userId, PLATFORM_AUDIENCE, seconds),
    /** Issues an agent's actor token. */
    actorToken: (agentId: string, seconds = 3600) => sign({ kind: 'agent' }, agentId, PLATFORM_AUDIENCE, seconds),
    /** Verifies a token this realm issued for any audience (the server API's `/agents/verify`). */
    verify: async (token: string, audience: string): Promise<{ payload: TokenClaims }> => ({
      payload: (await jwtVerify(token, keySet, { issuer, audience })).payload,
    }),
    /** The token endpoint: an `application/x-www-form-urlencoded` body in, an OAuth answer out. */
    async exchange(form: URLSearchParams): Promise<TokenAnswer> {
      // RFC 6749 section 3.2: a parameter sent twice is refused, as is a request without grant_type.
      for (const name of new Set(form.keys()))
        if (form.getAll(name).length > 1)
          return error(400, 'invalid_request', `${name} is sent more than once: send each parameter once.`);
      const grant = form.get('grant_type');
      if (!grant) return error(400, 'invalid_request', `grant_type is missing: send ${TOKEN_EXCHANGE_GRANT}.`);
      if (grant !== TOKEN_EXCHANGE_GRANT)
        return error(
          400,
          'unsupported_grant_type',
          `grant_type ${grant} is not supported: send ${TOKEN_EXCHANGE_GRANT}.`,
        );
      const subjectToken = form.get('subject_token');
      if (!subjectToken)
        return error(400, 'invalid_request', "subject_token is missing: send the person's platform token.");
      const subjectType = form.get('subject_token_type');
      if (subjectType && subjectType !== ACCESS_TOKEN_TYPE)
        return error(400, 'invalid_request', `subject_token_type must be ${ACCESS_TOKEN_TYPE}: send that value.`);
      // A missing audience is the platform's to explain (it knows the app's, or that it has none): `authorize` says.
      const audience = form.get('audience') ?? '';
      const userId = await platformSubject(subjectToken, 'user');
      if (!userId)
        return error(
          400,
          'invalid_grant',
          "subject_token is not a person's valid platform token of this realm (expired, an agent's, or from another svc dev): get a fresh one.",
        );
      let actor: string | undefined;
      const actorToken = form.get('actor_token');
      if (actorToken) {
        const actorType = form.get('actor_token_type');
        if (actorType && actorType !== ACCESS_TOKEN_TYPE && actorType !== JWT_TOKEN_TYPE)
          return error(400, 'invalid_request', `actor_token_type must be ${JWT_TOKEN_TYPE}: send that value.`);
        actor = await platformSubject(actorToken, 'agent');
        if (!actor)
          return error(
            400,
            'invalid_grant',
            "actor_token is not an agent's valid platform token of this realm (a person's token does not act as an agent): get the agent's current token.",
          );
      }
      const requested = (form.get('scope') ?? '').split(' ').filter(Boolean);
      const decision = options.authorize({ userId, audience, scopes: requested });
      if ('refuse' in decision) return error(400, decision.error ?? 'invalid_grant', decision.refuse);
      const scope = decision.scopes.join(' ');
      const claims: Record<string, unknown> = { scope };
      if (actor) claims.act = { sub: actor };
      const access_token = await sign(claims, decision.appUserId, audience, ttl);
      return {
        status: 200,
        body: { access_token, issued_token_type: ACCESS_TOKEN_TYPE, token_type: 'Bearer', expires_in: ttl, scope },
      };
    },
  };
}

/** The identity provider's instance. @internal */
export type IdentityProvider = Awaited<ReturnType<typeof createIdentityProvider>>;
