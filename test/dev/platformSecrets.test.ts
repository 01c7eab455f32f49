// The signing secret over real HTTP: kept with the state across restarts, rotated with an overlap during which a
// backend configured with either secret verifies webhooks, and an overlap of any allowed length ending on time.
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

  it('signs webhooks with both secrets during the overlap, so a backend on either verifies', async () => {
    const p = await startDevPlatform({ miniAppId: 'polls', audience: 'a', webhooks: hooks, retryScale: 0.01 });
    const old = p.signingSecret;
    // 25 days: longer than a timer can wait (24.8 days), which must not end the overlap at once.
    await p.rotateSecret(25 * 86400);
    const fresh = p.signingSecret;
    const before = received.length;
    await p.install('bob');
    await settle(before + 1);
    const delivery = received.at(-1)!;
    expect(String(delivery.headers['x-svc-signature'])).toMatch(/^v0=[0-9a-f]{64},v0=[0-9a-f]{64}$/);
    for (const secrets of [[old], [fresh]])
      expect(
        await verifyWebhook({ body: delivery.body, headers: delivery.headers as never }, { secrets }),
      ).toMatchObject({
        event: 'installation.created',
      });
    // Without an overlap the old secret stops at once, and webhooks carry one signature again.
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
});
