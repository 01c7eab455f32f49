// examples/backend-python, a backend in Python's standard library only, against svc dev on loopback: it passes every
// signing and token vector, verifies the tokens svc dev issues (GET /api/whoami), verifies the webhooks svc dev sends
// (also across a rotation, holding both secrets), deletes a person's data on user.deprovisioned once (a resend is a
// duplicate), gets its signed card posted, and acknowledges every event the built `svc trigger` sends it.
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendEnv } from '../../src/cli/devCommand';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { createTokenVerifier, signRequest } from '../../src/server';
import { platformHeaders } from '../helpers/controlApi';
import { exchangeOverHttp } from '../helpers/exchangeOverHttp';
import { checkServerApiAnswer } from '../helpers/serverApiContract';

const python = spawnSync('python3', ['--version']).status === 0;
const example = resolve('examples/backend-python/svc_backend.py');
const bin = resolve('dist/cli.js');

let platform: DevPlatform;
let backend: ChildProcess;
let hooks = '';
let envPath = '';

/** Writes the env file as svc dev --backend-env does (the same list of settings). */
const writeEnv = () =>
  writeFile(
    envPath,
    Object.entries(backendEnv(platform))
      .map(([k, v]) => `${k}=${v}\n`)
      .join(''),
    { mode: 0o600 },
  );

