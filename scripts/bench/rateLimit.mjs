// The shared rate limit at scale: 4 processes x 10 callers share one bucket in a real redis-server (Debian's
// /usr/bin/redis-server, or REDIS_SERVER), first with the limiter as it was (every waiter runs the whole script by
// EVAL, sleeps, and runs it again), then with createRedisRateLimiter from dist/server.js (one queue per process,
// only its head asks Redis, one EVALSHA reserving each token). Prints, for each, the script runs per request that
// Redis counted (INFO commandstats) and the requests sent against what the bucket allows in the same window.
// `node scripts/bench/rateLimit.mjs [--quick]`; also at the end of `npm run bench`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';

const root = resolve(import.meta.dirname, '../..');
const redisBinary = process.env.REDIS_SERVER || '/usr/bin/redis-server';
const RATE = { perMinute: 600, burst: 60 };
const PROCESSES = 4;
const CALLERS = 10;

// The limiter before this round, kept here as the baseline: each waiter runs the script and sleeps what it says.
const BEFORE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1]) local burst = tonumber(ARGV[2])
local s = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(s[1]) or burst local at = tonumber(s[2]) or now
tokens = math.min(burst, tokens + (now - at) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) / rate) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], 120000)
return wait`;
const beforeLimiter = (client, key) => ({
  async take() {
    for (;;) {
      const wait = Number(
        await client.call('EVAL', BEFORE, '1', key, String(RATE.perMinute / 60_000), String(RATE.burst)),
      );
      if (wait <= 0) return;
      await new Promise((done) => setTimeout(done, wait));
    }
  },
});

// A child: CALLERS callers take slots from `start` to `end` and report when each was granted.
async function child([, , , port, variant, key, start, end]) {
  const client = new Redis(Number(port), '127.0.0.1');
  const { createRedisRateLimiter } = await import(pathToFileURL(resolve(root, 'dist/server.js')).href);
  const limiter =
    variant === 'before' ? beforeLimiter(client, key) : createRedisRateLimiter({ client, key, rate: RATE });
  await new Promise((done) => setTimeout(done, Number(start) - Date.now()));
  const granted = [];
  const caller = async () => {
    while (Date.now() < Number(end)) {
      await limiter.take();
      if (Date.now() < Number(end)) granted.push(Date.now());
    }
  };
  await Promise.race([
    Promise.all(Array.from({ length: CALLERS }, caller)),
    new Promise((done) => setTimeout(done, Number(end) - Date.now() + 50)),
  ]);
  process.stdout.write(`${JSON.stringify(granted)}\n`);
  process.exit(0);
}

const freePort = () =>
  new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail).listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });

function startRedis(port) {
  const server = spawn(redisBinary, [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  return new Promise((done, fail) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Ready to accept connections')) done(server);
    });
    server.once('exit', (code) => fail(new Error(`redis-server exited (${code}): ${out}`)));
  });
}

/** Scripts Redis ran since the last CONFIG RESETSTAT (EVAL and EVALSHA calls). */
async function scriptRuns(client) {
  const info = await client.info('commandstats');
  let runs = 0;
  for (const [, calls] of info.matchAll(/^cmdstat_(?:eval|evalsha):calls=(\d+)/gm)) runs += Number(calls);
  return runs;
}

async function run(port, client, variant, seconds) {
  await client.config('RESETSTAT');
  const key = `bench:${variant}:${Date.now()}`;
  const start = Date.now() + 1500; // every child connected and waiting before the bucket is first touched
  const end = start + seconds * 1000;
  const children = Array.from({ length: PROCESSES }, () => {
    const proc = spawn(
      process.execPath,
      [import.meta.filename, '--child', String(port), variant, key, String(start), String(end)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    return new Promise((done) => proc.once('exit', () => done(JSON.parse(out.trim() || '[]'))));
  });
  await new Promise((done) => setTimeout(done, end - Date.now()));
  const runs = await scriptRuns(client);
  const grants = (await Promise.all(children)).flat().sort((a, b) => a - b);
  const allowed = RATE.burst + (RATE.perMinute / 60_000) * (end - start);
  return { variant, requests: grants.length, runs, perRequest: runs / Math.max(1, grants.length), allowed };
}

/** Runs both limiters against one redis-server; resolves their figures, or `{ skipped }`. */
export async function benchRateLimit({ seconds = 10 } = {}) {
  if (!existsSync(redisBinary)) return { skipped: `no redis-server at ${redisBinary}` };
  if (!existsSync(resolve(root, 'dist/server.js'))) return { skipped: 'dist/server.js is missing (npm run build)' };
  const port = await freePort();
  const server = await startRedis(port);
  const client = new Redis(port, '127.0.0.1');
  try {
    return [await run(port, client, 'before', seconds), await run(port, client, 'after', seconds)];
  } finally {
    client.disconnect();
    server.kill('SIGTERM');
  }
}

/** The lines `npm run bench` prints. */
export function formatRateLimit(result, seconds) {
  if (result.skipped) return [`  SKIPPED (${result.skipped})`];
  const label = { before: 'before: every waiter runs EVAL', after: 'createRedisRateLimiter (FIFO, EVALSHA)' };
  return [
    `  ${PROCESSES} processes x ${CALLERS} callers, ${RATE.perMinute}/min burst ${RATE.burst}, ${seconds} s, one redis-server`,
    ...result.map(
      (r) =>
        `  ${label[r.variant].padEnd(40)} ${r.perRequest.toFixed(2).padStart(6)} script runs per request (${r.runs} for ${r.requests}); sent ${r.requests} of the ${Math.floor(r.allowed)} the bucket allows (${((r.requests / r.allowed) * 100).toFixed(1)}%)`,
    ),
  ];
}

if (process.argv[2] === '--child') await child(process.argv);
else if (import.meta.filename === process.argv[1]) {
  const seconds = process.argv.includes('--quick') ? 4 : 10;
  console.log('shared rate limit (scripts/bench/rateLimit.mjs)');
  for (const line of formatRateLimit(await benchRateLimit({ seconds }), seconds)) console.log(line);
  process.exit(0);
}
