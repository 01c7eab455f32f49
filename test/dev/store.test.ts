// The local store of svc dev, through HTTP on loopback as `svc publish` and the messenger's settings reach it: a
// package verified before it runs and served alone with its CSP, the id bound to its key, rotation by two
// signatures, versions compared as integers against the highest ever accepted (revoked ones included), one upload
// at a time, tenant-private distribution, and the store kept in the state file across a restart.
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { DeveloperKey } from '../../src/cli/developerKeys';
import { idOfKey } from '../../src/cli/developerKeys';
import { packApp } from '../../src/cli/packApp';
import { type DevEvent, type DevPlatform, formatDevEvent, PAGE_START_ID, startDevPlatform } from '../../src/dev';
import { writeAppDir } from './appDir';

const newKey = (): DeveloperKey => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { file: 'key.pem', privateKey, publicKey, id: idOfKey(publicKey) };
};

/** Packs an app of `id` at `version` (the page says which version it is), signed by `keys`. */
async function pack(
  id: string,
  version: string,
  keys: DeveloperKey[],
  change: (m: Record<string, any>) => void = () => {},
  files: Record<string, string> = {},
) {
  const dir = await writeAppDir((m) => {
    m.id = id;
    m.version = version;
    change(m);
  });
  await writeFile(join(dir, 'index.html'), `<!doctype html><html><head></head><body>version ${version}</body></html>`);
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  for (const icon of manifest.icons) {
    await mkdir(dirname(join(dir, icon.src)), { recursive: true });
    await writeFile(join(dir, icon.src), 'png');
  }
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  const packed = await packApp({ dir, keys, rotated: !keys.some((k) => k.id === id) });
  if (!packed.ok) throw new Error(packed.problems.join('\n'));
  return packed.bytes;
}

async function writePackage(bytes: Uint8Array): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'svc-store-')), 'app.swbn');
  await writeFile(file, bytes);
  return file;
}

/** An app folder of `id` at `version`, whose page says it is the folder's. */
async function folderOf(id: string, version: string): Promise<string> {
  const dir = await writeAppDir((m) => {
    m.id = id;
    m.version = version;
  });
  await writeFile(join(dir, 'index.html'), '<!doctype html><html><head></head><body>folder</body></html>');
  return dir;
}

/** Whether the platform serves the app folder's page ({@link folderOf}) or a package's. */
const servedFrom = async (platform: DevPlatform) =>
  (await (await fetch(platform.appUrl)).text()).includes('folder') ? 'folder' : 'store';

