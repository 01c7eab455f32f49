// The state file under faults, through the built CLI and real HTTP: kill -9 during writes loses no acknowledged
// change and leaves no temporary file; a failed save is answered and reported, never a crash; pending webhook
// deliveries are sent after a restart.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DevNotice, startDevPlatform } from '../../src/dev';
import { createServerClient, type SvcApiError } from '../../src/server';
import { controlFetch, platformHeaders } from '../helpers/controlApi';
import { CLI, FIRST_LINE, spawnCli } from '../helpers/spawnProgram';
import { writeAppDir } from './appDir';

/** Starts the built `svc dev` and resolves its messenger URL. */
async function startCli(dir: string, args: string[]) {
  const dev = spawnCli(['dev', dir, '--port', '0', ...args]);
  await dev.waitFor(FIRST_LINE);
  return { dev, url: new URL(dev.stdout.trim()) };
}

const control = controlFetch;
const require = createRequire(import.meta.url);

describe.runIf(existsSync(CLI))('the state file under kill -9', () => {
  it('loses no acknowledged change over 3 kills under load, and leaves no temporary file', async () => {
    const dir = await writeAppDir();
    const statePath = join(dir, '.svc-dev.jsonl');
    const acknowledged: string[] = [];
    let reported = 0;
    for (let round = 0; round < 3; round++) {
      const { dev, url } = await startCli(dir, ['--state', statePath]);
      let running = true;
      const before = acknowledged.length;
      const workers = Array.from({ length: 6 }, async (_, w) => {
        for (let n = 0; running; n++) {
          const text = `r${round}-w${w}-n${n}`;
          const response = await control(url, 'POST', '/__svc/message', { room_id: 'general', text }).catch(
            () => undefined,
          );
          if (response?.status === 200) {
            // The answer is the state this change left, so the revision it reports is on disk once it arrives.
            const answer = (await response.json().catch(() => undefined)) as { revision: number } | undefined;
            if (answer === undefined) continue; // cut by the kill mid-answer: not acknowledged
            acknowledged.push(text);
            reported = Math.max(reported, answer.revision);
          } else await response?.body?.cancel();
        }
      });
      // Killed under load: once this round has had some changes acknowledged, more each round.
      await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThanOrEqual(before + 5 * (round + 1)), {
        timeout: 20_000,
        interval: 5,
      });
      await dev.stop('SIGKILL');
      running = false;
      await Promise.all(workers);
    }
    const { dev, url } = await startCli(dir, ['--state', statePath]);
    const state = (await (await control(url, 'GET', '/__svc/state')).json()) as {
      revision: number;
      rooms: Array<{ id: string; timeline: Array<{ text?: string }> }>;
    };
    // No answer reported a state that a crash rolled back.
    expect(state.revision).toBeGreaterThanOrEqual(reported);
    const saved = new Set(state.rooms.find((r) => r.id === 'general')!.timeline.map((e) => e.text));
    expect(acknowledged.length).toBeGreaterThan(10);
    expect(acknowledged.filter((text) => !saved.has(text))).toEqual([]);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    await dev.stop('SIGINT');
  }, 60_000);
});

describe.runIf(existsSync(CLI))("the state file under Yarn Plug'n'Play", () => {
  it("saves and reloads through the file handles of Yarn's file system, which cannot sync()", async () => {
    const dir = await writeAppDir();
    const statePath = join(dir, '.svc-dev.jsonl');
    // As a project on Yarn's Plug'n'Play runs a bin: NODE_OPTIONS requires a script that patches node:fs with Yarn's
    // own file system (@yarnpkg/fslib, as .pnp.cjs does), whose file handles throw on sync() and datasync().
    const preload = join(dir, 'pnp-fs.cjs');
    await writeFile(
      preload,
      `const fs = require('node:fs');
const { NodeFS, PosixFS, patchFs } = require(${JSON.stringify(require.resolve('@yarnpkg/fslib'))});
patchFs(fs, new PosixFS(new NodeFS({ ...fs, promises: { ...fs.promises } })));
`,
    );
    const env = { ...process.env, NODE_OPTIONS: `--require ${preload}` };
    const start = async () => {
      const dev = spawnCli(['dev', dir, '--port', '0', '--state', statePath], { env });
      await dev.waitFor(FIRST_LINE);
      return { dev, url: new URL(dev.stdout.trim()) };
    };
    const first = await start();
    const sent = await control(first.url, 'POST', '/__svc/message', { room_id: 'general', text: 'kept' });
    expect(sent.status).toBe(200);
    await first.dev.stop('SIGKILL');
    const second = await start();
    const state = (await (await control(second.url, 'GET', '/__svc/state')).json()) as {
      rooms: Array<{ id: string; timeline: Array<{ text?: string }> }>;
    };
    expect(state.rooms.find((r) => r.id === 'general')!.timeline.map((e) => e.text)).toContain('kept');
    expect(second.dev.stderr).not.toContain('Method not implemented');
    await second.dev.stop('SIGINT');
  });
});

