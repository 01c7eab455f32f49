// The identity provider as clients nobody here wrote see it: openid-client 6 (discovery and an RFC 8693 exchange),
// jose's remote key set, and plain fetch for the token endpoint's error answers (RFC 6749 section 5.2, RFC 8693).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TYPE, type DevPlatform, startDevPlatform, TOKEN_EXCHANGE_GRANT } from '../../src/dev';
import { fencedBlocks } from '../readme/readmeBlocks';

const AUDIENCE = 'https://polls.example';
let p: DevPlatform;
let issuer = '';

beforeAll(async () => {
  p = await startDevPlatform({ miniAppId: 'polls', audience: AUDIENCE });
  issuer = `${p.authUrl}/realms/${p.realm}`;
});
afterAll(() => p.close());

/** The person's platform token, as the messenger page gets it. */
async function subjectToken(userId = 'alice'): Promise<string> {
  const response = await fetch(`${p.origin}/__svc/subject-token`, {
    method: 'POST',
    headers: { origin: p.origin, 'x-svc-dev-token': p.controlToken, 'content-type': 'application/json' },
    body: JSON.stringify({ user_id: userId }),
  });
  return ((await response.json()) as { subject_token: string }).subject_token;
}

const discover = () =>
  oidc.discovery(new URL(issuer), 'polls', undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });

describe("docs/dev.md's recipe for tokens from a shell", () => {
  it('run by bash and curl as written, with the printed URL and the manifest filled in, gets a token that verifies', async () => {
    const text = readFileSync(new URL('../../docs/dev.md', import.meta.url), 'utf8');
    const recipe = fencedBlocks(text.slice(text.indexOf('**Tokens from a shell**'))).find((b) => b.lang === 'sh')!;
    // Only the placeholders are filled in: the realm, the paths and the headers are the doc's own.
    const script = recipe.code
      .replace('BASE=http://127.0.0.1:4310', `BASE=${p.origin}`)
      .replace('<the token in the printed URL>', p.controlToken)
      .replace("<the manifest's auth.audience>", AUDIENCE)
      .replace("'<its auth.scopes>'", "''");
    expect(script).not.toMatch(/<[a-z]/);
    // Asynchronously: the platform answering curl runs in this process.
    const { stdout } = await promisify(execFile)('bash', ['-c', script], { encoding: 'utf8', timeout: 20_000 });
    const answer = JSON.parse(stdout);
    const keys = createRemoteJWKSet(new URL(`${issuer}/protocol/openid-connect/certs`));
    const { payload } = await jwtVerify(answer.access_token, keys, { issuer, audience: AUDIENCE });
    expect(payload.sub).toBe('au-alice');
  });
});

describe('the identity provider with openid-client', () => {
  it('serves the discovery document openid-client reads', async () => {
    const config = await discover();
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(issuer);
    expect(meta.token_endpoint).toBe(`${issuer}/protocol/openid-connect/token`);
    expect(meta.jwks_uri).toBe(`${issuer}/protocol/openid-connect/certs`);
    expect(meta.grant_types_supported).toContain(TOKEN_EXCHANGE_GRANT);
  });

  it('exchanges a token that verifies against the discovered key set, issuer and audience', async () => {
    const config = await discover();
    const tokens = await oidc.genericGrantRequest(config, TOKEN_EXCHANGE_GRANT, {
      subject_token: await subjectToken(),
      subject_token_type: ACCESS_TOKEN_TYPE,
      audience: AUDIENCE,
    });
    expect(tokens.token_type).toBe('bearer');
    const keys = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
    const { payload } = await jwtVerify(tokens.access_token, keys, { issuer, audience: AUDIENCE });
    expect(payload.sub).toBe('au-alice');
  });

  it('refuses a wrong audience with invalid_target, and says why a person gets no token', async () => {
    const config = await discover();
    const refused = await oidc
      .genericGrantRequest(config, TOKEN_EXCHANGE_GRANT, {
        subject_token: await subjectToken(),
        subject_token_type: ACCESS_TOKEN_TYPE,
        audience: 'https://other.example',
      })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(oidc.ResponseBodyError);
    expect(refused.error).toBe('invalid_target');
    expect(refused.error_description).toBe(
      'audience "https://other.example" is not this mini app\'s: send "https://polls.example" (auth.audience in the manifest).',
    );
    const bob = await oidc
      .genericGrantRequest(config, TOKEN_EXCHANGE_GRANT, {
        subject_token: await subjectToken('bob'),
        subject_token_type: ACCESS_TOKEN_TYPE,
        audience: AUDIENCE,
      })
      .catch((e) => e);
    expect(bob.error).toBe('invalid_grant');
    expect(bob.error_description).toMatch(/not installed for this person/);
  });
});

