// The signing secret over real HTTP: kept with the state across restarts, rotated with an overlap during which a
// backend holding both secrets verifies webhooks, and an overlap of any allowed length ending on time.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevNotice, startDevPlatform } from '../../src/dev';
import { createServerClient, verifyWebhook } from '../../src/server';
import { writeAppDir } from './appDir';

let backend: Server;
let hooks = '';
const received: Array<{ body: Buffer; headers: Record<string, unknown> }> = [];

beforeAll(async () => {
  backend = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({ body: Buffer.concat(chunks), headers: req.headers });
    res.writeHead(200).end();
  });
  await new Promise<void>((ok) => backend.listen(0, '127.0.0.1', ok));
  hooks = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise<void>((ok) => backend.close(() => ok())));

const settle = (count: number) => expect.poll(() => received.length).toBeGreaterThanOrEqual(count);

describe('the signing secret', () => {
  it('is kept with the state (mode 600) across restarts, and the terminal is told when it is new', async () => {
    const statePath = join(await mkdtemp(join(tmpdir(), 'svc-dev-')), 'state.jsonl');
    const notices: DevNotice[] = [];
    const start = () =>
      startDevPlatform({ miniAppId: 'polls', audience: 'a', statePath, onNotice: (n) => void notices.push(n) });
    let p = await start();
    const first = p.signingSecret;
    expect(notices.map((n) => n.kind)).toEqual(['secret-changed']);
    expect(notices[0]!.message).not.toContain(first);
    expect((await stat(statePath)).mode & 0o777).toBe(0o600);
    await p.close();
    p = await start();
    expect(p.signingSecret).toBe(first);
    expect(notices).toHaveLength(1);
    // A backend keeps working across the restart with the secret it had.
    const api = () => createServerClient({ baseUrl: p.baseUrl, miniAppId: 'polls', secret: first });
    expect((await api().getInstallation('au-alice')).installed).toBe(true);
    await p.rotateSecret(60);
    const rotated = p.signingSecret;
    await p.close();
    p = await start();
    expect(p.signingSecret).toBe(rotated);
    expect(p.state.secret.generation).toBe(2);
    // The old one still verifies after the restart, within its overlap.
    expect((await api().getInstallation('au-alice')).installed).toBe(true);
    expect(await readFile(statePath, 'utf8')).toContain(rotated);
    await p.close();
  });

  it('ends the earlier overlap when rotated again during it, and says so: two secrets verify at most', async () => {
    const notices: DevNotice[] = [];
    const p = await startDevPlatform({ miniAppId: 'polls', audience: 'a', onNotice: (n) => void notices.push(n) });
    const api = (secret: string) =>
      createServerClient({ baseUrl: p.baseUrl, miniAppId: 'polls', secret, retry: { max: 0 } });
    const first = p.signingSecret;
    await p.rotateSecret(3600);
    const second = p.signingSecret;
    expect(notices.at(-1)!.message).not.toMatch(/stopped verifying/);
    await p.rotateSecret(3600);
    expect(p.signingSecrets).toEqual([p.signingSecret, second]);
    expect(notices.at(-1)!.message).toMatch(/generation 1 stopped verifying now.*401/);
    for (const secret of [first, second, p.signingSecret]) expect(notices.at(-1)!.message).not.toContain(secret);
    await expect(api(first).getInstallation('au-alice')).rejects.toMatchObject({ status: 401 });
    expect((await api(second).getInstallation('au-alice')).installed).toBe(true);
    await p.close();
  });

  it('is never served by the package server, even with the state file inside the app folder', async () => {
    const dir = await writeAppDir();
    const p = await startDevPlatform({
      dir,
      statePath: join(dir, 'svc-state.json'),
      neverServe: [join(dir, 'backend.env')],
    });
    await writeFile(join(dir, 'backend.env'), `SVC_SIGNING_SECRET=${p.signingSecret}\n`);
    await writeFile(join(dir, 'svc-state.json.123.tmp'), 'x');
    for (const name of ['svc-state.json', 'svc-state.json.123.tmp', 'backend.env'])
      expect((await fetch(`${p.appOrigin}/${name}`)).status).toBe(404);
    expect((await fetch(`${p.appOrigin}/js/app.js`)).status).toBe(200);
    await p.close();
  });

  it('signs webhooks with the new secret only during the overlap, which a backend holding both verifies', async () => {
    const p = await startDevPlatform({ miniAppId: 'polls', audience: 'a', webhooks: hooks, retryScale: 0.01 });
    const old = p.signingSecret;
    // 25 days: longer than a timer can wait (24.8 days), which must not end the overlap at once.
    await p.rotateSecret(25 * 86400);
    const fresh = p.signingSecret;
    const before = received.length;
    await p.install('bob');
    await settle(before + 1);
    const delivery = received.at(-1)!;
    // One signature, as the header is defined: a literal verifier holding the new secret accepts it.
    const signature = String(delivery.headers['x-svc-signature']);
    const base = `v0:${String(delivery.headers['x-svc-request-timestamp'])}:${delivery.body.toString('utf8')}`;
    expect(signature).toBe(`v0=${createHmac('sha256', fresh).update(base).digest('hex')}`);
    expect(
      await verifyWebhook({ body: delivery.body, headers: delivery.headers as never }, { secrets: [fresh, old] }),
    ).toMatchObject({ event: 'installation.created' });
    // A backend that holds only the old secret refuses it: the 401 the webhook panel explains.
    await expect(
      verifyWebhook({ body: delivery.body, headers: delivery.headers as never }, { secrets: [old] }),
    ).rejects.toThrow(/matches none/);
    // Without an overlap the old secret stops at once.
    await p.rotateSecret(0);
    await p.grant('svc.notifications', 'bob');
    await settle(before + 2);
    const after = received.at(-1)!;
    expect(String(after.headers['x-svc-signature'])).toMatch(/^v0=[0-9a-f]{64}$/);
    await expect(
      verifyWebhook({ body: after.body, headers: after.headers as never }, { secrets: [fresh] }),
    ).rejects.toThrow(/matches none/);
    await p.close();
  });

  it("is redacted, with any token, from a backend's answer the delivery keeps (the state, the page, the state file)", async () => {
    let echoed = '';
    const token = `eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbGljZSIsImF1ZCI6InN2YyJ9.${'c2lnbmF0dXJl'.repeat(7)}`;
    // A backend under development whose error echoes what it holds.
    const debug = createServer((_req, res) => void res.writeHead(500).end(echoed));
    await new Promise<void>((ok) => debug.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(debug.address() as AddressInfo).port}/hooks`;
    const p = await startDevPlatform({ miniAppId: 'polls', audience: 'a', webhooks: url, retryScale: 0.01 });
    try {
      echoed = `signature mismatch; secret in use: ${p.signingSecret}; got Bearer ${token}`;
      await p.install('bob');
      await expect.poll(() => p.state.deliveries.at(-1)?.attempts.length ?? 0).toBeGreaterThan(0);
      const answer = p.state.deliveries.at(-1)!.attempts[0]!.response_body;
      expect(answer).toBe('signature mismatch; secret in use: [redacted]; got Bearer [redacted]');
    } finally {
      await p.close();
      await new Promise<void>((ok) => debug.close(() => ok()));
    }
  });
});