/** Runs a command of the example; its exit code and output. */
const run = (...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
    execFile('python3', [example, ...args], (error, stdout, stderr) =>
      done({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );

/** Runs the built `svc trigger`: its exit code and output. */
const trigger = (...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
    execFile(process.execPath, [bin, 'trigger', ...args], (error, stdout, stderr) =>
      done({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );

/** The state of the delivery the platform made last for `event`, once it settled. */
async function settled(event: string) {
  const last = () => platform.state.deliveries.filter((d) => d.event === event).at(-1);
  await expect.poll(() => last()?.state, { timeout: 10_000 }).toMatch(/^(delivered|failed)$/);
  return last()!;
}

describe.runIf(python)('the Python backend example', () => {
  beforeAll(async () => {
    envPath = join(await mkdtemp(join(tmpdir(), 'svc-python-')), 'backend.env');
    backend = spawn('python3', [example, 'serve', '--env', envPath, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    hooks = await new Promise<string>((done, fail) => {
      let out = '';
      backend.stdout!.on('data', (chunk) => {
        out += chunk;
        const url = /listening on (\S+)/.exec(out)?.[1];
        if (url) done(url);
      });
      backend.once('exit', (code) => fail(new Error(`the Python backend exited with ${code}`)));
    });
    platform = await startDevPlatform({
      miniAppId: '3f1c0a9b7d2e4c68',
      audience: 'a',
      webhooks: hooks,
      retryScale: 0.001,
    });
    await writeEnv();
  });
  afterAll(async () => {
    backend?.kill();
    await platform?.close();
  });

  it('passes every signing vector', async () => {
    const { code, stdout, stderr } = await run('vectors', resolve('schema/signing-vectors.json'));
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^(\d+) of \1 signing vectors pass\n$/);
    expect(code).toBe(0);
  });

  it('passes every token vector, and fetches the key set again on an unknown kid as they say', async () => {
    const { code, stdout, stderr } = await run('tokens', resolve('schema/token-vectors.json'));
    expect(stderr).toBe('');
    expect(stdout).toMatch(
      /^(\d+) of \1 token vectors pass\nunknown kid: the key set fetched again once, at most every 30 s\n$/,
    );
    expect(code).toBe(0);
  });

  it("verifies the tokens svc dev issues at GET /api/whoami, an agent's too, and refuses a forged one", async () => {
    const whoami = (token?: string, origin?: string) =>
      fetch(`${new URL(hooks).origin}/api/whoami`, {
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(origin ? { origin } : {}) },
      });
    /** A token of the app for alice, as the runtime exchanges it: with an agent acting for her when `agent` is set. */
    const token = async (agent?: string) => {
      const answer = await exchangeOverHttp(platform, { audience: platform.audience, ...(agent ? { agent } : {}) });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { access_token: string }).access_token;
    };
    const alice = platform.state.users.find((u) => u.id === 'alice')!;
    const issued = await token();
    const mine = await whoami(issued);
    expect(mine.status).toBe(200);
    expect(await mine.json()).toEqual({ sub: alice.app_user_id, scopes: expect.any(Array) });
    const agents = await whoami(await token('agent-7'));
    expect(agents.status).toBe(200);
    expect(await agents.json()).toMatchObject({ sub: alice.app_user_id, actor: { sub: expect.any(String) } });
    // svc-sdk/server reads the same tokens the same way.
    const verifier = createTokenVerifier({
      authUrl: platform.authUrl,
      realm: platform.realm,
      audience: platform.audience,
    });
    expect((await verifier.verify(issued)).sub).toBe(alice.app_user_id);
    // A byte of the signature changed; no token at all.
    const [head, body, signature] = issued.split('.');
    const flipped = `${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    const forged = await whoami(`${head}.${body}.${flipped}`);
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(await forged.json()).toMatchObject({ error: 'bad-signature' });
    expect(await (await whoami()).json()).toMatchObject({ error: 'missing-token' });
    // The app calls from its package's origin: that origin alone is answered with CORS, its preflight too.
    const app = 'http://127.0.0.1:5173';
    await writeFile(envPath, `${await readFile(envPath, 'utf8')}SVC_APP_ORIGIN=${app}\n`);
    const preflight = (origin: string) =>
      fetch(`${new URL(hooks).origin}/api/whoami`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
    const allowed = await preflight(app);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(app);
    expect(allowed.headers.get('access-control-allow-headers')).toBe('authorization');
    expect((await preflight('http://evil.test')).status).toBe(403);
    expect((await whoami(issued, app)).headers.get('access-control-allow-origin')).toBe(app);
    expect((await whoami(issued, 'http://evil.test')).headers.get('access-control-allow-origin')).toBeNull();
    await writeEnv();
  });

  it('verifies the webhooks svc dev sends and handles user.deprovisioned once', async () => {
    const person = (id: string) => fetch(`${new URL(hooks).origin}/people/${id}`);
    await platform.install('bob');
    expect((await settled('installation.created')).state).toBe('delivered');
    const bob = platform.state.users.find((u) => u.id === 'bob')!;
    expect((await person(bob.app_user_id)).status).toBe(200);
    await platform.deprovision('bob');
    const first = await settled('user.deprovisioned');
    expect(first.state).toBe('delivered');
    expect(first.attempts.at(-1)!.response_body).toBe('{"ok": true}');
    expect((await person(bob.app_user_id)).status).toBe(404);
    // The platform's "send again": the same body, so the backend says it handled it already.
    const resend = await fetch(`${platform.origin}/__svc/deliveries/resend`, {
      method: 'POST',
      headers: platformHeaders(platform),
      body: JSON.stringify({ id: first.id }),
    });
    expect(resend.status).toBe(200);
    await expect
      .poll(() => platform.state.deliveries.find((d) => d.resend_of === first.id)?.attempts.at(-1)?.response_body)
      .toBe('{"ok": true, "duplicate": true}');
  });

  it('refuses a signed webhook holding a lone surrogate, as svc-sdk/server does', async () => {
    // `\ud800` in the JSON text: an escape without its low half (the bytes themselves are ASCII).
    const body = `{"event":"user.deprovisioned","occurred_at":"${new Date().toISOString()}","mini_app_id":"${platform.miniAppId}","tenant_id":"acme","app_user_id":"au-\\ud800"}`;
    const response = await fetch(hooks, {
      method: 'POST',
      headers: await signRequest({ body, secret: platform.signingSecret, miniAppId: platform.miniAppId }),
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid-payload' });
  });

  it('signs a server API call that svc dev accepts: the card is posted', async () => {
    const alice = platform.state.users.find((u) => u.id === 'alice')!;
    const room = platform.state.rooms.find((r) => !r.is_encrypted && r.members.includes('alice'))!;
    const { code, stdout, stderr } = await run(
      'post-card',
      '--env',
      envPath,
      '--room',
      room.id,
      '--user',
      alice.app_user_id,
      '--title',
      'Lunch? 🍕',
      '--body',
      'Vote by noon',
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^201 \{"event_id":"\$[\w-]+"\}\n$/);
    // The answer, as the Python backend printed it, is the contract's.
    const [status, answer] = [Number(stdout.slice(0, 3)), JSON.parse(stdout.slice(4))];
    expect(
      checkServerApiAnswer({
        method: 'POST',
        path: `/v1/rooms/${room.id}/cards`,
        status,
        headers: new Headers({ 'content-type': 'application/json' }),
        body: answer,
      }),
    ).toEqual([]);
    expect(room.timeline.at(-1)).toMatchObject({
      kind: 'card',
      app_user_id: alice.app_user_id,
      card: { title: 'Lunch? 🍕' },
    });
    // A refusal is reported with the problem's detail.
    const encrypted = platform.state.rooms.find((r) => r.is_encrypted)!;
    const refused = await run(
      'post-card',
      '--env',
      envPath,
      '--room',
      encrypted.id,
      '--user',
      alice.app_user_id,
      '--title',
      'x',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^409 \S+\/room-encrypted: The room is end-to-end encrypted/);
  });

  // svc trigger was tested against svc-sdk/server's own verifier; here a verifier written from the contract alone.
  it.runIf(existsSync(bin))(
    'acknowledges every event svc trigger sends, and refuses one signed with another secret',
    async () => {
      const events = ['installation.created', 'scope.granted', 'scope.revoked', 'installation.deleted', 'app.revoked'];
      for (const event of events) {
        // app.revoked is about the app, so it names no person.
        const about = event === 'app.revoked' ? [] : ['--set', 'app_user_id=au-trigger'];
        const sent = await trigger(event, '--to', hooks, '--backend-env', envPath, ...about);
        expect(sent.stderr, event).toBe('');
        expect(sent.stdout).toMatch(
          // The body as sent: JSON indented by two spaces (a body parsed and written again would not verify).
          new RegExp(
            `^POST \\S+  ${event.replace('.', '\\.')}\n\\{\n  "event": "${event.replace('.', '\\.')}",\n[^]*\n\\}\n<-- 200 OK in \\d+ ms\n\\{"ok": true\\}\n$`,
          ),
        );
        expect(sent.code).toBe(0);
      }
      // installation.created stored the person; user.deprovisioned, sent with a fresh timestamp, deletes them.
      const person = () => fetch(`${new URL(hooks).origin}/people/au-trigger`);
      await trigger('installation.created', '--to', hooks, '--backend-env', envPath, '--set', 'app_user_id=au-trigger');
      expect((await person()).status).toBe(200);
      const deleted = await trigger(
        'user.deprovisioned',
        '--to',
        hooks,
        '--backend-env',
        envPath,
        '--set',
        'app_user_id=au-trigger',
      );
      expect(deleted.code, deleted.stderr).toBe(0);
      expect((await person()).status).toBe(404);
      const dir = await mkdtemp(join(tmpdir(), 'svc-python-wrong-'));
      await writeFile(join(dir, 'secret.txt'), 'whsec_not_the_backends\n');
      const refused = await trigger('scope.granted', '--to', hooks, '--secret-file', join(dir, 'secret.txt'));
      expect(refused.code).toBe(1);
      expect(refused.stdout).toMatch(/<-- 401 Unauthorized in \d+ ms/);
      expect(refused.stderr).toMatch(/answered 401, not a 2xx/);
    },
  );

  it('keeps verifying across a secret rotation, holding both secrets from the rewritten env file', async () => {
    await platform.rotateSecret();
    await writeEnv();
    await platform.grant('svc.notifications', 'alice');
    expect((await settled('scope.granted')).state).toBe('delivered');
    // Its server API call, signed with the new secret, is accepted too.
    const room = platform.state.rooms.find((r) => !r.is_encrypted && r.members.includes('alice'))!;
    const alice = platform.state.users.find((u) => u.id === 'alice')!;
    expect(
      (await run('post-card', '--env', envPath, '--room', room.id, '--user', alice.app_user_id, '--title', 'After'))
        .code,
    ).toBe(0);
  });
});
