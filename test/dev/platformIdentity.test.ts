import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityProvider, type IdentityProvider } from '../../src/dev/platform/createIdentityProvider';
import { ACCESS_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT } from '../../src/dev/tokenExchangeForm';
import { createTokenVerifier } from '../../src/server';
import { startDevPlatform } from '../../src/dev';
import { writeAppDir } from './appDir';

const REALM = 'dev';
const AUDIENCE = 'https://polls.example';
let server: Server;
let authUrl = '';
let idp: IdentityProvider;
const installed = new Set(['u1']);

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const base = `/realms/${REALM}/protocol/openid-connect`;
    if (req.method === 'GET' && path === `${base}/certs`) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(idp.jwks));
      return;
    }
    if (req.method === 'POST' && path === `${base}/token`) {
      let body = '';
      for await (const chunk of req) body += chunk;
      const answer = await idp.exchange(new URLSearchParams(body));
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  authUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  idp = await createIdentityProvider({
    authUrl,
    realm: REALM,
    authorize: ({ userId, audience, scopes }) => {
      if (audience !== AUDIENCE) return { refuse: `audience ${audience} is not this mini app's audience.` };
      if (!installed.has(userId)) return { refuse: 'the mini app is not installed for this person.' };
      return { appUserId: `app-${userId}`, scopes: scopes.filter((s) => s === 'svc.notifications') };
    },
  });
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

async function exchange(fields: Record<string, string>) {
  const response = await fetch(`${authUrl}/realms/${REALM}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: TOKEN_EXCHANGE_GRANT, subject_token_type: ACCESS_TOKEN_TYPE, ...fields }),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, string> & { access_token: string },
  };
}

describe('the local identity provider', () => {
  it('exchanges a subject token for a JWT that createTokenVerifier accepts, aud = the audience only', async () => {
    const answer = await exchange({
      subject_token: await idp.subjectToken('u1'),
      audience: AUDIENCE,
      scope: 'svc.notifications other',
    });
    expect(answer.status).toBe(200);
    const verifier = createTokenVerifier({ authUrl, realm: REALM, audience: AUDIENCE });
    const identity = await verifier.verify(answer.body.access_token);
    expect(identity.sub).toBe('app-u1');
    expect(identity.scopes).toEqual(['svc.notifications']);
    expect(identity.claims.aud).toBe(AUDIENCE);
    expect(identity.claims.iss).toBe(`${authUrl}/realms/${REALM}`);
    expect(identity.actor).toBeUndefined();
  });

  it('puts act.sub in the token while an agent acts', async () => {
    const answer = await exchange({
      subject_token: await idp.subjectToken('u1'),
      actor_token: await idp.actorToken('agent-7'),
      actor_token_type: ACCESS_TOKEN_TYPE,
      audience: AUDIENCE,
    });
    const identity = await createTokenVerifier({ authUrl, realm: REALM, audience: AUDIENCE }).verify(
      answer.body.access_token,
    );
    expect(identity.actor).toEqual({ sub: 'agent-7' });
  });

  it("refuses a person's token as the actor, and an agent's as the subject", async () => {
    // A person's token taken as an agent's made the backend's /agents/verify name the person an AI agent.
    const person = await exchange({
      subject_token: await idp.subjectToken('u1'),
      actor_token: await idp.subjectToken('u2'),
      actor_token_type: ACCESS_TOKEN_TYPE,
      audience: AUDIENCE,
    });
    expect(person).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(person.body.error_description).toMatch(/^actor_token is not an agent's valid platform token/);
    const agent = await exchange({ subject_token: await idp.actorToken('agent-7'), audience: AUDIENCE });
    expect(agent).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(agent.body.error_description).toMatch(/^subject_token is not a person's valid platform token/);
  });

  it('refuses once uninstalled, a foreign audience, a forged subject token, another grant type', async () => {
    installed.delete('u1');
    const refused = await exchange({ subject_token: await idp.subjectToken('u1'), audience: AUDIENCE });
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(refused.body.error_description).toMatch(/not installed/);
    installed.add('u1');
    const foreign = await exchange({ subject_token: await idp.subjectToken('u1'), audience: 'https://other' });
    expect(foreign.body.error_description).toMatch(/audience/);
    const forged = await exchange({ subject_token: 'a.b.c', audience: AUDIENCE });
    expect(forged.body.error_description).toMatch(/subject_token/);
    const grant = await exchange({ grant_type: 'password', subject_token: 'x', audience: AUDIENCE });
    expect(grant.body.error).toBe('unsupported_grant_type');
  });

  it('an exchanged token for the app is not accepted as a platform subject token', async () => {
    const answer = await exchange({ subject_token: await idp.subjectToken('u1'), audience: AUDIENCE });
    const reuse = await exchange({ subject_token: answer.body.access_token, audience: AUDIENCE });
    expect(reuse.status).toBe(400);
  });
});

describe('the realm key across a restart on the same --state', () => {
  it('is kept: a backend that fetched the keys before the restart verifies the tokens after it (week45 F4)', async () => {
    const dir = await writeAppDir();
    const statePath = join(await mkdtemp(join(tmpdir(), 'svc-realm-')), 'state.jsonl');
    const free = createServer().listen(0, '127.0.0.1');
    await new Promise((listening) => free.once('listening', listening));
    const port = (free.address() as AddressInfo).port;
    await new Promise((closed) => free.close(closed));
    const first = await startDevPlatform({ dir, port, mcp: false, statePath });
    const verifier = createTokenVerifier({ authUrl: first.authUrl, realm: first.realm, audience: first.audience });
    const kid = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid;
    const before = await first.appToken();
    expect((await verifier.verify(before)).sub).toBeTruthy();
    await first.close();
    const second = await startDevPlatform({ dir, port, mcp: false, statePath });
    try {
      const after = await second.appToken();
      expect(kid(after)).toBe(kid(before));
      // The verifier fetched the keys a moment ago: a new key would be refused until it may fetch again (30 s).
      expect((await verifier.verify(after)).sub).toBeTruthy();
    } finally {
      await second.close();
    }
  });
});
