import { describe, expect, test, vi } from 'vitest';
import { createMockHost, decodeMockToken } from '../../src/mock';
import { exchangeManifest, noneManifest, oauthManifest } from './fixtures';
import { rejectsWith } from './helpers';

describe('auth mode svc-exchange', () => {
  test('getToken hands out a signed JWT with sub, aud (exactly the audience), iss, exp and scope', async () => {
    const host = createMockHost({ manifest: exchangeManifest() });
    const { access_token, expires_in } = await host.svc.auth.getToken();
    const now = Math.floor(Date.now() / 1000);
    const claims = decodeMockToken(access_token, { audience: 'polls-backend', now });
    expect(claims.sub).toBe((await host.svc.identity.get()).app_user_id);
    expect(claims.aud).toBe('polls-backend');
    expect(claims.iss).toMatch(/^https:\/\//);
    expect(claims.exp).toBeGreaterThan(now);
    expect(claims.exp - claims.iat).toBe(expires_in);
    expect(claims.scope).toBe('polls.read polls.write');
    expect(claims.act).toBeUndefined();
  });

  test('every getToken mints a new token: never cached', async () => {
    const host = createMockHost({ manifest: exchangeManifest() });
    const a = (await host.svc.auth.getToken()).access_token;
    const b = (await host.svc.auth.getToken()).access_token;
    expect(a).not.toBe(b);
    expect(decodeMockToken(a).jti).not.toBe(decodeMockToken(b).jti);
  });

  test('a token minted while an agent runs an action carries act.sub; one for the person does not', async () => {
    const host = createMockHost({ manifest: exchangeManifest() });
    const tokens: string[] = [];
    host.svc.actions.handle('list_polls', async () => void tokens.push((await host.svc.auth.getToken()).access_token));
    await host.invokeAction('list_polls', {}, { invoked_by: 'agent', agent_id: 'agent-7' });
    await host.invokeAction('list_polls', {}, { invoked_by: 'user' });
    expect(decodeMockToken(tokens[0]!).act).toEqual({ sub: 'agent-7' });
    expect(decodeMockToken(tokens[1]!).act).toBeUndefined();
  });

  test('a tampered token or another audience fails decodeMockToken', async () => {
    const host = createMockHost({ manifest: exchangeManifest() });
    const { access_token } = await host.svc.auth.getToken();
    expect(() => decodeMockToken(access_token, { audience: 'other-backend' })).toThrow(/aud/);
    const [h, , s] = access_token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'x', aud: 'polls-backend' })).toString('base64url');
    expect(() => decodeMockToken(`${h}.${forged}.${s}`)).toThrow(/signature/);
  });

  test('state is signed-in; signOut resolves and changes nothing; signIn rejects ERR_WRONG_AUTH_MODE', async () => {
    const signIn = vi.fn(() => true);
    const host = createMockHost({ manifest: exchangeManifest(), answers: { signIn } });
    expect(await host.svc.auth.state()).toBe('signed-in');
    await host.svc.auth.signOut();
    expect(await host.svc.auth.state()).toBe('signed-in');
    await rejectsWith(host.svc.auth.signIn(), 'ERR_WRONG_AUTH_MODE');
    expect(signIn).not.toHaveBeenCalled();
  });
});

describe('auth mode external-oauth', () => {
  test('getToken needs signIn first; signIn asks answers.signIn and state() follows', async () => {
    const host = createMockHost({ manifest: oauthManifest(), answers: { signIn: () => true } });
    expect(await host.svc.auth.state()).toBe('signed-out');
    await rejectsWith(host.svc.auth.getToken(), 'ERR_SIGNED_OUT');
    await host.svc.auth.signIn();
    expect(await host.svc.auth.state()).toBe('signed-in');
    const claims = decodeMockToken((await host.svc.auth.getToken()).access_token);
    expect(claims.iss).toBe('https://login.polls.example');
    await host.svc.auth.signOut();
    expect(await host.svc.auth.state()).toBe('signed-out');
    await rejectsWith(host.svc.auth.getToken(), 'ERR_SIGNED_OUT');
  });

  test('a cancelled sign-in rejects ERR_PERMISSION_DENIED and stays signed out', async () => {
    const host = createMockHost({ manifest: oauthManifest(), answers: { signIn: () => false } });
    await rejectsWith(host.svc.auth.signIn(), 'ERR_PERMISSION_DENIED');
    expect(await host.svc.auth.state()).toBe('signed-out');
  });

  test('signedIn: true starts signed in, without a prompt', async () => {
    const host = createMockHost({ manifest: oauthManifest(), signedIn: true });
    expect(await host.svc.auth.state()).toBe('signed-in');
    await host.svc.auth.signIn();
    expect(host.unanswered).toEqual([]);
  });
});

describe('auth mode none', () => {
  test('getToken and signIn reject ERR_WRONG_AUTH_MODE; state is signed-out', async () => {
    const host = createMockHost({ manifest: noneManifest(), answers: { signIn: () => true } });
    await rejectsWith(host.svc.auth.getToken(), 'ERR_WRONG_AUTH_MODE');
    await rejectsWith(host.svc.auth.signIn(), 'ERR_WRONG_AUTH_MODE');
    expect(await host.svc.auth.state()).toBe('signed-out');
    await host.svc.auth.signOut();
  });
});