describe('a failed save', () => {
  it('is answered 500 problem details and reported, and the platform keeps running and saves again once it can', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'svc-dev-'));
    const notices: DevNotice[] = [];
    const p = await startDevPlatform({
      miniAppId: 'polls',
      audience: 'a',
      statePath: join(folder, 'state.jsonl'),
      onNotice: (n) => void notices.push(n),
    });
    const send = (text: string) =>
      fetch(`${p.origin}/__svc/message`, {
        method: 'POST',
        headers: platformHeaders(p),
        body: JSON.stringify({ room_id: 'general', text }),
      });
    expect((await send('saved')).status).toBe(200);
    // A file where the folder was: the next save cannot write the state anywhere.
    await rm(folder, { recursive: true });
    await writeFile(folder, 'not a folder');
    const refused = await send('not saved');
    expect(refused.status).toBe(500);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await refused.json()) as { detail: string };
    expect(problem.detail).toMatch(
      /The change is applied but not saved to .*state\.jsonl \((EEXIST|ENOTDIR)\).*writable, or restart with another --state; the next change saves the whole state again\./,
    );
    expect(notices.filter((n) => n.kind === 'save-failed')).toHaveLength(1);
    // A backend's card, through the signed server API: its 500 says that the card is posted, so that the backend does
    // not post it twice (it said "retry" before), and our client does not send it again.
    const api = createServerClient({ baseUrl: p.baseUrl, miniAppId: 'polls', secret: p.signingSecret });
    const card = { app_user_id: 'au-alice', card: { title: 'posted, not saved', body: 'once' } };
    const failed = await api.postCard('general', card).catch((error: SvcApiError) => error);
    expect(failed).toMatchObject({ status: 500, retriable: false });
    expect((failed as SvcApiError).detail).toMatch(
      /^The change is applied but not saved to .*Do not send the request again: what it asked for is done\.$/,
    );
    expect((failed as SvcApiError).detail).not.toMatch(/retry/);
    // The folder removed (`rm -rf .svc` while it runs): made again, with the lock, and the whole state saved.
    await rm(folder);
    expect((await send('saved again')).status).toBe(200);
    expect(readFileSync(join(folder, 'state.jsonl.lock'), 'utf8')).toBe(String(process.pid));
    await p.close();
    const again = await startDevPlatform({ miniAppId: 'polls', audience: 'a', statePath: join(folder, 'state.jsonl') });
    const texts = again.messages('general').map((m) => (m as { text: string }).text);
    expect(texts).toEqual(expect.arrayContaining(['saved', 'not saved', 'saved again']));
    const titles = again.state.rooms
      .find((r) => r.id === 'general')!
      .timeline.flatMap((e) => (e.kind === 'card' ? [e.card.title] : []));
    expect(titles).toEqual(['posted, not saved']);
    await again.close();
  });
});

describe.runIf(existsSync(CLI))('a state file whose lock was removed while svc dev runs', () => {
  const post = (p: { origin: string; controlToken: string }, text: string) =>
    fetch(`${p.origin}/__svc/message`, {
      method: 'POST',
      headers: platformHeaders(p),
      body: JSON.stringify({ room_id: 'general', text }),
    });

  it('refuses a second svc dev on it at start, naming the one that runs: the first saves on, folder and lock made again', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'svc-dev-'));
    const statePath = join(folder, 'state.jsonl');
    const dir = await writeAppDir();
    const p = await startDevPlatform({ dir, port: 0, mcp: false, statePath });
    try {
      await rm(folder, { recursive: true });
      const other = spawnCli(['dev', dir, '--port', '0', '--no-mcp', '--state', statePath]);
      if (other.child.exitCode === null) await new Promise((exited) => other.child.once('exit', exited));
      expect(other.child.exitCode).toBe(2);
      expect(other.stderr).toContain(
        `--state ${statePath} is in use by another svc dev (process ${process.pid}, ${p.origin}), though its lock file is gone: stop that one first, or pass another --state.`,
      );
      expect((await post(p, 'saved again')).status).toBe(200);
      expect(readFileSync(statePath, 'utf8')).toContain('saved again');
      expect(readFileSync(`${statePath}.lock`, 'utf8')).toBe(String(process.pid));
    } finally {
      await p.close();
    }
  });

  it('never writes the file again once another svc dev took it, also after that one stopped (week45 F6)', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'svc-dev-'));
    const statePath = join(folder, 'state.jsonl');
    const dir = await writeAppDir();
    const p = await startDevPlatform({ dir, port: 0, mcp: false, statePath });
    // The lock removed by hand, and a svc dev that does not see this one's discovery files (another SVC_STATE_DIR).
    await rm(`${statePath}.lock`);
    const home = await mkdtemp(join(tmpdir(), 'svc-dev-home-'));
    const other = spawnCli(['dev', dir, '--port', '0', '--no-mcp', '--state', statePath], {
      env: { ...process.env, SVC_STATE_DIR: home },
    });
    try {
      await other.waitFor(FIRST_LINE);
      const url = new URL(other.stdout.split('\n')[0]!.trim());
      const saved = await controlFetch(url, 'POST', '/__svc/message', {
        room_id: 'general',
        text: 'saved by the other',
      });
      expect(saved.status).toBe(200);
      const refused = await post(p, 'not into the other one');
      expect(refused.status).toBe(500);
      const detail = ((await refused.json()) as { detail: string }).detail;
      expect(detail).toContain(`another svc dev (process ${other.child.pid}) took the file while this one ran`);
      expect(detail).toContain('start it again on the file to go on from what the other saved.');
      expect(detail).not.toContain('delete');
      await other.stop('SIGINT');
      // The other stopped and gave the lock back: this one still does not write its parted state over the file.
      const after = await post(p, 'still not saved');
      expect(after.status).toBe(500);
      const file = readFileSync(statePath, 'utf8');
      expect(file).toContain('saved by the other');
      expect(file).not.toContain('still not saved');
      expect(existsSync(`${statePath}.lock`)).toBe(false);
    } finally {
      await other.stop('SIGINT');
      await p.close();
    }
  });
});

