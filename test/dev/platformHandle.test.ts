// The handle a backend's integration test drives: a real app token from the platform's RFC 8693 exchange, verified
// by svc-sdk/server unchanged; person and administrator calls with their webhooks; what the backend posted.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { createServerClient, createTokenVerifier, verifyWebhook } from '../../src/server';
import { writeAppDir } from './appDir';

let p: DevPlatform;
let backend: Server;
const received: { event: string; app_user_id?: string; scope?: string }[] = [];
const bodies: { body: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  backend = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    bodies.push({ body, headers: req.headers });
    const event = await verifyWebhook({ body, headers: req.headers }, { secrets: [p.signingSecret] }).catch(
      () => undefined,
    );
    if (event) received.push(event as never);
    res.writeHead(event ? 200 : 401).end();
  });
  await new Promise<void>((ok) => backend.listen(0, '127.0.0.1', ok));
  const webhooks = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/hooks`;
  p = await startDevPlatform({ dir: await writeAppDir(), port: 0, webhooks, retryScale: 0.01 });
});
afterAll(async () => {
  await p.close();
  await new Promise<void>((ok) => backend.close(() => ok()));
});

const delivered = (count: number) => expect.poll(() => received.length).toBeGreaterThanOrEqual(count);

describe('the platform handle', () => {
  it('mints a real app token that createTokenVerifier accepts, with act.sub when an agent acts', async () => {
    const verifier = createTokenVerifier({ authUrl: p.authUrl, realm: p.realm, audience: p.audience });
    const identity = await verifier.verify(await p.appToken({ scopes: ['polls.read', 'polls.write', 'admin'] }));
    expect(identity.sub).toBe(p.state.users[0]!.app_user_id);
    // The scopes the manifest's auth declares, which the person consented to at install; never others.
    expect(identity.scopes).toEqual(['polls.read', 'polls.write']);
    const agent = await verifier.verify(await p.appToken({ agentId: 'agent-7' }));
    expect(agent.actor).toEqual({ sub: 'agent-7' });
  });

  it('acts as the person and the administrator, each with its signed webhook', async () => {
    await p.grant('svc.files.read');
    await p.revoke('svc.files.read');
    await p.uninstall(undefined, 'admin');
    await p.install();
    await delivered(4);
    // Deliveries travel in parallel, as the platform's do: no order is promised, each arrives once.
    expect(received.map((e) => e.event).sort()).toEqual([
      'installation.created',
      'installation.deleted',
      'scope.granted',
      'scope.revoked',
    ]);
    await p.deprovision('bob');
    await delivered(5);
    expect(received.at(-1)).toMatchObject({ event: 'user.deprovisioned', app_user_id: 'au-bob' });
    await expect(p.appToken({ userId: 'bob' })).rejects.toThrow(/left the tenant/);
    await expect(p.grant('svc.files.read', 'nobody')).rejects.toThrow(/user_id nobody is unknown/);
    // Nothing about a removed person reaches the backend after user.deprovisioned, and a second removal sends none.
    for (const after of [p.grant('svc.files.read', 'bob'), p.revoke('svc.files.read', 'bob'), p.install('bob')])
      await expect(after).rejects.toThrow('user_id bob was removed from the tenant (user.deprovisioned)');
    await p.deprovision('bob');
    expect(p.state.deliveries.filter((d) => d.event === 'user.deprovisioned')).toHaveLength(1);
  });

  it('grants only scopes the manifest declares, and sends an event only for a change', async () => {
    const sent = () => p.state.deliveries.map((d) => d.event);
    const before = sent().length;
    await expect(p.grant('notifications')).rejects.toThrow(
      /scope notifications is not declared in manifest.json's permissions, so no person can grant it: send one of svc\.identity\.basic, /,
    );
    await expect(p.grant('svc.notifications')).rejects.toThrow(/not declared/);
    await p.install(); // installed already, at this version
    await p.uninstall();
    await p.uninstall();
    await p.install();
    await p.install();
    await p.grant('svc.files.read');
    await p.grant('svc.files.read');
    expect(sent().slice(before)).toEqual(['installation.deleted', 'installation.created', 'scope.granted']);
  });

  it("grants another person's scope at the first grant, as the server API then answers", async () => {
    const api = createServerClient({ baseUrl: p.baseUrl, miniAppId: p.miniAppId, secret: p.signingSecret });
    const sent = () =>
      p.state.deliveries.map((d) => `${d.event} ${(d.payload as { app_user_id?: string }).app_user_id}`);
    const before = sent().length;
    await p.grant('svc.files.read', 'carol');
    // The first grant of a person who had none was kept on an object the state did not hold: nothing granted.
    expect((await api.getInstallation('au-carol')).granted_scopes).toEqual(['svc.files.read']);
    await p.grant('svc.files.read', 'carol');
    await p.revoke('svc.files.read', 'carol');
    expect((await api.getInstallation('au-carol')).granted_scopes).toEqual([]);
    expect(sent().slice(before)).toEqual(['scope.granted au-carol', 'scope.revoked au-carol']);
  });

  it('sends bodies that a backend which parses and writes them again cannot verify, as against the platform', async () => {
    await p.revoke('svc.files.read');
    await p.grant('svc.files.read');
    await expect.poll(() => bodies.length).toBeGreaterThan(0);
    const { body, headers } = bodies.at(-1)!;
    expect(body).toBe(`${JSON.stringify(JSON.parse(body), null, 2)}\n`);
    await expect(verifyWebhook({ body, headers }, { secrets: [p.signingSecret] })).resolves.toBeTruthy();
    // The commonest webhook mistake: a JSON body parser ran first, and the body was written again from its result.
    const rewritten = JSON.stringify(JSON.parse(body));
    await expect(verifyWebhook({ body: rewritten, headers }, { secrets: [p.signingSecret] })).rejects.toMatchObject({
      reason: 'bad-signature',
    });
  });

  it('shows what the backend posted: cards per room', async () => {
    const api = createServerClient({ baseUrl: p.baseUrl, miniAppId: p.miniAppId, secret: p.signingSecret });
    const plain = p.rooms.find((r) => !r.is_encrypted)!;
    const user = p.state.users[0]!.app_user_id;
    await api.postCard(plain.room_id, { app_user_id: user, card: { title: 'Lunch?', body: 'Vote now' } });
    expect(p.cards(plain.room_id)).toHaveLength(1);
    expect(p.cards()).toHaveLength(1);
    const encrypted = p.rooms.find((r) => r.is_encrypted)!;
    await expect(
      api.postCard(encrypted.room_id, { app_user_id: user, card: { title: 'x', body: 'y' } }),
    ).rejects.toMatchObject({ status: 409 });
  });
});

describe('a revoked version', () => {
  it('is told once per tenant it is installed in, so a backend keeping state per tenant acts on each', async () => {
    await p.install('carol');
    const installed = p.state.installations.filter((i) => i.installed).map((i) => i.user_id);
    const tenants = new Set(p.state.users.filter((u) => installed.includes(u.id)).map((u) => u.tenant_id));
    expect(tenants.size).toBe(2);
    await p.revokeVersion('Fails the store review.');
    const revokedNow = () => received.filter((e) => e.event === 'app.revoked') as unknown as Record<string, unknown>[];
    await expect.poll(() => revokedNow().length).toBe(2);
    const revoked = revokedNow();
    expect(revoked.map((e) => e.tenant_id).sort()).toEqual([...tenants].sort());
    for (const e of revoked) expect(e).toMatchObject({ version: p.state.version, reason: 'Fails the store review.' });
  });
});
