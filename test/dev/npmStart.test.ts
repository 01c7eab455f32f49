// `npm start` (examples/polls/start.mjs) as a person runs it: one URL on stdout, then one line per event on stderr,
// as `svc dev` prints them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controlFetch } from '../helpers/controlApi';
import { FIRST_LINE, spawnProgram } from '../helpers/spawnProgram';

const root = resolve(import.meta.dirname, '../..');
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
    // Up to a minute: the example starts its backend and the platform, slow on a busy machine.
    const start = spawnProgram('node', ['examples/polls/start.mjs', '--state', state], {
      cwd: root,
      env: { ...process.env, PORT: String(port), SVC_STATE_DIR: home },
    });
    await start.waitFor(FIRST_LINE, 60_000);
    const url = new URL(start.stdout.trim().split('\n')[0]!);
    // It opens the app at start, as svc dev's URL does.
    expect(url.hash).toBe('#app');
    // The agent's way in: the endpoint and its configs on the terminal, and the file `svc mcp examples/polls` reads.
    await start.waitFor({ stderr: new RegExp(`MCP: ${url.origin}/mcp`) });
    // Beside the store's file, which leads svc publish to this platform (store-<port>.json).
    const discovery = readdirSync(join(home, 'dev')).filter(
      (name) => name.endsWith('.json') && !name.startsWith('store-'),
    );
    expect(discovery).toHaveLength(1);
    expect(readdirSync(join(home, 'dev'))).toContain(`store-${url.port}.json`);
    expect(JSON.parse(readFileSync(join(home, 'dev', discovery[0]!), 'utf8'))).toMatchObject({
      url: `${url.origin}/mcp`,
      dir: join(root, 'examples/polls'),
    });
    const granted = await controlFetch(url, 'POST', '/__svc/grant', { scope: 'svc.notifications' });
    expect(granted.status).toBe(200);
    await start.waitFor({ stderr: /--> webhook scope\.granted/ });
    expect(start.stderr).toMatch(/--> webhook scope\.granted \[[\w-]{8}\] attempt 1: 200 \(\d+ ms\)/);
    await fetch(`${url.origin}/v1/installations/au-alice`);
    await start.waitFor({ stderr: /<-- GET \/v1\/installations\/au-alice/ });
    // Stopped, it takes its discovery file with it.
    await start.stop('SIGINT');
    expect(readdirSync(join(home, 'dev')).filter((name) => name.endsWith('.json'))).toEqual([]);
  }, 90_000);
});
