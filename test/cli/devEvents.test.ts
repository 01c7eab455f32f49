// `svc dev` on the terminal: a stable default port (moving on when taken, saying so), the exact meta tag for
// --app-url, one line per event (webhook attempts, server API calls) unless --quiet, the env file rewritten on a
// rotation, and --reset back to a fresh state file.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DEV_PORT } from '../../src/cli/devCommand';
import { controlFetch } from '../helpers/controlApi';
import { runDev } from '../helpers/runDev';
import { writeAppDir } from '../dev/appDir';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** Runs `svc dev` in-process; `control` posts to its control API as its page does. */
async function run(dir: string, args: string[]) {
  const dev = await runDev(args, dir);
  return { ...dev, control: (path: string, body: unknown) => controlFetch(dev.url, 'POST', `/__svc${path}`, body) };
}

const listen = (server: Server, port = 0) =>
  new Promise<number>((ok, fail) => {
    server.once('error', fail).listen(port, '127.0.0.1', () => ok((server.address() as { port: number }).port));
    servers.push(server);
  });
const until = async (check: () => boolean) => {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('svc dev on the terminal', () => {
  it('takes the next port when the default one is taken, says so, and for --app-url prints the meta tag and that the policies are not applied', async () => {
    const blocker = createServer();
    const taken = await listen(blocker, DEFAULT_DEV_PORT).catch(() => DEFAULT_DEV_PORT); // taken either way
    expect(taken).toBe(DEFAULT_DEV_PORT);
    const dir = await writeAppDir();
    const dev = await run(dir, ['.', '--app-url', 'http://localhost:5173/']);
    expect(Number(dev.url.port)).toBeGreaterThan(DEFAULT_DEV_PORT);
    expect(dev.out.stderr).toContain(`port ${DEFAULT_DEV_PORT} is taken`);
    expect(dev.out.stderr).toContain(`<meta name="svc-host-origins" content="${dev.url.origin}">`);
    expect(dev.out.stderr).toContain(
      "while you develop (a host writes its own into what ships: with Vite, add it from a plugin's transformIndexHtml with apply: 'serve')",
    );
    // The dev server serves the page, without the package's policies: said, so a policy mistake is not a surprise later.
    expect(dev.out.stderr).toContain(
      "svc dev: your dev server serves the page, so the manifest's csp and network allowlist are not applied to it and blocked requests are not reported: check them on the build (npm run build, then svc dev dist).",
    );
    expect(await dev.stop()).toBe(0);
  });

  it('prints one line per webhook attempt and server API call, rewrites the env file on a rotation; --quiet prints none', async () => {
    const hook = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    });
    const hookPort = await listen(hook);
    const dir = await writeAppDir();
    const webhooks = ['--webhooks', `http://127.0.0.1:${hookPort}/hooks`];
    const dev = await run(dir, ['.', '--port', '0', '--backend-env', 'backend.env', ...webhooks]);
    expect((await dev.control('/grant', { scope: 'svc.files.read' })).status).toBe(200);
    await until(() => dev.out.stderr.includes('webhook scope.granted'));
    expect(dev.out.stderr).toMatch(/--> webhook scope\.granted \[[\w-]{8}\] attempt 1: 200 \(\d+ ms\)/);
    expect((await fetch(`${dev.url.origin}/v1/installations/au-alice`)).status).toBe(401);
    await until(() => dev.out.stderr.includes('<-- GET /v1/installations/au-alice'));
    expect(dev.out.stderr).toMatch(/<-- GET \/v1\/installations\/au-alice: 401 \(\d+ ms\)/);
    const before = readFileSync(join(dir, 'backend.env'), 'utf8');
    expect(before).not.toContain('SVC_SIGNING_SECRET_PREVIOUS');
    expect((await dev.control('/rotate-secret', {})).status).toBe(200);
    await until(() => readFileSync(join(dir, 'backend.env'), 'utf8').includes('PREVIOUS'));
    const after = readFileSync(join(dir, 'backend.env'), 'utf8');
    const previous = /^SVC_SIGNING_SECRET_PREVIOUS=(\S+)$/m.exec(after)?.[1];
    expect(previous).toBe(/^SVC_SIGNING_SECRET=(\S+)$/m.exec(before)?.[1]);
    expect(dev.out.stderr).not.toContain(previous);
    expect(await dev.stop()).toBe(0);

    const quiet = await run(dir, ['.', '--port', '0', '--quiet', ...webhooks]);
    await quiet.control('/grant', { scope: 'svc.files.read' });
    await fetch(`${quiet.url.origin}/v1/installations/au-alice`);
    // Nothing printed is marked by no event: wait for what the lines would report to be done (the delivery made,
    // which the state shows after its line would have been written), then look.
    const delivered = async () => {
      const res = await fetch(`${quiet.url.origin}/__svc/state`, {
        headers: { origin: quiet.url.origin, 'x-svc-dev-token': quiet.url.searchParams.get('token')! },
      });
      return ((await res.json()) as { deliveries: { state: string }[] }).deliveries[0]?.state === 'delivered';
    };
    for (let i = 0; i < 300 && !(await delivered()); i++) await new Promise((r) => setTimeout(r, 10));
    expect(await delivered()).toBe(true);
    expect(quiet.out.stderr).not.toContain('-->');
    expect(quiet.out.stderr).not.toContain('<--');
    expect(await quiet.stop()).toBe(0);
  });

  it('prints a blocked request once, its control characters escaped, so a report cannot forge a line', async () => {
    const dir = await writeAppDir();
    const dev = await run(dir, ['.', '--port', '0']);
    const appUrl = /package at (\S+);/.exec(dev.out.stderr)![1]!;
    // The report address is in the app page's CSP, as the browser reads it.
    const csp = (await fetch(appUrl)).headers.get('content-security-policy')!;
    const reportPath = /report-uri (\S+?)[;,]/.exec(csp)![1]!;
    const forged = 'https://evil.example/x\n20:59:59  launch   \u001b[31mFAKE: run this\u001b[0m\u202e';
    for (let i = 0; i < 3; i++) {
      const sent = await fetch(new URL(reportPath, appUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/csp-report' },
        body: JSON.stringify({ 'csp-report': { 'blocked-uri': forged, 'effective-directive': 'img-src' } }),
      });
      expect(sent.status).toBe(204);
    }
    await until(() => dev.out.stderr.includes('blocked  '));
    const lines = dev.out.stderr.split('\n').filter((line) => line.includes('evil.example'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d {2}blocked {2}https:\/\/evil\.example\/x\\u000a20:59:59 {2}launch {3}\\u001b\[31mFAKE: run this\\u001b\[0m\\u202e: /,
    );
    expect([dev.out.stderr.includes('\u001b'), dev.out.stderr.includes('\u202e')]).toEqual([false, false]);
    expect(await dev.stop()).toBe(0);
  });

  it("says when the app's origin in --backend-env changed since the last run (the backend's CORS setting goes stale)", async () => {
    const dir = await writeAppDir();
    const first = await run(dir, [
      '.',
      '--port',
      '0',
      '--backend-env',
      'backend.env',
      '--app-url',
      'http://127.0.0.1:5173/',
    ]);
    expect(await first.stop()).toBe(0);
    expect(readFileSync(join(dir, 'backend.env'), 'utf8')).toContain('SVC_APP_ORIGIN=http://127.0.0.1:5173\n');
    expect(first.out.stderr).not.toContain("the app's origin is");
    // The build, served by svc dev on an origin of its own.
    const second = await run(dir, ['.', '--port', '0', '--backend-env', 'backend.env']);
    const origin = /^SVC_APP_ORIGIN=(.*)$/m.exec(readFileSync(join(dir, 'backend.env'), 'utf8'))?.[1];
    expect(origin).toMatch(/^http:\/\/localhost:\d+$/);
    expect(second.out.stderr).toContain(
      `svc dev: the app's origin is ${origin} now, not http://127.0.0.1:5173: backend.env says so (SVC_APP_ORIGIN); restart a backend that read the old one, or it refuses the app's requests (CORS).`,
    );
    expect(await second.stop()).toBe(0);
  });

  it('says on the terminal when a rotation could not rewrite --backend-env, and the rotation stands', async () => {
    const dir = await writeAppDir();
    const dev = await run(dir, ['.', '--port', '0', '--backend-env', 'backend.env']);
    // A folder where the file was: no write can land (chmod alone does not stop root).
    rmSync(join(dir, 'backend.env'));
    mkdirSync(join(dir, 'backend.env'));
    const rotated = await dev.control('/rotate-secret', {});
    expect(rotated.status).toBe(200);
    await until(() => dev.out.stderr.includes('could not be rewritten'));
    expect(dev.out.stderr).toMatch(
      /the signing secret was rotated .* But backend\.env could not be rewritten \(EISDIR.*\): until your backend has the new secret, it refuses every webhook \(401\)\. Make the file writable and rotate again/,
    );
    expect(await dev.stop()).toBe(0);
  });

  it('says on its own line when a delivery failed for good, and what to do', async () => {
    const hook = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(503).end());
    });
    const hookPort = await listen(hook);
    const dir = await writeAppDir();
    const dev = await run(dir, [
      '.',
      '--port',
      '0',
      '--retry-scale',
      '0.001',
      '--webhooks',
      `http://127.0.0.1:${hookPort}/hooks`,
    ]);
    await dev.control('/grant', { scope: 'svc.files.read' });
    await until(() => dev.out.stderr.includes('failed   webhook'));
    expect(dev.out.stderr.match(/--> webhook scope\.granted \[\w+\] attempt \d: 503/g)).toHaveLength(6);
    expect(dev.out.stderr).toMatch(
      /failed {3}webhook scope\.granted \[\w{8}\]: no answer 2xx in 6 attempts, so no more are made .*press "send again" in the webhook panel\./,
    );
    expect(await dev.stop()).toBe(0);
  });

  it('after a restart with --state, only new webhook attempts are printed, never an old delivery as new', async () => {
    const hook = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    const webhooks = ['--webhooks', `http://127.0.0.1:${await listen(hook)}/hooks`];
    const dir = await writeAppDir();
    const first = await run(dir, ['.', '--port', '0', '--state', 'state.json', ...webhooks]);
    await first.control('/grant', { scope: 'svc.files.read' });
    await until(() => first.out.stderr.includes('webhook scope.granted'));
    const old = /webhook scope\.granted \[([\w-]{8})\]/.exec(first.out.stderr)![1]!;
    expect(await first.stop()).toBe(0);
    const second = await run(dir, ['.', '--port', '0', '--state', 'state.json', ...webhooks]);
    await second.control('/grant', { scope: 'svc.room.context' });
    await until(() => second.out.stderr.includes('webhook scope.granted'));
    expect(second.out.stderr.match(/--> webhook /g)).toHaveLength(1);
    expect(second.out.stderr).not.toContain(`[${old}]`);
    expect(await second.stop()).toBe(0);
    hook.close();
  });

  it('--reset starts from a fresh state file', async () => {
    const dir = await writeAppDir();
    // The state as the platform serves it, read over HTTP (the file itself is a snapshot and a journal).
    const grants = async (dev: Awaited<ReturnType<typeof run>>) => {
      const res = await fetch(`${dev.url.origin}/__svc/state`, {
        headers: { origin: dev.url.origin, 'x-svc-dev-token': dev.url.searchParams.get('token')! },
      });
      return ((await res.json()) as { grants: { scopes: string[] }[] }).grants.flatMap((g) => g.scopes);
    };
    const first = await run(dir, ['.', '--port', '0', '--state', 'state.json']);
    await first.control('/grant', { scope: 'svc.files.read' });
    expect(await first.stop()).toBe(0);
    const kept = await run(dir, ['.', '--port', '0', '--state', 'state.json']);
    expect(await grants(kept)).toContain('svc.files.read');
    expect(await kept.stop()).toBe(0);
    const again = await run(dir, ['.', '--port', '0', '--state', 'state.json', '--reset']);
    expect(again.out.stderr).toContain('--reset starts afresh');
    expect(await grants(again)).not.toContain('svc.files.read');
    await again.control('/grant', { scope: 'svc.room.context' });
    expect(await again.stop()).toBe(0);
    const last = await run(dir, ['.', '--port', '0', '--state', 'state.json']);
    const after = await grants(last);
    expect(after).toContain('svc.room.context');
    expect(after).not.toContain('svc.files.read');
    expect(await last.stop()).toBe(0);
  });
});
