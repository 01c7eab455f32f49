// `npm start` (examples/polls/start.mjs) as a person runs it: one URL on stdout, then one line per event on stderr,
// as `svc dev` prints them.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
let child: ChildProcess | undefined;
afterEach(async () => {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child!.once('exit', r));
  child.kill('SIGINT');
  await exited;
});

/** A port whose next two are free too (npm start uses port, port + 1 and port + 2). */
async function freePorts(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((ok) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => ok(p));
      });
    });
    const free = await Promise.all(
      [port + 1, port + 2].map(
        (p) =>
          new Promise<boolean>((ok) => {
            const s = createServer()
              .once('error', () => ok(false))
              .listen(p, '127.0.0.1', () => s.close(() => ok(true)));
          }),
      ),
    );
    if (port + 2 < 65536 && free.every(Boolean)) return port;
  }
}

describe.runIf(existsSync(join(root, 'packages/svc-sdk-dev/dist/index.js')))('npm start', () => {
  it('prints the URL and the MCP endpoint, writes the discovery file, then a line per webhook attempt and server API call', async () => {
    const home = await mkdtemp(join(tmpdir(), 'svc-start-'));
    const state = join(home, 'state.json');
    const port = await freePorts();
    child = spawn(process.execPath, ['examples/polls/start.mjs', '--state', state], {
      cwd: root,
      env: { ...process.env, PORT: String(port), SVC_STATE_DIR: home },
      stdio: 'pipe',
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const until = async (ok: () => boolean, what: string) => {
      for (let i = 0; i < 1200 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
      if (!ok()) throw new Error(`${what} never came; stderr: ${stderr}`);
    };
    await until(() => stdout.includes('\n'), 'the URL');
    const url = new URL(stdout.trim().split('\n')[0]!);
    // The agent's way in: the endpoint and its configs on the terminal, and the file `svc mcp examples/polls` reads.
    await until(() => stderr.includes(`MCP: ${url.origin}/mcp`), 'the MCP line');
    const discovery = readdirSync(join(home, 'dev')).filter((name) => name.endsWith('.json'));
    expect(discovery).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(home, 'dev', discovery[0]!), 'utf8'))).toMatchObject({
      url: `${url.origin}/mcp`,
      dir: join(root, 'examples/polls'),
    });
    const granted = await fetch(`${url.origin}/__svc/grant`, {
      method: 'POST',
      headers: {
        origin: url.origin,
        'x-svc-dev-token': url.searchParams.get('token')!,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ scope: 'svc.notifications' }),
    });
    expect(granted.status).toBe(200);
    await until(() => stderr.includes('--> webhook scope.granted'), 'the webhook line');
    expect(stderr).toMatch(/--> webhook scope\.granted \[[\w-]{8}\] attempt 1: 200 \(\d+ ms\)/);
    await fetch(`${url.origin}/v1/installations/au-alice`);
    await until(() => stderr.includes('<-- GET /v1/installations/au-alice'), 'the server API line');
    // Stopped, it takes its discovery file with it.
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGINT');
    await exited;
    expect(readdirSync(join(home, 'dev')).filter((name) => name.endsWith('.json'))).toEqual([]);
  }, 90_000);
});
