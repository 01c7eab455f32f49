import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkControlRequest } from '../../src/dev/platform/checkControlRequest';
import { openStateFile } from '../../src/dev/platform/stateFile';
import type { DevState } from '../../src/dev/devContract';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { methods } from '../../src/protocol/methods';

const state: DevState = {
  mini_app_id: 'polls',
  version: '1.0.0',
  users: [{ id: 'u1', app_user_id: 'au1', display_name: 'Ada', tenant_id: 't1' }],
  tenants: [],
  rooms: [{ id: 'r1', name: 'General', is_encrypted: true, members: ['u1'], timeline: [] }],
  installations: [{ user_id: 'u1', mini_app_id: 'polls', version: '1.0.0', installed: true, installed_at: 'x' }],
  grants: [{ user_id: 'u1', mini_app_id: 'polls', scopes: ['svc.notifications'] }],
  notifications: [],
  deliveries: [],
  settings: { theme: 'dark', locale: 'de', current_user_id: 'u1', current_room_id: 'r1' },
  secret: { generation: 2 },
};

/** A state file of `state` as svc dev writes it at a start, closed: its path and its text. */
async function savedStateFile(): Promise<{ path: string; saved: string }> {
  const path = join(await mkdtemp(join(tmpdir(), 'svc-dev-')), '.svc-dev.json');
  const file = await openStateFile(path, 'polls');
  await file.compact(() => ({ state, secrets: { current: 'secret-1' } }));
  await file.close();
  return { path, saved: await readFile(path, 'utf8') };
}

