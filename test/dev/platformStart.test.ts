import { createServer, type Server } from 'node:http';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TYPE, startDevPlatform, TOKEN_EXCHANGE_GRANT } from '../../src/dev';
import { createTokenVerifier, signRequest, verifyWebhook } from '../../src/server';

const AUDIENCE = 'https://polls.example';
let backend: Server;
let hooks = '';
const events: string[] = [];
let secret = '';

beforeAll(async () => {
  backend = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const event = await verifyWebhook({ body, headers: req.headers }, { secrets: [secret] }).catch(() => undefined);
    if (event) events.push((event as { event: string }).event);
    res.writeHead(event ? 200 : 401).end();
  });
  await new Promise<void>((ok) => backend.listen(0, '127.0.0.1', ok));
  hooks = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise<void>((ok) => backend.close(() => ok())));

describe('startDevPlatform', () => {
  it('runs the whole flow over real HTTP and keeps its state across a restart', async () => {
    const statePath = join(await mkdtemp(join(tmpdir(), 'svc-dev-')), '.svc-dev.json');
    let p = await startDevPlatform({
      miniAppId: 'polls',
      audience: AUDIENCE,
      webhooks: hooks,
      statePath,
      retryScale: 0.01,
    });
    secret = p.signingSecret;
    const control = (path: string, body: unknown = {}, headers: Record<string, string> = {}) =>
      fetch(`${p.origin}${path}`, {
        method: 'POST',
        headers: {
          origin: p.origin,
          'x-svc-dev-token': p.controlToken,
          'content-type': 'application/json',
          ...headers,
        },
        body: JSON.stringify(body),
      });
    expect((await control('/__svc/grant', { scope: 'svc.notifications' }, { origin: 'http://evil.test' })).status).toBe(
      403,
    );
    expect((await control('/__svc/grant', { scope: 'svc.notifications' }, { 'x-svc-dev-token': 'nope' })).status).toBe(
      403,
    );
    expect((await control('/__svc/grant', { scope: 'svc.notifications' })).status).toBe(200);
    const { subject_token } = (await (await control('/__svc/subject-token')).json()) as { subject_token: string };
    const exchange = async () =>
      fetch(`${p.authUrl}/realms/${p.realm}/protocol/openid-connect/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: TOKEN_EXCHANGE_GRANT,
          subject_token,
          subject_token_type: ACCESS_TOKEN_TYPE,
          audience: AUDIENCE,
          scope: 'svc.notifications',
        }),
      });
    const token = ((await (await exchange()).json()) as { access_token: string }).access_token;
    const who = await createTokenVerifier({ authUrl: p.authUrl, realm: p.realm, audience: AUDIENCE }).verify(token);
    expect(who.scopes).toEqual(['svc.notifications']);
    const body = JSON.stringify({ mini_app_id: 'polls', title: 'Poll', body: 'closed', deep_link: '/poll/1' });
    const notify = await fetch(`${p.baseUrl}/users/${who.sub}/notifications`, {
      method: 'POST',
      headers: await signRequest({ body, secret: p.signingSecret, miniAppId: 'polls' }),
      body,
    });
    expect(notify.status).toBe(201);
    expect((await control('/__svc/message', { room_id: 'board', text: 'Vote!' })).status).toBe(200);
    expect((await control('/__svc/message', { room_id: 'nope', text: 'x' })).status).toBe(400);
    const patch = (body: string) =>
      fetch(`${p.origin}/__svc/settings`, {
        method: 'PATCH',
        headers: { origin: p.origin, 'x-svc-dev-token': p.controlToken },
        body,
      });
    // An own `__proto__` is a field like any other: named, and nothing polluted.
    const polluting = await patch('{"theme":"dark","__proto__":{"polluted":true}}');
    expect(polluting.status).toBe(400);
    expect(((await polluting.json()) as { detail: string }).detail).toMatch(/^unknown field "__proto__"/);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(p.state.settings).not.toHaveProperty('polluted');
    const patched = await patch('{"theme":"dark"}');
    expect(((await patched.json()) as { settings: { theme: string } }).settings.theme).toBe('dark');
    expect((await control('/__svc/uninstall')).status).toBe(200);
    expect((await exchange()).status).toBe(400);
    await expect.poll(() => events).toEqual(['scope.granted', 'installation.deleted']);
    await p.close();
    p = await startDevPlatform({ miniAppId: 'polls', audience: AUDIENCE, statePath });
    expect(p.state.notifications).toHaveLength(1);
    expect(p.state.grants[0]?.scopes).toEqual(['svc.notifications']);
    expect(p.state.installations[0]?.installed).toBe(false);
    expect(p.state.rooms[1]?.timeline[0]).toMatchObject({ kind: 'message', text: 'Vote!', sender: 'alice' });
    expect(p.state.settings.theme).toBe('dark');
    await p.close();
  });
});
