import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier, isSvcTokenError, requireToken, withToken } from '../../src/server';
import { type Loopback, serveFetch, serveNode } from './loopback';

// A real realm on loopback: its certs endpoint serves the public keys, which a test can rotate.
const realm = 'acme';
const audience = 'polls-api';
let idp: Loopback;
let issuer: string;
let keys: { kid: string; privateKey: CryptoKey; jwk: JWK }[] = [];
let certsFetches = 0;

async function addKey(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  keys.push({ kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } });
}

beforeAll(async () => {
  await addKey('k1');
  idp = await serveFetch(async (request) => {
    if (new URL(request.url).pathname !== `/realms/${realm}/protocol/openid-connect/certs`)
      return new Response('no', { status: 404 });
    certsFetches++;
    return Response.json({ keys: keys.map((k) => k.jwk) });
  });
  issuer = `${idp.url}/realms/${realm}`;
});
afterAll(() => idp.close());

async function token(
  claims: Record<string, unknown> = {},
  options: { kid?: string; exp?: number | null; iss?: string } = {},
) {
  const key = keys.find((k) => k.kid === (options.kid ?? 'k1'))!;
  let jwt = new SignJWT({ scope: 'polls:write polls:read', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid })
    .setIssuer(options.iss ?? issuer)
    .setSubject('au_123')
    .setAudience((claims.aud as string | string[]) ?? audience)
    .setIssuedAt();
  if (options.exp !== null) jwt = jwt.setExpirationTime(options.exp ?? '5m');
  return jwt.sign(key.privateKey);
}

const refusal = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(isSvcTokenError(e), `expected SvcTokenError, got ${e}`).toBe(true);
  return e as { reason: string; message: string; status: number };
};

describe('createTokenVerifier', () => {
  const verifier = () => createTokenVerifier({ authUrl: idp.url, realm, audience, cooldownMs: 0 });

  it('returns sub, the scopes as a list, and no actor for a person', async () => {
    const result = await verifier().verify(await token());
    expect(result).toMatchObject({ sub: 'au_123', scopes: ['polls:write', 'polls:read'] });
    expect(result.actor).toBeUndefined();
    expect(result.claims.iss).toBe(issuer);
  });

  it('returns the actor when an agent acts (act.sub)', async () => {
    expect((await verifier().verify(await token({ act: { sub: 'agent-7' } }))).actor).toEqual({ sub: 'agent-7' });
  });

  it('refuses an aud array holding anything besides the audience, accepts [audience]', async () => {
    expect((await refusal(verifier().verify(await token({ aud: [audience, 'other-app'] })))).reason).toBe(
      'wrong-audience',
    );
    expect((await verifier().verify(await token({ aud: [audience] }))).sub).toBe('au_123');
    const other = await refusal(verifier().verify(await token({ aud: 'other-app' })));
    expect(other.reason).toBe('wrong-audience');
    // Both audiences named (they name backends, not secrets), and where to set this one.
    expect(other.message).toContain(`the token is for "other-app", not for this backend's audience "${audience}"`);
  });

  it('refuses an act claim that names no agent, and a scope claim that is no string, rather than reading less', async () => {
    for (const claims of [{ act: {} }, { act: { sub: '' } }, { act: 'agent-7' }, { act: null }])
      expect(await refusal(verifier().verify(await token(claims)))).toMatchObject({
        reason: 'invalid-claim',
        message: expect.stringContaining("'act' claim names no agent"),
      });
    for (const scope of [['polls:write'], 42])
      expect(await refusal(verifier().verify(await token({ scope })))).toMatchObject({
        reason: 'invalid-claim',
        message: expect.stringContaining("'scope' claim is not a string"),
      });
  });

  it('requires exp, refuses an expired token, another issuer, alg none and HS256', async () => {
    expect(await refusal(verifier().verify(await token({}, { exp: null })))).toMatchObject({ reason: 'missing-claim' });
    expect(
      await refusal(verifier().verify(await token({}, { exp: Math.floor(Date.now() / 1000) - 60 }))),
    ).toMatchObject({ reason: 'expired' });
    expect(
      await refusal(verifier().verify(await token({}, { iss: 'https://evil.example/realms/acme' }))),
    ).toMatchObject({ reason: 'wrong-issuer' });
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const exp = Math.floor(Date.now() / 1000) + 300;
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'x', iss: issuer, aud: audience, exp })}.`;
    expect((await refusal(verifier().verify(none))).reason).toMatch(/algorithm-not-allowed|malformed/);
    const hs = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setIssuer(issuer)
      .setSubject('x')
      .setAudience(audience)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a-shared-secret-of-32-bytes-long!!'));
    expect((await refusal(verifier().verify(hs))).reason).toBe('algorithm-not-allowed');
  });

  it('tolerates a small clock skew on exp (5 s by default)', async () => {
    const justExpired = await token({}, { exp: Math.floor(Date.now() / 1000) - 2 });
    expect((await verifier().verify(justExpired)).sub).toBe('au_123');
  });

  it('caches the keys and refetches once for an unknown kid (a rotation)', async () => {
    const v = verifier();
    await v.verify(await token());
    const before = certsFetches;
    await v.verify(await token());
    expect(certsFetches).toBe(before); // warm
    await addKey('k2');
    expect((await v.verify(await token({}, { kid: 'k2' }))).sub).toBe('au_123');
    expect(certsFetches).toBe(before + 1);
    keys = keys.filter((k) => k.kid !== 'k2');
  });

  it('refuses a token signed by a key the realm does not have, and never echoes the token', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(issuer)
      .setSubject('x')
      .setAudience(audience)
      .setExpirationTime('5m')
      .sign(privateKey);
    const e = await refusal(verifier().verify(forged));
    expect(e.reason).toBe('bad-signature');
    expect(e.message).not.toContain(forged.slice(0, 30));
    expect(e.message).not.toContain(forged.split('.')[2]!.slice(0, 20));
  });

  it('authenticates Authorization: Bearer in a Fetch handler and in Express-style middleware', async () => {
    const v = verifier();
    const api = await serveFetch(
      withToken(v, async (_request, user) => Response.json({ sub: user.sub, agent: user.actor?.sub ?? null })),
    );
    const node = await serveNode(
      (req, res) =>
        void requireToken(v)(req, res, () =>
          res.end(JSON.stringify({ sub: (req as unknown as { svc: { sub: string } }).svc.sub })),
        ),
    );
    try {
      const good = await token({ act: { sub: 'agent-1' } });
      expect(await (await fetch(api.url, { headers: { authorization: `Bearer ${good}` } })).json()).toEqual({
        sub: 'au_123',
        agent: 'agent-1',
      });
      const missing = await fetch(api.url);
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toContain('invalid_token');
      expect((await fetch(node.url, { headers: { authorization: `Bearer ${good}` } })).status).toBe(200);
      const bad = await fetch(node.url, { headers: { authorization: 'Bearer not.a.jwt' } });
      expect(bad.status).toBe(401);
      expect(await bad.text()).not.toContain('not.a.jwt');
    } finally {
      await api.close();
      await node.close();
    }
  });
});