describe('the state file', () => {
  it('survives a restart: what was saved and appended loads back, compacted, mode 600, no temporary file left', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-dev-'));
    const path = join(dir, '.svc-dev.json');
    const first = await openStateFile(path, 'polls');
    expect(first.state).toBeUndefined();
    const secrets = { current: 'secret-1' };
    await first.compact(() => ({ state, secrets }));
    await first.append(
      '{"p":[[["settings","locale"],"fr"],[["rooms","0","timeline","0"],{"kind":"message","event_id":"$1","sender":"u1","text":"hé","at":"x"}]]}\n',
    );
    await first.close();
    const again = await openStateFile(path, 'polls');
    expect(again.state?.settings.locale).toBe('fr');
    expect(again.state?.rooms[0]?.timeline).toHaveLength(1);
    expect(again.secrets).toEqual(secrets);
    await again.compact(() => ({ state: again.state!, secrets }));
    await again.close();
    expect((await readFile(path, 'utf8')).split('\n')).toHaveLength(2);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['.svc-dev.json']);
  });

  it('refuses a journal line svc dev never writes, naming the line in words of the journal', async () => {
    const { path, saved } = await savedStateFile();
    for (const [line, why] of [
      ['{"x":1}', 'it is not a journal entry, {"p": [...]} or {"secrets": {...}}'],
      ['null', 'it is not a journal entry, {"p": [...]} or {"secrets": {...}}'],
      ['[1]', 'it is not a journal entry, {"p": [...]} or {"secrets": {...}}'],
      [
        '{"p":[[["rooms","0","timeline","length"],"abc"]]}',
        'the journal sets rooms.0.timeline.length to a value it cannot hold',
      ],
      // A line cut by a disk error: where it breaks, never the line itself (it may hold the signing secret, and
      // bytes that act on a terminal).
      ['{"secrets":{"current":"whsec_the_secret\u0000\u001b[31m', 'it is not valid JSON from character 40'],
    ]) {
      await writeFile(path, `${saved}${line}\n`);
      await expect(openStateFile(path, 'polls'), line).rejects.toThrow(
        `--state ${path} line 2 is damaged (${why}): delete that line and the ones after it to keep the state before it, or delete the file.`,
      );
    }
  });

  it('names the journal line that broke the state, among valid ones, and none when the snapshot is broken', async () => {
    const { path, saved } = await savedStateFile();
    const fine = '{"p":[[["settings","locale"],"fr"]]}\n';
    const breaking = '{"p":[[["rooms","0","members"],"u1"]]}\n';
    // Line 1 the snapshot; 40 good lines, the breaking one (line 42), 20 good ones: found by halves.
    await writeFile(path, `${saved}${fine.repeat(40)}${breaking}${fine.repeat(20)}`);
    await expect(openStateFile(path, 'polls')).rejects.toThrow(
      new RegExp(
        `^--state ${path} line 42 is damaged \\(it sets what the state cannot hold: rooms\\.0\\.members: .+\\): delete that line and the ones after it to keep the state before it, or delete the file\\.$`,
      ),
    );
    // A person on screen the state does not have is as broken (recheck45 F2).
    await writeFile(path, `${saved}${fine}{"p":[[["settings","current_user_id"],"nobody"]]}\n`);
    await expect(openStateFile(path, 'polls')).rejects.toThrow(
      `line 3 is damaged (it sets what the state cannot hold: settings.current_user_id: "nobody" names no user of users)`,
    );
    // A broken snapshot is named by its field, as before: no journal line is to blame.
    const head = JSON.parse(saved.split('\n')[0]!) as { state: { settings: Record<string, unknown> } };
    delete head.state.settings.theme;
    await writeFile(path, `${JSON.stringify(head)}\n${fine}`);
    await expect(openStateFile(path, 'polls')).rejects.toThrow(
      `--state ${path} is not a complete svc dev state (settings.theme is missing): fix it, or delete it to start fresh.`,
    );
  });

  it('leaves no temporary file (it holds the secrets) when a save cannot take the place of the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-dev-'));
    const path = join(dir, 'state.json');
    const file = await openStateFile(path, 'polls');
    await file.compact(() => ({ state, secrets: { current: 'secret-1' } }));
    // A folder with something in it where the file was: the rename over it fails.
    await rm(path);
    await mkdir(join(path, 'inside'), { recursive: true });
    await expect(file.append('{"p":[[["settings","locale"],"fr"]]}\n')).rejects.toThrow(
      /The change is applied but not saved to .*state\.json \(E\w+\): .*\. A folder is where state\.json goes: move it away, or restart with another --state; the next change saves the whole state again\.$/,
    );
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    await file.close();
  });

  it('refuses a start whose state it cannot write, saying what to do, and leaves the file as it was', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-dev-'));
    const path = join(dir, 'state.json');
    const file = await openStateFile(path, 'polls');
    // A folder with something in it where the file goes: the start's rename over it fails.
    await mkdir(join(path, 'inside'), { recursive: true });
    await expect(file.compact(() => ({ state, secrets: { current: 'secret-1' } }))).rejects.toThrow(
      new RegExp(
        `^--state ${path} cannot be written \\(E\\w+: .*\\): a folder is where the file goes: move it away, or pass another --state\\. The file is as it was\\.$`,
      ),
    );
    await file.close();
  });

  // A full disk, made with a small tmpfs where this machine lets a test mount one (as root in CI).
  const mountable = (() => {
    try {
      const probe = execFileSync('mktemp', ['-d']).toString().trim();
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
      execFileSync('umount', [probe]);
      execFileSync('rmdir', [probe]);
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(!mountable)(
    'refuses a start on a full disk naming the file and the free space it needs, the file intact',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'svc-dev-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
      const path = join(dir, 'state.json');
      let saved = '';
      try {
        const first = await openStateFile(path, 'polls');
        await first.compact(() => ({ state, secrets: { current: 'secret-1' } }));
        await first.close();
        saved = await readFile(path, 'utf8');
        // Every page of the disk taken but one: the lock fits, the state written again beside the file does not.
        await writeFile(join(dir, 'filler'), Buffer.alloc(64 * 1024 - 2 * 4096));
        const opened = await openStateFile(path, 'polls').then((file) =>
          file.compact(() => ({ state: file.state!, secrets: { current: 'secret-1' } })).finally(file.close),
        );
        expect.unreachable(String(opened));
      } catch (error) {
        expect((error as Error).message).toMatch(
          /^--state .*state\.json cannot be written \(ENOSPC: no space left on device, \w+\): free space on that disk \(the start writes the whole state again beside the file, which takes as much again\), or pass another --state\. The file is as it was\.$/,
        );
        expect(await readdir(dir)).toEqual(['filler', 'state.json']);
        expect(await readFile(path, 'utf8')).toBe(saved);
      } finally {
        execFileSync('umount', [dir]);
      }
    },
  );

  it('writes the whole state again when the file was cut under it, so the file still loads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-dev-'));
    const path = join(dir, 'state.json');
    const file = await openStateFile(path, 'polls');
    await file.compact(() => ({ state, secrets: { current: 'secret-1' } }));
    await truncate(path, 0); // an editor emptying it, or `: > state.json`
    await file.append('{"p":[[["settings","locale"],"fr"]]}\n');
    await file.close();
    // The snapshot is back (the change itself is in the state the snapshot is taken from, in the platform).
    expect((await openStateFile(path, 'polls')).state?.mini_app_id).toBe('polls');
  });

  it('follows a path through a symbolic link to the file it names, and leaves the link a link', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-dev-'));
    const real = join(dir, 'real.json');
    const link = join(dir, 'link.json');
    const first = await openStateFile(real, 'polls');
    await first.compact(() => ({ state, secrets: { current: 'secret-1' } }));
    await first.close();
    await symlink(real, link);
    const viaLink = await openStateFile(link, 'polls');
    expect(viaLink.state?.mini_app_id).toBe('polls');
    await viaLink.compact(() => ({ state: viaLink.state!, secrets: { current: 'secret-1' } }));
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readdir(dir)).toContain('real.json.lock');
    await viaLink.close();
  });

  it('makes the folders of a path that does not exist yet, readable by this user only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-dev-'));
    const path = join(dir, '.svc', 'dev', 'state.jsonl');
    const file = await openStateFile(path, 'polls');
    await file.compact(() => ({ state, secrets: { current: 'secret-1' } }));
    await file.close();
    const again = await openStateFile(path, 'polls');
    expect(again.state?.mini_app_id).toBe('polls');
    await again.close();
    expect((await stat(join(dir, '.svc'))).mode & 0o777).toBe(0o700);
  });

  it('refuses a foreign, broken or partial file with a message naming it, without overwriting it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-dev-'));
    const path = join(dir, 'state.json');
    await writeFile(path, JSON.stringify(state));
    await expect(openStateFile(path, 'other')).rejects.toThrow(/belongs to mini app polls/);
    await writeFile(path, '{nope');
    await expect(openStateFile(path, 'polls')).rejects.toThrow(/not valid JSON/);
    expect(await readFile(path, 'utf8')).toBe('{nope');
    const { settings: _, ...partial } = state;
    await writeFile(path, JSON.stringify(partial));
    await expect(openStateFile(path, 'polls')).rejects.toThrow(/settings is missing/);
    // A folder is said to be one, in one line (it was Node's EISDIR with a stack trace), and left as it is.
    const folder = join(dir, 'kept');
    await mkdir(folder);
    await expect(openStateFile(folder, 'polls')).rejects.toThrow(
      `--state ${folder} is a folder: name a file, such as ${join(folder, '.svc-dev.json')}.`,
    );
    expect(await readdir(folder)).toEqual([]);
    // A pipe nobody writes to would be waited on for ever.
    const pipe = join(dir, 'pipe.json');
    execFileSync('mkfifo', [pipe]);
    await expect(openStateFile(pipe, 'polls')).rejects.toThrow(
      `--state ${pipe} cannot be read (not a regular file): pass a file this user can read and write.`,
    );
  });
});

