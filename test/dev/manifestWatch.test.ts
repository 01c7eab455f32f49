// svc dev follows manifest.json across a rebuild that removes the app's folder and writes it anew (`rm -rf dist`,
// then the build): the watch moves to the new folder, and an edit after it is served. An edited version is the one
// served; an edited id is refused (another app).
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { type DevNotice, type DevPlatform, startDevPlatform } from '../../src/dev';
import { writeAppDir } from './appDir';
import { exchangeOverHttp } from '../helpers/exchangeOverHttp';
import { createServerClient } from '../../src/server';

let platform: DevPlatform | undefined;
afterEach(() => platform?.close());

/** Sets the manifest's version in the folder's manifest.json. */
async function setVersion(dir: string, version: string) {
  const file = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(file, 'utf8'));
  await writeFile(file, JSON.stringify({ ...manifest, version }, null, 2));
}

it.each([
  ['removed, then written anew at once', false],
  ['removed, and written anew a second later', true],
])('follows manifest.json when its folder is %s', async (_, pause) => {
  const dir = await writeAppDir();
  const build = join(tmpdir(), `svc-build-${Date.now()}-${pause}`);
  await cp(dir, build, { recursive: true });
  const notices: DevNotice[] = [];
  platform = await startDevPlatform({ dir, port: 0, mcp: false, onNotice: (n) => void notices.push(n) });
  await rm(dir, { recursive: true });
  if (pause) {
    await expect.poll(() => notices.at(-1)?.message ?? '').toContain('manifest.json is not there');
    // Not the starter's advice: `svc init` would write a new app over the build.
    expect(notices.at(-1)?.message).not.toContain('svc init');
  }
  await cp(build, dir, { recursive: true });
  await setVersion(dir, '9.9.9');
  await expect.poll(() => platform!.manifest?.version, { timeout: 5000 }).toBe('9.9.9');
  // And the next edit too: the watch is on the new folder.
  await setVersion(dir, '9.9.10');
  await expect.poll(() => platform!.manifest?.version, { timeout: 5000 }).toBe('9.9.10');
  expect(notices.map((n) => n.kind)).toContain('manifest-edited');
});

it('serves an edited version as the one events name, and refuses an edit of the id', async () => {
  const dir = await writeAppDir();
  const notices: DevNotice[] = [];
  platform = await startDevPlatform({ dir, port: 0, mcp: false, onNotice: (n) => void notices.push(n) });
  const id = platform.manifest!.id;
  await setVersion(dir, '2.0.0');
  await expect.poll(() => platform!.state.version).toBe('2.0.0');
  const file = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(file, 'utf8'));
  await writeFile(file, JSON.stringify({ ...manifest, id: '1111111111111111' }));
  await expect.poll(() => notices.at(-1)?.kind).toBe('manifest-invalid');
  expect(notices.at(-1)!.message).toContain(
    `the id changed from ${id} to 1111111111111111, which makes it another mini app, with its own state and keys: put the id back, or restart svc dev to run the other one (with another --state).`,
  );
  expect(platform.manifest!.id).toBe(id);
});

it('says when an edit changes auth.audience, which the token exchange takes at the next start', async () => {
  const dir = await writeAppDir();
  const notices: DevNotice[] = [];
  platform = await startDevPlatform({ dir, port: 0, mcp: false, onNotice: (n) => void notices.push(n) });
  const file = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(file, 'utf8'));
  const started = manifest.auth.audience;
  await writeFile(file, JSON.stringify({ ...manifest, auth: { ...manifest.auth, audience: 'polls-api-v2' } }, null, 2));
  await expect
    .poll(() => notices.at(-1)?.message ?? '')
    .toBe(
      `manifest.json changed: serving it now; open pages reload with it. Its auth.audience is "polls-api-v2": tokens are still exchanged for ${JSON.stringify(started)}, the one svc dev started with, until it restarts.`,
    );
  expect(platform.audience).toBe(started);
  // Switched to a mode without an audience: said as the mode (week45 F3: "Its auth.audience is \"\"").
  await writeFile(file, JSON.stringify({ ...manifest, auth: { type: 'none' } }, null, 2));
  await expect
    .poll(() => notices.at(-1)?.message ?? '')
    .toContain(`Its auth (type "none") has no audience: tokens are still exchanged for ${JSON.stringify(started)}`);
});

it("serves a build tool's burst of manifests once a second, the newest, and reports no write or removal caught half done", async () => {
  const dir = await writeAppDir();
  const notices: DevNotice[] = [];
  platform = await startDevPlatform({ dir, port: 0, mcp: false, onNotice: (n) => void notices.push(n) });
  const file = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(file, 'utf8'));
  // Four builds a second for five seconds, each writing the file as most tools do: emptied, then written, each step
  // long enough for the watch's debounce to read it.
  const started = Date.now();
  for (let build = 1; build <= 20; build++) {
    await writeFile(file, '');
    await new Promise((r) => setTimeout(r, 130));
    await writeFile(file, JSON.stringify({ ...manifest, description: `The app of build ${build}` }, null, 2));
    await new Promise((r) => setTimeout(r, 130));
  }
  await expect.poll(() => platform!.manifest?.description, { timeout: 5000 }).toBe('The app of build 20');
  const seconds = (Date.now() - started) / 1000;
  const edits = notices.filter((n) => n.kind === 'manifest-edited');
  // One a second at most (each reloads every open page), and never a false "not JSON".
  expect(edits.length).toBeGreaterThan(0);
  expect(edits.length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
  expect(notices.filter((n) => n.kind === 'manifest-invalid')).toEqual([]);
  // Builds that remove the file and write it again a moment later: it was never missing for the developer.
  for (let build = 21; build <= 25; build++) {
    await rm(file);
    await new Promise((r) => setTimeout(r, 130));
    await writeFile(file, JSON.stringify({ ...manifest, description: `The app of build ${build}` }, null, 2));
    await new Promise((r) => setTimeout(r, 130));
  }
  await expect.poll(() => platform!.manifest?.description, { timeout: 5000 }).toBe('The app of build 25');
  expect(notices.filter((n) => n.kind === 'manifest-invalid')).toEqual([]);
  // A file that stays broken is still reported.
  await writeFile(file, '{');
  await expect.poll(() => notices.at(-1)?.kind, { timeout: 5000 }).toBe('manifest-invalid');
});

