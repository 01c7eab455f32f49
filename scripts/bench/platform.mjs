// svc dev's guarantees under load, measured (dist/ must be built). `node scripts/bench/platform.mjs [--quick]`.
// - the rate limiter: signed requests sent well above the limit for a window; admitted = burst + 600/min × window;
// - per-change cost against state size: a change (install/uninstall) with --state at 1,000 and 100,000 timeline
//   entries, and the bytes it appends to the journal;
// - kill -9 runs: the built CLI killed at random moments under load; acknowledged changes missing after restart.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '../..');
const load = (file) => import(pathToFileURL(resolve(root, file)).href);
const { startDevPlatform } = await load('packages/svc-sdk-dev/dist/index.js');
const { signRequest } = await load('dist/server.js');
const quick = process.argv.includes('--quick');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Sends signed GETs from 4 loops (about 200/s in all) for `seconds`; counts 200s and 429s. */
export async function benchRateLimiter(seconds = quick ? 10 : 30) {
  const p = await startDevPlatform({ miniAppId: 'bench', audience: 'bench' });
  const url = `${p.origin}/v1/apps/bench/installations/au-alice`;
  let admitted = 0;
  let limited = 0;
  const retryAfter = new Set();
  const started = performance.now();
  let last = started;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (performance.now() - started < seconds * 1000) {
        const headers = await signRequest({ body: '', secret: p.signingSecret, miniAppId: 'bench' });
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        last = performance.now();
        if (response.status === 200) admitted++;
        else if (response.status === 429) {
          limited++;
          retryAfter.add(response.headers.get('retry-after'));
        }
        await sleep(20);
      }
    }),
  );
  await p.close();
  const window = (last - started) / 1000;
  const expected = 60 + 10 * window;
  return {
    seconds: window,
    admitted,
    limited,
    expected,
    perMinute: ((admitted - 60) / window) * 60,
    retryAfter: [...retryAfter],
  };
}

/** A state file with `entries` timeline entries (messages) in the first room. */
async function stateWith(entries) {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-'));
  const path = join(dir, 'state.jsonl');
  const p = await startDevPlatform({ miniAppId: 'bench', audience: 'bench', statePath: path });
  await p.close();
  const [head] = (await readFile(path, 'utf8')).split('\n');
  const snapshot = JSON.parse(head);
  const timeline = snapshot.state.rooms[0].timeline;
  for (let i = 0; i < entries; i++)
    timeline.push({
      kind: 'message',
      event_id: `$${i}`,
      sender: 'alice',
      text: `message ${i} `.repeat(4),
      at: new Date().toISOString(),
    });
  await writeFile(path, `${JSON.stringify(snapshot)}\n`, { mode: 0o600 });
  return path;
}

/**
 * Ms per change (median of `changes`), journal bytes per change, and bytes streamed per change to one listening
 * page, with `entries` timeline entries.
 */
export async function benchChangeCost(entries, changes = quick ? 100 : 400) {
  const path = await stateWith(entries);
  const p = await startDevPlatform({ miniAppId: 'bench', audience: 'bench', statePath: path });
  const page = await fetch(`${p.origin}/__svc/events?token=${p.controlToken}`, { headers: { origin: p.origin } });
  let streamed = 0;
  const reader = page.body.getReader();
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true }));
      if (done) return;
      streamed += value.length;
    }
  })();
  await sleep(200);
  const first = streamed;
  const before = (await stat(path)).size;
  const times = [];
  for (let i = 0; i < changes; i++) {
    const t = performance.now();
    await (i % 2 ? p.install('bob') : p.uninstall('bob'));
    times.push(performance.now() - t);
  }
  const after = (await stat(path)).size;
  await sleep(200);
  await reader.cancel().catch(() => {});
  await p.close();
  await reading;
  return {
    entries,
    fileBytes: before,
    msPerChange: median(times),
    bytesPerChange: (after - before) / changes,
    streamedPerChange: (streamed - first) / changes,
  };
}

/** Starts the built CLI with --state; resolves its URL. */
async function startCli(dir, statePath) {
  const child = spawn(
    process.execPath,
    [resolve(root, 'dist/cli.js'), 'dev', dir, '--port', '0', '--state', statePath],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  for (let i = 0; i < 1000 && !out.includes('\n'); i++) await sleep(10);
  return { child, url: new URL(out.trim()) };
}

const control = (url, method, path, body) =>
  fetch(`${url.origin}${path}`, {
    method,
    headers: {
      origin: url.origin,
      'x-svc-dev-token': url.searchParams.get('token'),
      'content-type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** Kills the CLI with SIGKILL `kills` times under load (8 writers); counts acknowledged changes lost. */
export async function benchKills(kills = quick ? 5 : 20) {
  const dir = resolve(root, 'examples/polls');
  const statePath = join(await mkdtemp(join(tmpdir(), 'svc-bench-')), 'state.jsonl');
  const acknowledged = [];
  for (let round = 0; round < kills; round++) {
    const { child, url } = await startCli(dir, statePath);
    let running = true;
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let n = 0; running; n++) {
        const text = `r${round}-w${w}-n${n}`;
        const response = await control(url, 'POST', '/__svc/message', { room_id: 'general', text }).catch(
          () => undefined,
        );
        if (response?.status === 200) acknowledged.push(text);
        await response?.body?.cancel();
      }
    });
    await sleep(100 + Math.random() * 400);
    await new Promise((done) => {
      child.once('exit', done);
      child.kill('SIGKILL');
    });
    running = false;
    await Promise.all(writers);
  }
  const { child, url } = await startCli(dir, statePath);
  const state = await (await control(url, 'GET', '/__svc/state')).json();
  const saved = new Set(state.rooms.find((r) => r.id === 'general').timeline.map((e) => e.text));
  await new Promise((done) => {
    child.once('exit', done);
    child.kill('SIGINT');
  });
  return { kills, acknowledged: acknowledged.length, lost: acknowledged.filter((t) => !saved.has(t)).length };
}

/** Runs the three and prints them. */
export async function benchPlatform() {
  const rate = await benchRateLimiter();
  const within = Math.abs(rate.admitted - rate.expected) / rate.expected;
  console.log(
    `  rate limiter: ${rate.admitted} admitted, ${rate.limited} refused (Retry-After ${rate.retryAfter.join('/')} s) in ${rate.seconds.toFixed(1)} s; expected 60 + 600/min × window = ${rate.expected.toFixed(1)} (${(within * 100).toFixed(2)}% off); sustained ${rate.perMinute.toFixed(1)}/min`,
  );
  for (const entries of [1_000, 100_000]) {
    const c = await benchChangeCost(entries);
    console.log(
      `  per change with --state, ${entries.toLocaleString('en').padStart(7)} timeline entries (${(c.fileBytes / 1e6).toFixed(1)} MB): ${c.msPerChange.toFixed(2)} ms median, ${Math.round(c.bytesPerChange)} bytes appended, ${Math.round(c.streamedPerChange).toLocaleString('en')} bytes streamed to a listening page`,
    );
  }
  const k = await benchKills();
  console.log(
    `  kill -9 under load: ${k.kills} kills, ${k.acknowledged.toLocaleString('en')} acknowledged changes, ${k.lost} lost`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log('svc dev platform (scripts/bench/platform.mjs):');
  await benchPlatform();
  process.exit(0);
}