describe.runIf(existsSync('/proc/self/stat'))('the state file lock of a svc dev that ended', () => {
  it('is taken over from a process that ended but was not reaped (a zombie), and refused for one that runs', async () => {
    // `sleep 0` ends at once, and the shell that started it becomes `sleep 30`, which never reaps it.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number(await new Promise<string>((read) => parent.stdout.once('data', (d) => read(String(d)))));
      const state = () => readFileSync(`/proc/${zombie}/stat`, 'utf8').split(') ')[1]?.[0];
      for (let i = 0; i < 100 && state() !== 'Z'; i++) await new Promise((r) => setTimeout(r, 20));
      expect(state()).toBe('Z');
      const path = join(await mkdtemp(join(tmpdir(), 'svc-dev-')), 'state.json');
      await writeFile(`${path}.lock`, String(zombie));
      const file = await openStateFile(path, 'polls');
      await file.close();
      // The shell that runs (`sleep 30`) holds it: refused, naming it.
      await writeFile(`${path}.lock`, String(parent.pid));
      await expect(openStateFile(path, 'polls')).rejects.toThrow(
        `is in use by another svc dev (process ${parent.pid})`,
      );
    } finally {
      parent.kill();
    }
  });
});

describe('the control API guard', () => {
  const guard = { token: 'launch-token-123', origin: 'http://127.0.0.1:4300' };
  const good = { host: '127.0.0.1:4300', origin: guard.origin, 'x-svc-dev-token': guard.token };
  it('accepts the messenger with its token', () => {
    expect(checkControlRequest(good, guard)).toBeUndefined();
    expect(checkControlRequest({ ...good, 'x-svc-dev-token': undefined }, guard, guard.token)).toBeUndefined();
  });
  it('refuses a wrong token, a foreign Origin, a foreign Host, never echoing the token', () => {
    const wrong = checkControlRequest({ ...good, 'x-svc-dev-token': 'launch-token-124' }, guard);
    expect(wrong).toMatch(/x-svc-dev-token/);
    expect(wrong).not.toContain('launch-token');
    expect(checkControlRequest({ ...good, origin: 'http://evil.test' }, guard)).toMatch(/Origin/);
    expect(checkControlRequest({ ...good, host: 'evil.test:4300' }, guard)).toMatch(/Host/);
    expect(checkControlRequest({ ...good, 'x-svc-dev-token': undefined }, guard)).toMatch(/missing or wrong/);
  });
});