it('revokes the grants of a scope the edited manifest no longer declares, tells the backend, and asks again once declared again', async () => {
  const events: { event: string; scope?: string; app_user_id?: string }[] = [];
  const backend = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    events.push(JSON.parse(body));
    res.writeHead(200).end('{}');
  }).listen(0, '127.0.0.1');
  await new Promise((listening) => backend.once('listening', listening));
  try {
    const dir = await writeAppDir();
    const notices: DevNotice[] = [];
    platform = await startDevPlatform({
      dir,
      port: 0,
      mcp: false,
      webhooks: `http://127.0.0.1:${(backend.address() as AddressInfo).port}/hooks`,
      onNotice: (n) => void notices.push(n),
    });
    await platform.grant('svc.files.read');
    const file = join(dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(file, 'utf8'));
    const without = manifest.permissions.filter((p: { scope: string }) => p.scope !== 'svc.files.read');
    await writeFile(file, JSON.stringify({ ...manifest, version: '1.0.1', permissions: without }));
    await expect.poll(() => notices.at(-1)?.kind, { timeout: 5000 }).toBe('grants-revoked');
    expect(notices.at(-1)!.message).toBe(
      `the manifest no longer declares svc.files.read (granted by ${platform.state.settings.current_user_id}): revoked, and scope.revoked sent to the backend; a version that declares it again asks the person again.`,
    );
    expect(platform.state.grants.flatMap((g) => g.scopes)).not.toContain('svc.files.read');
    await expect.poll(() => events.map((e) => `${e.event} ${e.scope}`)).toContain('scope.revoked svc.files.read');
    // Declared again, it is not granted again by itself: the person is asked.
    await writeFile(file, JSON.stringify({ ...manifest, version: '1.0.2' }));
    await expect.poll(() => platform!.state.version).toBe('1.0.2');
    expect(platform.state.grants.flatMap((g) => g.scopes)).not.toContain('svc.files.read');
  } finally {
    backend.close();
  }
});

it('revokes at the start the grants a state file holds of a scope the manifest no longer declares', async () => {
  const dir = await writeAppDir();
  const statePath = join(dir, '..', `${Date.now()}-state.jsonl`);
  platform = await startDevPlatform({ dir, port: 0, mcp: false, statePath });
  await platform.grant('svc.files.write');
  await platform.close();
  const file = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(file, 'utf8'));
  const without = manifest.permissions.filter((p: { scope: string }) => p.scope !== 'svc.files.write');
  await writeFile(file, JSON.stringify({ ...manifest, permissions: without }));
  const notices: DevNotice[] = [];
  platform = await startDevPlatform({ dir, port: 0, mcp: false, statePath, onNotice: (n) => void notices.push(n) });
  expect(notices.map((n) => n.kind)).toContain('grants-revoked');
  expect(platform.state.grants.flatMap((g) => g.scopes)).not.toContain('svc.files.write');
});

it('tells an exchange for an edited auth.audience that svc dev takes it after a restart (week45 F2)', async () => {
  const dir = await writeAppDir();
  platform = await startDevPlatform({ dir, port: 0, mcp: false });
  const started = platform.audience;
  const file = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(file, 'utf8'));
  await writeFile(
    file,
    JSON.stringify({ ...manifest, version: '1.0.1', auth: { ...manifest.auth, audience: 'edited-api' } }),
  );
  await expect.poll(() => platform!.state.version).toBe('1.0.1');
  const answer = await exchangeOverHttp(platform, { audience: 'edited-api' });
  expect(answer.status).toBe(400);
  expect(((await answer.json()) as { error_description: string }).error_description).toBe(
    `audience "edited-api" is not this mini app's yet: svc dev exchanges tokens for "${started}", the auth.audience it started with, until it restarts; restart svc dev to use "edited-api".`,
  );
});

it('answers a notify for a scope the manifest served does not declare with the way out, not "ask the person" (recheck46 F3)', async () => {
  const dir = await writeAppDir();
  platform = await startDevPlatform({ dir, port: 0, mcp: false });
  const api = createServerClient({
    baseUrl: platform.baseUrl,
    miniAppId: platform.manifest!.id,
    secret: platform.signingSecret,
  });
  const user = platform.state.users.find((u) => u.id === platform!.state.settings.current_user_id)!;
  const refused = await api.notify(user.app_user_id, { title: 't', body: 'b', deep_link: '/' }).catch((e: Error) => e);
  expect(refused).toMatchObject({ status: 403, problem: 'scope-not-granted' });
  expect((refused as Error).message).toContain(
    "The manifest served does not declare svc.notifications, so no person can grant it: declare it in the manifest's permissions (a new version), then the person grants it in the app.",
  );
});