describe('pending webhook deliveries', () => {
  let backend: Server;
  let healthy = false;
  const received: string[] = [];
  let hooks = '';
  beforeAll(async () => {
    backend = createServer(async (req, res) => {
      for await (const _ of req);
      if (healthy) received.push(String(req.headers['x-svc-delivery-id']));
      res.writeHead(healthy ? 200 : 503).end();
    });
    await new Promise<void>((ok) => backend.listen(0, '127.0.0.1', ok));
    hooks = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/hooks`;
  });
  afterAll(() => new Promise<void>((ok) => backend.close(() => ok())));

  it('are sent after a restart', async () => {
    const statePath = join(await mkdtemp(join(tmpdir(), 'svc-dev-')), 'state.jsonl');
    const notices: DevNotice[] = [];
    const options = {
      miniAppId: 'polls',
      audience: 'a',
      statePath,
      webhooks: hooks,
      onNotice: (n: DevNotice) => void notices.push(n),
    };
    let p = await startDevPlatform(options);
    await p.install('bob');
    await expect.poll(() => p.deliveries()[0]?.attempts.length).toBeGreaterThan(0);
    const id = p.deliveries()[0]!.id;
    expect(p.deliveries()[0]).toMatchObject({ state: 'pending', attempts: [{ status: 503 }] });
    await p.close();
    healthy = true;
    p = await startDevPlatform({ ...options, retryScale: 0.001 });
    // A resumed delivery keeps the time its retry was due at, set by the first run's own scale: up to a second or so.
    await expect.poll(() => received, { timeout: 10_000 }).toContain(id);
    expect(notices.at(-1)).toMatchObject({ kind: 'deliveries-resumed' });
    await expect.poll(() => p.deliveries()[0]!.state).toBe('delivered');
    await p.close();
  });
});

describe('answers under concurrent changes', () => {
  it('each answer is the state its own change left: one revision each, holding its change and no later one', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'svc-dev-'));
    const p = await startDevPlatform({ miniAppId: 'polls', audience: 'a', statePath: join(folder, 'state.jsonl') });
    const send = (text: string) =>
      fetch(`${p.origin}/__svc/message`, {
        method: 'POST',
        headers: platformHeaders(p),
        body: JSON.stringify({ room_id: 'general', text }),
      }).then(
        (r) =>
          r.json() as Promise<{ revision: number; rooms: Array<{ id: string; timeline: Array<{ text?: string }> }> }>,
      );
    const texts = Array.from({ length: 40 }, (_, i) => `m${i}`);
    const answers = await Promise.all(texts.map(send));
    const revisions = answers.map((a) => a.revision);
    expect(new Set(revisions).size).toBe(texts.length);
    for (const [i, answer] of answers.entries()) {
      const timeline = answer.rooms.find((r) => r.id === 'general')!.timeline.map((e) => e.text);
      expect(timeline).toContain(texts[i]);
      // Exactly the changes up to its own: as many messages as its revision counts changes.
      const later = answers.filter((b) => b.revision > answer.revision).map((b) => texts[answers.indexOf(b)]);
      expect(timeline.filter((t) => later.includes(t))).toEqual([]);
    }
    await p.close();
  });
});