describe("the app's storage in the state file", () => {
  /** A `POST /__svc/storage` as the messenger page makes it, for the person on screen. */
  async function store(platform: DevPlatform, body: object) {
    const response = await fetch(`${platform.origin}/__svc/storage`, {
      method: 'POST',
      headers: {
        origin: platform.origin,
        'x-svc-dev-token': platform.controlToken,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ user_id: 'alice', ...body }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }

  /** A platform without an app folder, on the state file at `path`. */
  const platformOn = (path: string) =>
    startDevPlatform({ miniAppId: 'polls', audience: 'https://polls.example', port: 0, statePath: path });

  it("journals the one key a change writes, so the file grows with the change, not with the person's storage", async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'svc-dev-')), 'state.json');
    const platform = await platformOn(path);
    try {
      await store(platform, { op: 'set', key: 'draft', value: 'x'.repeat(100_000) });
      const before = (await stat(path)).size;
      for (let i = 0; i < 50; i++) await store(platform, { op: 'set', key: 'cursor', value: i });
      // 50 lines of one small key each: a few KB, where each once held the 100 KB draft again (5 MB).
      expect((await stat(path)).size - before).toBeLessThan(10_000);
    } finally {
      await platform.close();
    }
    const again = await platformOn(path);
    try {
      expect(again.state.storage?.alice).toEqual({ draft: 'x'.repeat(100_000), cursor: 49 });
    } finally {
      await again.close();
    }
  });

  it('leaves no stored value in the file once the page resets the state (recheck46 F5)', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'svc-dev-')), 'state.json');
    const platform = await platformOn(path);
    try {
      await store(platform, { op: 'set', key: 'note', value: 'a private note before the reset' });
      expect(await readFile(path, 'utf8')).toContain('a private note before the reset');
      const reset = await fetch(`${platform.origin}/__svc/reset`, {
        method: 'POST',
        headers: {
          origin: platform.origin,
          'x-svc-dev-token': platform.controlToken,
          'content-type': 'application/json',
        },
        body: '{}',
      });
      expect(reset.status).toBe(200);
      const file = await readFile(path, 'utf8');
      expect(file).not.toContain('a private note before the reset');
      // One snapshot line: the whole state written again, the journal gone.
      expect(file.split('\n').filter(Boolean)).toHaveLength(1);
    } finally {
      await platform.close();
    }
  });

  it('compacts the journal while it runs once it outgrows its snapshot, and loses no change', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'svc-dev-')), 'state.json');
    const platform = await platformOn(path);
    let largest = 0;
    try {
      // A 100 KB draft saved 30 times: 3 MB of journal, which grew until the next start.
      for (let i = 0; i < 30; i++) {
        await store(platform, { op: 'set', key: 'draft', value: `${i}`.padEnd(100_000, 'x') });
        await store(platform, { op: 'set', key: 'cursor', value: i });
        largest = Math.max(largest, (await stat(path)).size);
      }
    } finally {
      await platform.close();
    }
    expect(largest).toBeLessThan(1.3 * 1024 * 1024);
    const again = await platformOn(path);
    try {
      expect(again.state.storage?.alice).toEqual({ draft: '29'.padEnd(100_000, 'x'), cursor: 29 });
    } finally {
      await again.close();
    }
  });

  it('keeps a value nested as deep as the host lets an app store it (64 levels), across a restart', async () => {
    // The page's host takes 64 levels; the body that carries it here is one more, and was refused: the app got a
    // retriable ERR_INTERNAL for a write that could never succeed.
    let deep: unknown = 1;
    for (let i = 0; i < 64; i++) deep = { a: deep };
    expect(methods['storage.set'].params({ key: 'deep', value: deep }, '')).toBeUndefined();
    const path = join(await mkdtemp(join(tmpdir(), 'svc-dev-')), 'state.json');
    const platform = await platformOn(path);
    try {
      await store(platform, { op: 'set', key: 'deep', value: deep });
    } finally {
      await platform.close();
    }
    const again = await platformOn(path);
    try {
      expect(again.state.storage?.alice?.deep).toEqual(deep);
      // One level more the app could never read back (the host refuses to answer it): refused here too.
      const response = await fetch(`${again.origin}/__svc/storage`, {
        method: 'POST',
        headers: { origin: again.origin, 'x-svc-dev-token': again.controlToken, 'content-type': 'application/json' },
        body: JSON.stringify({ user_id: 'alice', op: 'set', key: 'deeper', value: { a: deep } }),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/^value(\.a)+ nests more than 64 deep/);
      // Past the body's own bound the value's limit is still the one named: 64, not the body's 66.
      let deepest: unknown = 1;
      for (let i = 0; i < 70; i++) deepest = [deepest];
      const past = await fetch(`${again.origin}/__svc/storage`, {
        method: 'POST',
        headers: { origin: again.origin, 'x-svc-dev-token': again.controlToken, 'content-type': 'application/json' },
        body: JSON.stringify({ user_id: 'alice', op: 'set', key: 'deepest', value: deepest }),
      });
      expect(past.status).toBe(400);
      expect(((await past.json()) as { detail: string }).detail).toMatch(
        /^The body nests arrays and objects more than 66 deep \(at \$\.value[[\]0]+…\): an app's value may nest 64 deep, the rest of the body 2 more; send a flatter value\.$/,
      );
    } finally {
      await again.close();
    }
  });

  it('keeps a value under any key across a restart, __proto__ and constructor too', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'svc-dev-')), 'state.json');
    const platform = await platformOn(path);
    try {
      await store(platform, { op: 'set', key: 'a', value: 1 });
      await store(platform, { op: 'set', key: '__proto__', value: { polluted: 1 } });
      await store(platform, { op: 'set', key: 'constructor', value: 2 });
      await store(platform, { op: 'remove', key: 'a' });
      // Inside a value too (JSON.parse makes it an own key, as the page sends it).
      await store(platform, { op: 'set', key: 'nested', value: JSON.parse('{"__proto__":{"p":1},"k":2}') });
    } finally {
      await platform.close();
    }
    const again = await platformOn(path);
    try {
      const kept = again.state.storage?.alice ?? {};
      expect(JSON.stringify(kept)).toBe(
        '{"__proto__":{"polluted":1},"constructor":2,"nested":{"__proto__":{"p":1},"k":2}}',
      );
      // An own key, not the prototype of what the platform holds.
      expect(({} as { polluted?: number }).polluted).toBeUndefined();
    } finally {
      await again.close();
    }
  });
});