it('started without an audience (auth none), it says a restart takes one added since', async () => {
  const none = await startDevPlatform({ miniAppId: 'polls', audience: '' });
  try {
    const subject = await fetch(`${none.origin}/__svc/subject-token`, {
      method: 'POST',
      headers: { origin: none.origin, 'x-svc-dev-token': none.controlToken, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: 'alice' }),
    });
    const { subject_token: personToken } = (await subject.json()) as { subject_token: string };
    const response = await fetch(`${none.authUrl}/realms/${none.realm}/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: TOKEN_EXCHANGE_GRANT,
        subject_token: personToken,
        audience: AUDIENCE,
      }),
    });
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_target');
    expect(body.error_description).toMatch(/without auth\.audience, so it exchanges tokens for none; restart svc dev/);
    // Without an audience sent, the same advice: there is none to send until svc dev restarts.
    const missing = await fetch(`${none.authUrl}/realms/${none.realm}/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: TOKEN_EXCHANGE_GRANT, subject_token: personToken }),
    });
    expect(await missing.json()).toEqual({
      error: 'invalid_request',
      error_description:
        'audience is missing: svc dev started on a manifest without auth.audience, so it exchanges tokens for none; restart svc dev after adding it.',
    });
  } finally {
    await none.close();
  }
});

describe('the token endpoint errors', () => {
  const token = () => `${issuer}/protocol/openid-connect/token`;
  const post = async (form: Record<string, string> | string) => {
    const response = await fetch(token(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: typeof form === 'string' ? form : new URLSearchParams(form),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };

  it('answers a missing grant_type invalid_request, another one unsupported_grant_type, a repeated one invalid_request', async () => {
    expect((await post({ subject_token: 'x', audience: AUDIENCE })).body.error).toBe('invalid_request');
    expect((await post({ grant_type: 'password' })).body.error).toBe('unsupported_grant_type');
    const twice = await post(`grant_type=${encodeURIComponent(TOKEN_EXCHANGE_GRANT)}&audience=a&audience=b`);
    expect(twice).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(twice.headers.get('cache-control')).toBe('no-store');
  });

  it('quotes the audience asked for, so a stray space shows, and names a missing one with the one to send', async () => {
    // The audience is quoted, so a stray space shows; one not sent at all is named missing, with the one to send.
    const spaced = await post({
      grant_type: TOKEN_EXCHANGE_GRANT,
      subject_token: await subjectToken(),
      audience: `${AUDIENCE} `,
    });
    expect(spaced.body.error_description).toMatch(/^audience "https:\/\/polls\.example " is not/);
    const missing = await post({ grant_type: TOKEN_EXCHANGE_GRANT, subject_token: await subjectToken() });
    expect(missing).toMatchObject({
      status: 400,
      body: {
        error: 'invalid_request',
        error_description: 'audience is missing: send "https://polls.example" (auth.audience in the manifest).',
      },
    });
  });

  it('answers GET with 405 and Allow: POST', async () => {
    const response = await fetch(token());
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(((await response.json()) as { error: string }).error).toBe('invalid_request');
  });
});