const running: DevPlatform[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.close()));
});
async function start(bytes: Uint8Array, statePath?: string, onEvent?: (event: DevEvent) => void) {
  const platform = await startDevPlatform({
    package: await writePackage(bytes),
    port: 0,
    mcp: false,
    statePath,
    onEvent,
  });
  running.push(platform);
  return platform;
}
/** An upload as svc publish sends it, or with `streamed` as a stream of unknown length (`Transfer-Encoding: chunked`). */
const publish = (platform: DevPlatform, bytes: Uint8Array, token = platform.publishToken, { streamed = false } = {}) =>
  fetch(`${platform.origin}/__svc/store/packages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    body: streamed ? new Blob([new Uint8Array(bytes)]).stream() : new Uint8Array(bytes),
    duplex: 'half',
  } as RequestInit).then(async (r) => ({
    status: r.status,
    type: r.headers.get('content-type'),
    body: await r.json(),
  }));

describe('svc dev with a signed package', () => {
  it('serves the package files only, with the manifest CSP, and refuses a tampered package naming the check', async () => {
    const key = newKey();
    const bytes = await pack(key.id, '1.0.0', [key]);
    const platform = await start(bytes);
    const page = await fetch(platform.appUrl);
    expect(await page.text()).toContain('version 1.0.0');
    expect(page.headers.get('content-security-policy')).toContain("object-src 'none'");
    const script = await fetch(new URL('/js/app.js', platform.appUrl));
    expect(script.status).toBe(200);
    // Every file of the package carries the policies, not its pages alone (an SVG runs scripts too).
    expect(script.headers.get('content-security-policy')).toContain("object-src 'none'");
    // A byte range of a packaged file, as a media element asks to seek.
    const part = await fetch(new URL('/js/app.js', platform.appUrl), { headers: { range: 'bytes=0-10' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 0-10/19');
    expect(await part.text()).toBe('console.log');
    // The folder the package sits in is not served: only the package's files are.
    expect((await fetch(new URL('/app.swbn', platform.appUrl))).status).toBe(404);
    expect((await fetch(new URL('/.env', platform.appUrl))).status).toBe(404);

    const tampered = bytes.slice();
    tampered[bytes.length - 40]! ^= 1;
    await expect(startDevPlatform({ package: await writePackage(tampered), port: 0, mcp: false })).rejects.toThrow(
      /is not a package a host would run \(bad-signature\)/,
    );
  });
});

describe('the local store', () => {
  it("serves no file of a package that holds this run's secrets, published or started with (sec44 F3)", async () => {
    const key = newKey();
    const platform = await start(await pack(key.id, '1.0.0', [key]));
    // svc pack cannot know the running svc dev's secrets, so a package may carry them: the store accepts it, and
    // the package origin refuses those files as it refuses them in a folder.
    const bytes = await pack(key.id, '1.0.1', [key], undefined, {
      'secret.txt': `SECRET=${platform.signingSecret}\n`,
      'launch.txt': platform.url.split('token=')[1]!,
      'notes.txt': 'nothing secret',
    });
    expect((await publish(platform, bytes)).status).toBe(201);
    expect(await (await fetch(platform.appUrl)).text()).toContain('version 1.0.1');
    for (const name of ['secret.txt', 'launch.txt']) {
      const res = await fetch(new URL(`/${name}`, platform.appUrl));
      const body = await res.text();
      expect(res.status, name).toBe(404);
      expect(body, name).toContain(`${name} holds a secret of the running svc dev`);
      expect(body, name).toContain('svc dev does not serve it');
      expect(body, name).not.toContain(platform.signingSecret);
    }
    expect(await (await fetch(new URL('/notes.txt', platform.appUrl))).text()).toBe('nothing secret');
  });

  it('accepts only higher versions, compared as integers against the highest ever accepted, and serves them', async () => {
    const key = newKey();
    const events: DevEvent[] = [];
    const platform = await start(await pack(key.id, '1.9.0', [key]), undefined, (event) => events.push(event));
    expect(platform.state.store).toMatchObject({ key_id: key.id, highest: '1.9.0' });
    await platform.install('alice');

    // The same bytes again (a retried CI step) are told apart from a changed app under the same version.
    const again = await publish(platform, await pack(key.id, '1.9.0', [key]));
    expect(again.status).toBe(409);
    expect(again.type).toBe('application/problem+json');
    expect(again.body).toMatchObject({ version: '1.9.0', status: 409, title: 'This package is already published' });
    expect(again.body.type).toMatch(/\/errors\/store\/already-published$/);
    expect(again.body.detail).toMatch(
      new RegExp(
        `^This package is ${key.id} 1\\.9\\.0 as the store accepted it at .* \\(the same bytes, sha256 [0-9a-f]{64}\\): nothing to publish again\\. A changed app needs a higher version, such as 1\\.9\\.1\\.$`,
      ),
    );
    const equal = await publish(
      platform,
      await pack(key.id, '1.9.0', [key], (m) => {
        m.description = 'A changed build under the same version.';
      }),
    );
    expect(equal.status).toBe(409);
    expect(equal.type).toBe('application/problem+json');
    expect(equal.body).toMatchObject({ version: '1.9.0', highest: '1.9.0', status: 409 });
    expect(equal.body.detail).toContain('Version 1.9.0 is not higher than 1.9.0');
    expect(equal.body.detail).toContain('1.9.0 was published with other bytes: a changed app is a new version.');

    const higher = await publish(platform, await pack(key.id, '1.10.0', [key]));
    expect(higher.status).toBe(201);
    expect(higher.body).toMatchObject({ id: key.id, version: '1.10.0', key_id: key.id, signers: [key.id] });
    expect(platform.state.version).toBe('1.10.0');
    expect(platform.state.installations.find((i) => i.user_id === 'alice')?.version).toBe('1.10.0');
    expect(await (await fetch(platform.appUrl)).text()).toContain('version 1.10.0');

    const lower = await publish(platform, await pack(key.id, '1.9.5', [key]));
    expect(lower.status).toBe(409);
    expect(lower.body.detail).toContain('Version 1.9.5 is not higher than 1.10.0');
    expect(platform.state.store?.versions.map((v) => v.version)).toEqual(['1.9.0', '1.10.0']);
    // The terminal of svc dev says which version it serves from now on (the one it started with is in its start
    // line); a refused upload is said to the one who sent it.
    const told = events.filter((e) => e.type === 'store');
    expect(told).toEqual([{ type: 'store', version: '1.10.0', signers: [key.id], key_id: key.id }]);
    expect(formatDevEvent(told[0]!)).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d  store    accepted version 1\\.10\\.0, signed by ${key.id}: installed and served from now on$`,
      ),
    );
  });

  it('serves the new manifest before the page hears of the version: a page reloaded for it launches the app with it', async () => {
    const key = newKey();
    const statePath = join(await mkdtemp(join(tmpdir(), 'svc-store-state-')), 'state.json');
    const platform = await start(await pack(key.id, '1.0.0', [key]), statePath);
    /** The version of the manifest the messenger page's HTML carries, which the app's launch (svc.app.version) names. */
    const pageVersion = async () => {
      const html = await (await fetch(platform.url)).text();
      const start = new RegExp(`<script type="application/json" id="${PAGE_START_ID}">(.*?)</script>`, 's').exec(html);
      return JSON.parse(start![1]!).config.manifest.version as string;
    };
    expect(await pageVersion()).toBe('1.0.0');
    const token = new URL(platform.url).searchParams.get('token')!;
    const socket = new WebSocket(`${platform.origin.replace('http:', 'ws:')}/__svc/channel?token=${token}`, {
      origin: platform.origin,
    });
    const messages: string[] = [];
    const heard = new Promise<void>((ok) => socket.on('message', (data) => messages.push(String(data)) === 1 && ok()));
    await heard;
    // As the page does: the first message after the upload is the new state, and the page reloads at once.
    const reloaded = new Promise<string>((ok) => socket.once('message', () => ok(pageVersion())));
    const accepted = publish(platform, await pack(key.id, '1.1.0', [key]));
    expect(await reloaded).toBe('1.1.0');
    expect((await accepted).status).toBe(201);
    socket.close();
  });

  it('counts a revoked version: it cannot be published again, and the next version clears the revocation', async () => {
    const key = newKey();
    const platform = await start(await pack(key.id, '2.0.0', [key]));
    await platform.revokeVersion('a bad release');
    expect(platform.state.store?.versions[0]?.revoked).toBe(true);
    const again = await publish(platform, await pack(key.id, '2.0.0', [key]));
    expect(again.status).toBe(409);
    // The same bytes: already published, and said to be revoked, so a retried step does not read as a release.
    expect(again.body.detail).toContain(
      'and that version was revoked: the messenger does not open it: nothing to publish again',
    );
    const next = await publish(platform, await pack(key.id, '2.0.1', [key]));
    expect(next.status).toBe(201);
    expect(platform.state.version_revoked).toBe(false);
    expect(platform.state.store?.versions).toMatchObject([{ version: '2.0.0', revoked: true }, { version: '2.0.1' }]);
  });

  it('binds the id to its first key; a release signed by the old and a new key moves it, then the old key is refused', async () => {
    const old = newKey();
    const next = newKey();
    const platform = await start(await pack(old.id, '1.0.0', [old]));
    // The id is derived from no signer, and no signer is the bound key: the store's refusal, not a broken package.
    const stranger = await publish(platform, await pack(old.id, '1.0.1', [next]));
    expect(stranger.status).toBe(403);
    expect(stranger.body).toMatchObject({ code: 'untrusted-key', bound_key_id: old.id });
    expect(stranger.body.detail).toBe(
      `The id ${old.id} is bound to the key ${old.id}, and no key that signed the package is it. Sign with the bound key; to move to a new key, sign one release with both (svc pack --key old.pem --key new.pem).`,
    );

    const rotation = await publish(platform, await pack(old.id, '1.1.0', [old, next]));
    expect(rotation.status).toBe(201);
    expect(rotation.body).toMatchObject({ key_id: next.id, signers: [old.id, next.id] });
    expect(platform.state.store?.key_id).toBe(next.id);

    const oldAlone = await publish(platform, await pack(old.id, '1.2.0', [old]));
    expect(oldAlone.status).toBe(403);
    expect(oldAlone.body.detail).toContain(
      `moved from the key ${old.id}, which signed the package, to ${next.id} in a rotation`,
    );
    const newAlone = await publish(platform, await pack(old.id, '1.2.0', [next]));
    expect(newAlone.status).toBe(201);
  });

  it('never moves the id back: a later release signed by the old and the new key again keeps the new one bound', async () => {
    const old = newKey();
    const next = newKey();
    const events: DevEvent[] = [];
    const platform = await start(await pack(old.id, '1.0.0', [old]), undefined, (e) => events.push(e));
    expect((await publish(platform, await pack(old.id, '1.1.0', [old, next]))).status).toBe(201);
    // A CI job that still passes both --key flags: accepted as the bound key's release, and said so.
    const again = await publish(platform, await pack(old.id, '1.2.0', [old, next]));
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ key_id: next.id, signers: [old.id, next.id] });
    expect(again.body.warning).toBe(
      `${old.id} also signed it, a key this id moved away from: the id stays bound to ${next.id}. Sign with ${next.id} alone (svc pack <the app folder> --key <its file> --rotated).`,
    );
    expect(platform.state.store).toMatchObject({ key_id: next.id, retired_keys: [expect.any(String)] });
    expect((await publish(platform, await pack(old.id, '1.3.0', [old]))).status).toBe(403);
    expect((await publish(platform, await pack(old.id, '1.3.0', [next]))).status).toBe(201);
    // The terminal says when the id moved, and warns of the old key's signature.
    const lines = events.filter((e) => e.type === 'store').map((e) => formatDevEvent(e));
    expect(lines[0]).toMatch(
      new RegExp(`\\n\\d\\d:\\d\\d:\\d\\d  store    the id moved from key ${old.id} to ${next.id} \\(a rotation\\)$`),
    );
    expect(lines[1]).toMatch(new RegExp(`\\n\\d\\d:\\d\\d:\\d\\d  warning  ${old.id} also signed it`));
    expect(lines[2]).not.toContain('\n');
  });

  it('takes a package streamed without its length (a CI step piping the file), and answers 413 to one too big', async () => {
    const key = newKey();
    const platform = await start(await pack(key.id, '1.0.0', [key]));
    const streamed = await publish(platform, await pack(key.id, '1.0.1', [key]), undefined, { streamed: true });
    expect(streamed.status).toBe(201);
    expect(platform.state.store?.versions.at(-1)).toMatchObject({ version: '1.0.1' });
    const huge = await publish(platform, new Uint8Array(32 * 1024 * 1024 + 1), undefined, { streamed: true });
    expect(huge.status).toBe(413);
    expect(platform.state.store?.versions).toHaveLength(2);
  });

  /** What svc dev says at a start on `dir` with the state file (it runs on until the test ends). */
  async function noticesAtStart(dir: string, statePath: string): Promise<string[]> {
    const notices: string[] = [];
    const platform = await startDevPlatform({
      dir,
      port: 0,
      mcp: false,
      statePath,
      onNotice: (n) => void notices.push(n.message),
    });
    running.push(platform);
    return notices;
  }

  it('says at the start that the folder runs a version the store revoked (week45 F11)', async () => {
    const key = newKey();
    const statePath = join(await mkdtemp(join(tmpdir(), 'svc-store-')), 'state.jsonl');
    const first = await start(await pack(key.id, '2.0.0', [key]), statePath);
    await first.revokeVersion('a bad release');
    expect((await publish(first, await pack(key.id, '2.0.1', [key]))).status).toBe(201);
    await first.close();
    const dir = await writeAppDir((m) => {
      m.id = key.id;
      m.version = '2.0.0';
    });
    const notices = await noticesAtStart(dir, statePath);
    expect(notices).toContain(
      'version 2.0.0, which the app folder runs, was revoked in this store: svc dev serves the folder anyway, but a host would not open that version; give the folder a version higher than 2.0.1 to publish it.',
    );
  });

  it('says at the start that the app stays revoked after Revoke version, on a folder never published (recheck47 F2)', async () => {
    const statePath = join(await mkdtemp(join(tmpdir(), 'svc-store-')), 'state.jsonl');
    const dir = await writeAppDir((m) => {
      m.version = '3.1.0';
    });
    const first = await startDevPlatform({ dir, port: 0, mcp: false, statePath });
    await first.revokeVersion('a bad release');
    await first.close();
    const notices = await noticesAtStart(dir, statePath);
    expect(notices).toEqual([
      'version 3.1.0 was revoked (Revoke version): the messenger does not open the app and the server API answers 409 version-revoked until the store accepts a higher signed package (svc publish), or svc dev starts with --reset.',
    ]);
    await Promise.all(running.splice(0).map((p) => p.close()));
    // The folder's version edited: the revocation holds, and the line names both (recheck48b F2).
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, version: '3.2.0' }));
    expect((await noticesAtStart(dir, statePath))[0]).toMatch(
      /^version 3\.1\.0 was revoked \(Revoke version\), and the revocation holds for the 3\.2\.0 served now: /,
    );
  });

  it('started on a package, serves that package again after a reset, not one published since (recheck47 F5)', async () => {
    const key = newKey();
    const platform = await start(await pack(key.id, '1.0.0', [key]));
    // The page says which version it is.
    const served = async () => /version ([\d.]+)/.exec(await (await fetch(platform.appUrl)).text())?.[1];
    expect(await served()).toBe('1.0.0');
    await platform.reset();
    expect([await served(), platform.state.version]).toEqual(['1.0.0', '1.0.0']);
    expect((await publish(platform, await pack(key.id, '1.1.0', [key]))).status).toBe(201);
    expect([await served(), platform.state.version]).toEqual(['1.1.0', '1.1.0']);
    await platform.reset();
    expect([await served(), platform.state.version, platform.state.store]).toEqual(['1.0.0', '1.0.0', undefined]);
  });

  it('started from a folder, refuses a first upload lower than the version the folder runs', async () => {
    const key = newKey();
    const dir = await writeAppDir((m) => {
      m.id = key.id;
      m.version = '1.2.0';
    });
    const platform = await startDevPlatform({ dir, port: 0, mcp: false });
    running.push(platform);
    const lower = await publish(platform, await pack(key.id, '1.1.9', [key]));
    expect(lower.status).toBe(409);
    expect(lower.body.detail).toBe(
      'Version 1.1.9 is lower than 1.2.0, the version svc dev runs now (from the app folder): publish 1.2.0 or a higher version.',
    );
    expect(platform.state.store).toBeUndefined();
    // The folder's own version, packed, is its first release.
    expect((await publish(platform, await pack(key.id, '1.2.0', [key]))).status).toBe(201);
  });

  it('started from a folder, serves the folder again after a reset, and takes its version as the one to exceed (recheck47 F5)', async () => {
    const key = newKey();
    const dir = await folderOf(key.id, '0.1.0');
    const notices: string[] = [];
    const platform = await startDevPlatform({
      dir,
      port: 0,
      mcp: false,
      onNotice: (n) => void notices.push(n.message),
    });
    running.push(platform);
    const page = () => servedFrom(platform);
    expect((await publish(platform, await pack(key.id, '0.2.0', [key]))).status).toBe(201);
    expect([await page(), platform.state.version]).toEqual(['store', '0.2.0']);
    await platform.reset();
    expect([await page(), platform.state.version, platform.state.store]).toEqual(['folder', '0.1.0', undefined]);
    expect(platform.state.installations.every((i) => i.version === '0.1.0')).toBe(true);
    expect(notices).toContain(
      "Reset cleared the store's record: serving the app folder again (version 0.1.0), not the package of 0.2.0; open pages reload with it.",
    );
    // What the store compares a version with is the folder's again: 0.1.1 is higher.
    expect((await publish(platform, await pack(key.id, '0.1.1', [key]))).status).toBe(201);
    expect(platform.state.version).toBe('0.1.1');
  });

  it('started from a folder, serves a published version until the folder is rebuilt, then the folder again', async () => {
    const key = newKey();
    const dir = await folderOf(key.id, '1.2.0');
    const notices: string[] = [];
    const events: DevEvent[] = [];
    const statePath = join(await mkdtemp(join(tmpdir(), 'svc-store-state-')), 'state.json');
    // svc dev on the folder, with one state file over restarts.
    const onFolder = async () => {
      const started = await startDevPlatform({
        dir,
        port: 0,
        mcp: false,
        statePath,
        onNotice: (notice) => {
          notices.push(notice.message);
        },
        onEvent: (event) => events.push(event),
      });
      running.push(started);
      return started;
    };
    const platform = await onFolder();
    const page = () => servedFrom(platform);
    // What the installations say, as the server API answers a backend: the version everyone runs.
    const installed = () => [...new Set(platform.state.installations.map((i) => i.version))];
    expect(await page()).toBe('folder');
    expect((await publish(platform, await pack(key.id, '1.3.0', [key]))).status).toBe(201);
    expect([await page(), platform.state.version]).toEqual(['store', '1.3.0']);
    expect(formatDevEvent(events.find((e) => e.type === 'store')!)).toContain(
      "installed and served from now on, until the app folder's manifest.json is written again (a rebuild serves the folder)",
    );
    // A build writes the folder again, its manifest as it was: the folder is what svc dev runs, and its version.
    const manifestFile = join(dir, 'manifest.json');
    await writeFile(manifestFile, await readFile(manifestFile, 'utf8'));
    await expect.poll(page, { timeout: 5_000 }).toBe('folder');
    expect([platform.state.version, installed()]).toEqual(['1.2.0', ['1.2.0']]);
    expect(notices).toContain(
      "manifest.json was written again (a rebuild): serving the app folder again (version 1.2.0), not the store's 1.3.0; open pages reload with it. The store keeps 1.3.0 as published.",
    );
    expect(platform.state.store?.highest).toBe('1.3.0');
    // Published again, then the manifest edited: the edit is served, and said so.
    expect((await publish(platform, await pack(key.id, '1.4.0', [key]))).status).toBe(201);
    expect(await page()).toBe('store');
    await writeFile(manifestFile, (await readFile(manifestFile, 'utf8')).replace('"1.2.0"', '"1.5.0"'));
    await expect.poll(page, { timeout: 5_000 }).toBe('folder');
    expect([platform.state.version, installed()]).toEqual(['1.5.0', ['1.5.0']]);
    expect(notices.at(-1)).toBe(
      "manifest.json changed: serving the app folder again (version 1.5.0), not the store's 1.4.0; open pages reload with it. The store keeps 1.4.0 as published.",
    );
    // Published once more, then svc dev restarted on the folder with the same state: the folder is served, and said.
    expect((await publish(platform, await pack(key.id, '1.6.0', [key]))).status).toBe(201);
    expect(installed()).toEqual(['1.6.0']);
    await platform.close();
    running.splice(running.indexOf(platform), 1);
    const again = await onFolder();
    expect([again.state.version, [...new Set(again.state.installations.map((i) => i.version))]]).toEqual([
      '1.5.0',
      ['1.5.0'],
    ]);
    expect(notices).toContain(
      'the store holds version 1.6.0 as published, and svc dev starts on the app folder: serving its version 1.5.0 (run svc dev on the published .swbn to serve 1.6.0).',
    );
  });

  it('lets one of two uploads of the same version pass, never both', async () => {
    const key = newKey();
    const platform = await start(await pack(key.id, '1.0.0', [key]));
    const bytes = await pack(key.id, '1.0.1', [key]);
    const answers = await Promise.all([publish(platform, bytes), publish(platform, bytes), publish(platform, bytes)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    expect(platform.state.store?.versions).toHaveLength(2);
  });

  it('refuses a wrong token, another app, an invalid package and an oversized one, changing nothing', async () => {
    const key = newKey();
    const platform = await start(await pack(key.id, '1.0.0', [key]));
    const before = JSON.stringify(platform.state.store);
    const bytes = await pack(key.id, '1.0.1', [key]);
    expect((await publish(platform, bytes, 'x'.repeat(32))).status).toBe(403);
    const other = newKey();
    const wrongApp = await publish(platform, await pack(other.id, '9.0.0', [other]));
    expect(wrongApp.status).toBe(409);
    expect(wrongApp.body.detail).toContain(`runs the app ${key.id}`);
    const broken = await publish(platform, bytes.subarray(0, 100));
    expect(broken.status).toBe(422);
    expect(broken.body.code).toBe('truncated');
    const empty = await publish(platform, new Uint8Array(0));
    expect(empty.body.code).toBe('empty');
    const huge = await publish(platform, new Uint8Array(32 * 1024 * 1024 + 1));
    expect(huge.status).toBe(413);
    const page = await fetch(`${platform.origin}/__svc/store/packages`, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/octet-stream' },
      body: new Uint8Array(bytes),
    });
    expect(page.status).toBe(403);
    // A script that sends no token (curl --data-binary) is told which one to send, not about Origin.
    const script = await fetch(`${platform.origin}/__svc/store/packages`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(bytes),
    });
    expect(script.status).toBe(403);
    expect((await script.json()).detail).toBe(
      "Send the publish token: svc publish does (it reads it from the file svc dev wrote for this user), or upload the file in the messenger's Settings → Store.",
    );
    expect(JSON.stringify(platform.state.store)).toBe(before);
  });

  it('offers a tenant-private app only to its tenants', async () => {
    const key = newKey();
    const platform = await start(
      await pack(key.id, '1.0.0', [key], (m) => (m.distribution = { channel: 'tenant-private', tenants: ['acme'] })),
    );
    await platform.install('alice');
    await platform.install('carol');
    await expect(platform.appToken({ userId: 'alice' })).resolves.toMatch(/\./);
    await expect(platform.appToken({ userId: 'carol' })).rejects.toThrow(
      /private to the tenants acme; this person's tenant globex/,
    );
    expect(platform.state.store?.versions[0]?.tenants).toEqual(['acme']);
  });

  it('serves a version whose save failed, and answers 500 saying it is accepted, not to publish it again', async () => {
    const key = newKey();
    const folder = await mkdtemp(join(tmpdir(), 'svc-store-state-'));
    const platform = await start(await pack(key.id, '1.0.0', [key]), join(folder, 'state.json'));
    // A file where the folder was: the save of the accepted version cannot be written anywhere.
    await rm(folder, { recursive: true });
    await writeFile(folder, 'not a folder');
    const failed = await publish(platform, await pack(key.id, '1.1.0', [key]));
    expect(failed.status).toBe(500);
    expect(failed.body.detail).toMatch(/not saved to .*Do not send the request again: what it asked for is done\.$/);
    // What the state says is what is served: the accepted version, not the one before it.
    expect(platform.state.version).toBe('1.1.0');
    expect(await (await fetch(platform.appUrl)).text()).toContain('version 1.1.0');
    expect((await publish(platform, await pack(key.id, '1.1.0', [key]))).status).toBe(409);
    await rm(folder);
  });

  it('keeps its record in the state file: after a restart the bound key and the highest version still hold', async () => {
    const key = newKey();
    const next = newKey();
    const statePath = join(await mkdtemp(join(tmpdir(), 'svc-store-state-')), 'state.json');
    const first = await pack(key.id, '1.0.0', [key]);
    const platform = await start(first, statePath);
    expect((await publish(platform, await pack(key.id, '1.5.0', [key, next]))).status).toBe(201);
    await platform.close();
    running.length = 0;
    // The first package is signed by the old key alone: on this state the id is bound to the new one.
    await expect(
      startDevPlatform({ package: await writePackage(first), port: 0, mcp: false, statePath }),
    ).rejects.toThrow(`is bound to the key ${next.id} in this state`);
    const again = await start(await pack(key.id, '1.5.0', [next]), statePath);
    expect(again.state.store).toMatchObject({ key_id: next.id, highest: '1.5.0' });
    const stale = await publish(again, await pack(key.id, '1.4.0', [next]));
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toContain('not higher than 1.5.0');
  });

  it('runs an older or another build of an accepted version at a restart, and says so', async () => {
    const key = newKey();
    const statePath = join(await mkdtemp(join(tmpdir(), 'svc-store-state-')), 'state.json');
    const first = await pack(key.id, '1.0.0', [key]);
    const platform = await start(first, statePath);
    expect((await publish(platform, await pack(key.id, '1.1.0', [key]))).status).toBe(201);
    await platform.close();
    running.length = 0;
    const startWith = async (bytes: Uint8Array) => {
      const notices: string[] = [];
      const file = await writePackage(bytes);
      const again = await startDevPlatform({
        package: file,
        port: 0,
        mcp: false,
        statePath,
        onNotice: ({ kind, message }) => void notices.push(`${kind}: ${message.replace(file, 'app.swbn')}`),
      });
      await again.close();
      return notices;
    };
    expect(await startWith(first)).toEqual([
      'package-not-accepted: app.swbn is version 1.0.0, older than 1.1.0, the highest the store accepted: svc dev runs 1.0.0; the next version to publish must still be above 1.1.0.',
    ]);
    // Another build under an accepted version: the page differs, so do the bytes.
    const rebuilt = await pack(key.id, '1.1.0', [key], (m) => (m.name = 'Rebuilt'));
    expect(await startWith(rebuilt)).toEqual([
      'package-not-accepted: app.swbn is version 1.1.0, but the store accepted another build of it: svc dev runs it all the same; to publish it, raise its version above 1.1.0.',
    ]);
  });
});
