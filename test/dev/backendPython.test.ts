// examples/backend-python, a backend in Python's standard library only, against svc dev on loopback: it passes every
// signing vector, verifies the webhooks svc dev sends (also across a rotation, holding both secrets), deletes a
// person's data on user.deprovisioned once (a resend is a duplicate), gets its signed card posted, and acknowledges
// every event the built `svc trigger` sends it.
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendEnv } from '../../src/cli/devCommand';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { platformHeaders } from '../helpers/controlApi';
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
