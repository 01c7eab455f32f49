// A real redis-server for the tests, on a free loopback port, with no persistence. Debian's package
// (/usr/bin/redis-server, or REDIS_SERVER). Missing: the tests skip loudly, except with CI=true, where they fail.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

export const redisBinary = process.env.REDIS_SERVER || '/usr/bin/redis-server';
export const haveRedis = existsSync(redisBinary);
if (!haveRedis) {
  if (process.env.CI === 'true')
    throw new Error(`redis-server is required in CI but missing at ${redisBinary} (apt-get install -y redis-server).`);
  console.warn(
    `!!! SKIPPED: no redis-server at ${redisBinary}: the Redis store and limiter are NOT tested on this machine.`,
  );
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Starts redis-server (on `port`, default a free one); resolves its URL and a stop function. */
export async function startRedis(port?: number): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  port ??= await freePort();
  const child: ChildProcess = spawn(
    redisBinary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start within 10 s')), 10_000);
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
