// The token guards as a browser meets them: a mini app on its own origin calls its backend, so the browser sends a
// CORS preflight first. Express with requireToken and a Fetch handler with withToken, over real HTTP, with real
// tokens from the local platform; and the token verifier naming the real cause of a refusal.
import express from 'express';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { createTokenVerifier, isSvcTokenError, requireToken, withToken } from '../../src/server';
import { type Loopback, serveFetch, serveNode } from './loopback';

const APP_ORIGIN = 'http://localhost:5173';
let p: DevPlatform;
let express_: Loopback;
let fetch_: Loopback;

beforeAll(async () => {
  p = await startDevPlatform({ miniAppId: 'polls', audience: 'https://polls.example' });
  const verifier = createTokenVerifier({ authUrl: p.authUrl, realm: p.realm, audience: p.audience });
  const app = express();
  app.use('/api', requireToken(verifier, { origins: [APP_ORIGIN] }) as express.RequestHandler);
  app.get('/api/me', (req, res) => void res.json({ sub: (req as unknown as { svc: { sub: string } }).svc.sub }));
  express_ = await serveNode(app);
  fetch_ = await serveFetch(
    withToken(verifier, (_request, user) => Response.json({ sub: user.sub }), { origins: [APP_ORIGIN] }),
  );
});
afterAll(async () => {
  await express_?.close();
  await fetch_?.close();
  await p?.close();
});

const preflight = (url: string, origin: string) =>
  fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
  });

describe.each([
  ['requireToken (Express)', () => `${express_.url}/api/me`],
  ['withToken (Fetch)', () => `${fetch_.url}/me`],
])('%s', (_name, url) => {
  it("answers the app origin's preflight 204 with that exact origin, and another origin's 403", async () => {
    const ok = await preflight(url(), APP_ORIGIN);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(ok.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(ok.headers.get('vary')).toContain('Origin');
    const evil = await preflight(url(), 'https://evil.example');
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await evil.json()) as { message: string }).message).toMatch(/add it to the origins option/);
  });

  it('lets the app read the answer, a 401 too', async () => {
    const token = await p.appToken();
    const ok = await fetch(url(), { headers: { origin: APP_ORIGIN, authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(await ok.json()).toEqual({ sub: 'au-alice' });
    const refused = await fetch(url(), { headers: { origin: APP_ORIGIN } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
  });
});

describe('the token verifier names the real cause', () => {
  it('a token of another svc dev or realm: the issuer differs', async () => {
    const other = await startDevPlatform({ miniAppId: 'polls', audience: 'https://polls.example' });
    const token = await other.appToken();
    await other.close();
    const verifier = createTokenVerifier({ authUrl: p.authUrl, realm: p.realm, audience: p.audience });
    const error = await verifier.verify(token).catch((e) => e);
    expect(isSvcTokenError(error)).toBe(true);
    expect(error.reason).toBe('wrong-issuer');
    expect(error.message).toContain(
      `issued by ${other.authUrl}/realms/svc-dev, not by this realm (${p.authUrl}/realms/svc-dev)`,
    );
    expect(error.message).not.toContain(token);
  });

  it("the realm's key set answers 404", async () => {
    const empty = await serveNode((_req, res) => void res.writeHead(404).end());
    const { privateKey } = await generateKeyPair('ES256');
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k' })
      .setIssuer(`${empty.url}/realms/gone`)
      .setAudience('a')
      .setSubject('s')
      .setExpirationTime('5m')
      .sign(privateKey);
    const error = await createTokenVerifier({ authUrl: empty.url, realm: 'gone', audience: 'a' })
      .verify(token)
      .catch((e) => e);
    await empty.close();
    expect(error.reason).toBe('keys-unavailable');
    expect(error.message).toBe(
      `the realm's key set at ${empty.url}/realms/gone/protocol/openid-connect/certs answered 404: check authUrl and realm.`,
    );
  });
});
