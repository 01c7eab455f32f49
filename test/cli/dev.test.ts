// `svc dev`: validates the manifest first (the CLI's messages, exit 1), starts the platform, prints one URL, and
// stops cleanly; the built bin does the same under a real signal.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEV } from '../../src/cli/devCommand';
import { startDevPlatform } from '../../src/dev';
import { controlFetch } from '../helpers/controlApi';
import { runDev } from '../helpers/runDev';
import { captureIo } from './runInProcess';
import { CLI, FIRST_LINE, spawnCli, spawnProgram } from '../helpers/spawnProgram';
import { signRequest } from '../../src/server';
import { writeAppDir } from '../dev/appDir';

describe('svc dev', () => {
  it('prints the messenger URL, serves it, writes the backend settings file, and stops', async () => {
    const dir = await writeAppDir();
    const dev = await runDev(['.', '--port', '0', '--backend-env', 'backend.env'], dir);
    const { out } = dev;
    const url = out.stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+#app$/);
    expect((await fetch(url)).status).toBe(200);
    expect(out.stderr).not.toMatch(/SVC_SIGNING_SECRET=\S/);
    const env = readFileSync(join(dir, 'backend.env'), 'utf8');
    expect(env).toMatch(/^SVC_SIGNING_SECRET=\S+$/m);
    expect(env).toContain(`SVC_API_BASE=${new URL(url).origin}/v1`);
    expect(await dev.stop()).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });

  it('writes the app origin a backend allows (SVC_APP_ORIGIN), and keeps its port across restarts with --state', async () => {
    const dir = await writeAppDir();
    const start = async () => {
      const dev = await runDev(['.', '--port', '0', '--state', 'state.json', '--backend-env', 'backend.env'], dir);
      const env = readFileSync(join(dir, 'backend.env'), 'utf8');
      const appOrigin = /^SVC_APP_ORIGIN=(\S+)$/m.exec(env)?.[1];
      return { out: dev.out, appOrigin, close: dev.stop };
    };
    const first = await start();
    expect(first.appOrigin).toMatch(/^http:\/\/localhost:\d+$/);
    // The origin the settings name is the one the app is served from.
    expect((await fetch(`${first.appOrigin}/index.html`)).status).toBe(200);
    expect(await first.close()).toBe(0);
    const second = await start();
    expect(second.appOrigin).toBe(first.appOrigin);
    expect((await fetch(`${second.appOrigin}/index.html`)).status).toBe(200);
    expect(await second.close()).toBe(0);
    // The kept port taken by another program: a free one, said on the terminal with what to do.
    const squatter = createServer().listen(Number(new URL(first.appOrigin!).port), '127.0.0.1');
    await once(squatter, 'listening');
    try {
      const third = await start();
      expect(third.appOrigin).not.toBe(first.appOrigin);
      expect(third.out.stderr).toContain(`the app's port ${new URL(first.appOrigin!).port} (kept in`);
      expect(third.out.stderr).toContain('give your backend the new origin');
      expect(await third.close()).toBe(0);
    } finally {
      squatter.close();
    }
  });

  it('warns when the entry document is not in the folder, and starts anyway (a build may write it next)', async () => {
    const dir = await writeAppDir();
    const complete = await runDev(['.', '--port', '0'], dir);
    expect(complete.out.stderr).not.toContain('warning: the entry');
    expect(await complete.stop()).toBe(0);
    rmSync(join(dir, 'index.html'));
    const dev = await runDev(['.', '--port', '0'], dir);
    expect(dev.out.stderr).toContain(
      `svc dev: warning: the entry index.html is not in ${dir}, so the app's frame shows a 404: build the app into this folder, pass the folder that holds it, or pass --app-url <your dev server>.`,
    );
    expect((await fetch(dev.out.stdout.trim())).status).toBe(200);
    expect(await dev.stop()).toBe(0);
  });

  it('takes an --allow origin as a CSP names it: host in lower case, no trailing slash (recheck45 F3)', async () => {
    const dir = await writeAppDir();
    const dev = await runDev(['.', '--port', '0', '--no-mcp', '--allow', 'http://LOCALHOST:3000/'], dir);
    try {
      const config = (await (await controlFetch(dev.url, 'GET', '/__svc/config')).json()) as { appUrl: string };
      const csp = (await fetch(config.appUrl)).headers.get('content-security-policy') ?? '';
      expect(csp).toContain('http://localhost:3000');
      expect(csp).not.toContain('LOCALHOST');
      expect(csp).not.toContain('localhost:3000/');
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  });

  it('refuses an invalid manifest with exit 1, naming the problem', async () => {
    const dir = await writeAppDir((m) => {
      m.version = 'one';
    });
    const { out, io: cli } = captureIo(dir);
    expect(await DEV.run(['.'], cli)).toBe(1);
    expect(out.stderr).toContain('manifest.json is not a valid manifest');
    expect(out.stderr).toContain('$.version');
    expect(out.stdout).toBe('');
  });

  it('refuses bad flags with exit 2 and a sentence naming the flag', async () => {
    const { out, io: cli } = captureIo(process.cwd());
    expect(await DEV.run(['--allow', 'https://evil.example'], cli)).toBe(2);
    expect(out.stderr).toContain('--allow https://evil.example');
    // A CSP cannot name an IPv6 address, and an origin has no path (recheck45 F3).
    expect(await DEV.run(['--allow', 'http://[::1]:3000'], cli)).toBe(2);
    expect(out.stderr).toContain(
      "--allow http://[::1]:3000: a page's CSP cannot name an IPv6 address: give http://127.0.0.1:3000",
    );
    expect(await DEV.run(['--allow', 'http://localhost:3000/api'], cli)).toBe(2);
    expect(out.stderr).toContain(
      '--allow http://localhost:3000/api: give an origin alone, scheme, host and port, such as http://localhost:3000',
    );
    expect(await DEV.run(['--port', 'x'], cli)).toBe(2);
    expect(await DEV.run(['--retry-scale', '-1'], cli)).toBe(2);
    expect(await DEV.run(['--port', '4400', '--package-port', '4400'], cli)).toBe(2);
    expect(out.stderr).toContain('--port and --package-port are both 4400: the messenger and the app are two origins');
    // A port over 65535 fails `new URL`: refused here, not halfway through the start (which then kept its ports).
    for (const [flag, value] of [
      ['--webhooks', 'http://127.0.0.1:99999/h'],
      ['--app-url', 'http://127.0.0.1:99999'],
      ['--allow', 'http://127.0.0.1:99999'],
      ['--mcp-origin', 'http://127.0.0.1:99999'],
    ]) {
      expect(await DEV.run([flag!, value!], cli), flag).toBe(2);
      expect(out.stderr).toContain(`${flag} ${value}`);
    }
    expect(out.stderr).toContain(
      '--app-url http://127.0.0.1:99999 is not a whole http(s) URL (a port is at most 65535)',
    );
    // Text that is no URL at all is told what a URL looks like, not the port's limit (recheck18 N8).
    expect(await DEV.run(['--app-url', 'notaurl'], cli)).toBe(2);
    expect(out.stderr).toContain(
      '--app-url notaurl is not a whole http(s) URL: write it such as http://localhost:5173',
    );
    await expect(
      startDevPlatform({ miniAppId: 'polls', audience: 'a', webhooks: 'http://127.0.0.1:99999/h' }),
    ).rejects.toThrow('webhooks: http://127.0.0.1:99999/h is not an http(s) URL with a valid port');
  });

  it("refuses --allow, --app-url and --webhooks of svc dev's own port with exit 2, listening on nothing (sec44 F5)", async () => {
    const dir = await writeAppDir();
    const free = createServer().listen(0, '127.0.0.1');
    await once(free, 'listening');
    const port = (free.address() as AddressInfo).port;
    await new Promise((closed) => free.close(closed));
    const { out, io: cli } = captureIo(dir);
    expect(await DEV.run(['.', '--port', String(port), '--no-mcp', '--allow', `http://localhost:${port}`], cli)).toBe(
      2,
    );
    expect(out.stderr).toContain(`--allow http://localhost:${port} is svc dev's own platform`);
    // Nor is it the app's page: the frame would load the messenger itself (recheck45 F7).
    const appUrl = `http://127.0.0.1:${port}/`;
    expect(await DEV.run(['.', '--port', String(port), '--no-mcp', '--app-url', appUrl], cli)).toBe(2);
    expect(out.stderr).toContain(`--app-url ${appUrl} is svc dev's own platform`);
    // Nor its webhook URL: every delivery would be a 404 (recheck47 F7).
    const hooks = `http://127.0.0.1:${port}/svc/webhooks`;
    expect(await DEV.run(['.', '--port', String(port), '--no-mcp', '--webhooks', hooks], cli)).toBe(2);
    expect(out.stderr).toContain(
      `--webhooks ${hooks} is svc dev's own platform (the messenger, its control API, the server API), which takes no webhook`,
    );
    // Nor the app's package origin, svc dev's too (recheck48 F2).
    const atPackage = `http://localhost:${port}/hooks`;
    const other = ['.', '--port', '0', '--package-port', String(port), '--no-mcp', '--webhooks', atPackage];
    expect(await DEV.run(other, cli)).toBe(2);
    expect(out.stderr).toContain(
      `--webhooks ${atPackage} is the app's package origin, where svc dev serves the app's files`,
    );
    expect(out.stdout).toBe('');
    // Nothing kept the port: it can be listened on again.
    const again = createServer().listen(port, '127.0.0.1');
    await once(again, 'listening');
    await new Promise((closed) => again.close(closed));
  });

  it.runIf(existsSync(resolve('dist/cli.js')))('the built bin prints one URL and exits 0 on SIGINT', async () => {
    const dir = await writeAppDir();
    const dev = spawnCli(['dev', dir, '--port', '0']);
    await dev.waitFor(FIRST_LINE);
    const lines = dev.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect((await fetch(lines[0]!)).status).toBe(200);
    expect(await dev.stop('SIGINT')).toBe(0);
    expect(dev.stderr).toContain('svc dev: stopping (SIGINT).');
  });

  it.runIf(existsSync(resolve('dist/cli.js')))('the built bin says which signal stopped it', async () => {
    const dir = await writeAppDir();
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
      const dev = spawnCli(['dev', dir, '--port', '0']);
      await dev.waitFor(FIRST_LINE);
      // A terminal's log (nohup's, a CI job's) showed nothing after the start: the run just ended.
      expect(await dev.stop(signal)).toBe(0);
      expect(dev.stderr).toContain(`svc dev: stopping (${signal}).`);
    }
  });

  it.runIf(existsSync(resolve('dist/cli.js')))(
    'the built bin, run through its shebang under Node 20, writes --backend-env with mode 600 over an existing file, and rewrites it on rotation',
    async () => {
      const dir = await writeAppDir();
      const envPath = join(dir, '.env.svc-dev');
      // One svc dev wrote before (an old secret), left readable by others.
      writeFileSync(envPath, '# settings\nSVC_SIGNING_SECRET=old\nSVC_OLD=1\n', { mode: 0o644 });
      chmodSync(envPath, 0o644);
      // Executed as npx does: the shebang's node, then our arguments (Node 20 reads any --env-file among them).
      const dev = spawnProgram(CLI, ['dev', dir, '--port', '0', '--backend-env', '.env.svc-dev'], { cwd: dir });
      await dev.waitFor(FIRST_LINE);
      const url = new URL(dev.stdout.trim());
      expect(statSync(envPath).mode & 0o777).toBe(0o600);
      const env = Object.fromEntries(
        readFileSync(envPath, 'utf8')
          .trim()
          .split('\n')
          .map((l) => l.split('=', 2) as [string, string]),
      );
      expect(env.SVC_OLD).toBeUndefined();
      expect(env.SVC_SIGNING_SECRET).not.toBe('old');
      // The secret in the file signs a request the platform accepts.
      const headers = await signRequest({ body: '', secret: env.SVC_SIGNING_SECRET!, miniAppId: env.SVC_MINI_APP_ID! });
      const path = `/v1/apps/${env.SVC_MINI_APP_ID}/installations/au-alice`;
      expect((await fetch(`${url.origin}${path}`, { headers })).status).toBe(200);

      const rotate = await controlFetch(url, 'POST', '/__svc/rotate-secret', {});
      expect(rotate.status).toBe(200);
      const rotated = readFileSync(envPath, 'utf8').match(/^SVC_SIGNING_SECRET=(\S+)$/m)?.[1];
      expect(rotated).toBeDefined();
      expect(rotated).not.toBe(env.SVC_SIGNING_SECRET);
      // Written before the rotation was answered; the child's stderr pipe may bring it a moment later.
      await dev.waitFor({ stderr: /the signing secret was rotated \(generation 2\).*\.env\.svc-dev now holds both/ });
      expect(dev.stderr).not.toContain(rotated!);
      expect(await dev.stop('SIGINT')).toBe(0);
    },
  );

  it.runIf(existsSync(resolve('dist/cli.js')) && process.platform === 'linux')(
    '--open gives the printed URL to xdg-open, and says so when there is no browser to open it',
    async () => {
      const dir = await writeAppDir();
      // Stand-ins for xdg-open, each alone on PATH: one that records the URL it is given, one that finds no browser
      // (exit 3, as xdg-open does on a server), and none at all.
      const bin = join(dir, 'bin');
      mkdirSync(join(bin, 'ok'), { recursive: true });
      mkdirSync(join(bin, 'none'));
      mkdirSync(join(bin, 'empty'));
      writeFileSync(join(bin, 'ok', 'xdg-open'), `#!/bin/sh\necho "$1" > '${join(dir, 'opened.txt')}'\n`, {
        mode: 0o755,
      });
      writeFileSync(join(bin, 'none', 'xdg-open'), '#!/bin/sh\necho "no method available" >&2\nexit 3\n', {
        mode: 0o755,
      });
      const open = (folder: string) =>
        spawnProgram('node', [CLI, 'dev', dir, '--port', '0', '--open'], {
          env: { ...process.env, PATH: join(bin, folder) },
        });
      const opened = open('ok');
      await opened.waitFor(FIRST_LINE);
      await expect
        .poll(() => (existsSync(join(dir, 'opened.txt')) ? readFileSync(join(dir, 'opened.txt'), 'utf8') : ''))
        .toBe(opened.stdout);
      expect(await opened.stop()).toBe(0);
      expect(opened.stderr).not.toContain('--open could not');

      const headless = open('none');
      await headless.waitFor(
        {
          stderr: /svc dev: --open could not open a browser \(xdg-open: exit code 3\); open the URL above yourself\./,
        },
        5000,
      );
      expect(await headless.stop()).toBe(0);

      // No xdg-open at all: a PATH of an empty folder (this Node is started by its full path).
      const missing = open('empty');
      await missing.waitFor({ stderr: /--open could not open a browser \(xdg-open: ENOENT\)/ }, 5000);
      expect(await missing.stop()).toBe(0);
    },
  );

  it.runIf(existsSync(resolve('dist/cli.js')))(
    'refuses a --state file another svc dev uses, and takes over one whose svc dev was killed',
    async () => {
      const dir = await writeAppDir();
      const start = () =>
        spawnProgram('node', [CLI, 'dev', dir, '--port', '0', '--state', 'state.jsonl'], { cwd: dir });
      const first = start();
      await first.waitFor(FIRST_LINE);
      // Two writers would each rewrite the file under the other: the second is refused, and changes nothing.
      const second = start();
      const [code] = await once(second.child, 'exit');
      expect(code).toBe(2);
      expect(second.stderr).toBe(
        `svc dev: --state ${join(dir, 'state.jsonl')} is in use by another svc dev (process ${first.child.pid}): stop that one first, or pass another --state. If no svc dev runs (its process id was given to another program since), delete ${join(dir, 'state.jsonl')}.lock.\n`,
      );
      expect(readFileSync(join(dir, 'state.jsonl.lock'), 'utf8')).toBe(String(first.child.pid));
      // Nor does --reset delete the file under it.
      const saved = readFileSync(join(dir, 'state.jsonl'), 'utf8');
      const reset = spawnProgram('node', [CLI, 'dev', dir, '--port', '0', '--state', 'state.jsonl', '--reset'], {
        cwd: dir,
      });
      expect((await once(reset.child, 'exit'))[0]).toBe(2);
      expect(reset.stderr).toContain(`is in use by another svc dev (process ${first.child.pid})`);
      expect(readFileSync(join(dir, 'state.jsonl'), 'utf8')).toBe(saved);
      // Killed, it cannot give the file back: the next start takes it over, and gives it back when it stops.
      first.child.kill('SIGKILL');
      await once(first.child, 'exit');
      const third = start();
      await third.waitFor(FIRST_LINE);
      expect(readFileSync(join(dir, 'state.jsonl.lock'), 'utf8')).toBe(String(third.child.pid));
      expect(await third.stop()).toBe(0);
      expect(existsSync(join(dir, 'state.jsonl.lock'))).toBe(false);
      expect(existsSync(join(dir, 'state.jsonl'))).toBe(true);
    },
  );

  it.runIf(existsSync(resolve('dist/cli.js')))(
    'keeps running when the reader of its output goes away, and still stops cleanly',
    async () => {
      const dir = await writeAppDir();
      const args = ['dev', dir, '--port', '0', '--state', 'state.jsonl', '--backend-env', 'backend.env'];
      const dev = spawnProgram('node', [CLI, ...args], { cwd: dir });
      const url = new URL(((await dev.waitFor(FIRST_LINE)) as RegExpExecArray)[1]!);
      // As `svc dev 2>&1 | head -1` does once it has the URL: nobody reads its output any more.
      dev.child.stdout.destroy();
      dev.child.stderr.destroy();
      // A server API call, which svc dev prints a line about: that write fails with EPIPE.
      const env = Object.fromEntries(
        readFileSync(join(dir, 'backend.env'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => l.split('=', 2) as [string, string]),
      );
      const path = `/v1/apps/${env.SVC_MINI_APP_ID}/installations/au-alice`;
      for (let i = 0; i < 3; i++) {
        const headers = await signRequest({
          body: '',
          secret: env.SVC_SIGNING_SECRET!,
          miniAppId: env.SVC_MINI_APP_ID!,
        });
        expect((await fetch(`${url.origin}${path}`, { headers })).status).toBe(200);
      }
      expect((await fetch(url)).status).toBe(200);
      expect(await dev.stop('SIGINT')).toBe(0);
      expect(existsSync(join(dir, 'state.jsonl.lock'))).toBe(false);
    },
  );

  it.runIf(existsSync(resolve('dist/cli.js')))(
    '--backend-env makes its folder, and a path it cannot write ends the command with the platform closed',
    async () => {
      const dir = await writeAppDir();
      const made = spawnProgram('node', [CLI, 'dev', dir, '--port', '0', '--backend-env', 'config/dev/backend.env'], {
        cwd: dir,
      });
      await made.waitFor(FIRST_LINE);
      expect(readFileSync(join(dir, 'config/dev/backend.env'), 'utf8')).toMatch(/^SVC_SIGNING_SECRET=\S+$/m);
      expect(statSync(join(dir, 'config')).mode & 0o777).toBe(0o700);
      expect(await made.stop()).toBe(0);
      // Under a file, no folder can be made: the command says so and ends, rather than serving on with no URL.
      const unwritable = spawnProgram(
        'node',
        [CLI, 'dev', dir, '--port', '0', '--backend-env', 'manifest.json/x.env'],
        {
          cwd: dir,
        },
      );
      const [code] = await once(unwritable.child, 'exit');
      expect(code).toBe(2);
      expect(unwritable.stderr).toMatch(
        /svc dev: --backend-env manifest\.json\/x\.env cannot be written \(EEXIST: file already exists, mkdir '.*manifest\.json'\): pass a path you can write to\.\n$/,
      );
      expect(unwritable.stdout).toBe('');
    },
  );

  it.runIf(existsSync(resolve('dist/cli.js')))(
    'refuses a --backend-env file another running svc dev writes, naming it, and frees the file when it stops',
    async () => {
      const dir = await writeAppDir();
      const args = (state: string) => [
        CLI,
        'dev',
        dir,
        '--port',
        '0',
        '--state',
        state,
        '--backend-env',
        '.env.svc-dev',
      ];
      const first = spawnProgram('node', args('a.json'), { cwd: dir });
      await first.waitFor(FIRST_LINE);
      const written = readFileSync(join(dir, '.env.svc-dev'), 'utf8');
      expect(written).toContain(`SVC_API_BASE=${new URL(first.stdout.trim()).origin}/v1`);
      // A second svc dev on the same file would replace the first's secret and API base under its backend.
      const second = spawnProgram('node', args('b.json'), { cwd: dir });
      const [code] = await once(second.child, 'exit');
      expect(code).toBe(2);
      expect(second.stderr).toMatch(
        new RegExp(
          `svc dev: --backend-env .*\\.env\\.svc-dev is in use by another svc dev \\(process ${first.child.pid}\\): stop that one first, or pass another --backend-env\\.`,
        ),
      );
      expect(readFileSync(join(dir, '.env.svc-dev'), 'utf8')).toBe(written);
      expect(await first.stop()).toBe(0);
      expect(existsSync(join(dir, '.env.svc-dev.lock'))).toBe(false);
      // Once the first stopped, the file is free for the next.
      const third = spawnProgram('node', args('b.json'), { cwd: dir });
      await third.waitFor(FIRST_LINE);
      expect(readFileSync(join(dir, '.env.svc-dev'), 'utf8')).toContain(new URL(third.stdout.trim()).origin);
      expect(await third.stop()).toBe(0);
    },
  );

  it.runIf(existsSync(resolve('dist/cli.js')))(
    'serves on when it cannot write its discovery files, and says what the developer loses',
    async () => {
      const dir = await writeAppDir();
      // A state folder under a file: no folder can be made there.
      const dev = spawnProgram('node', [CLI, 'dev', dir, '--port', '0'], {
        env: { ...process.env, SVC_STATE_DIR: join(dir, 'manifest.json', 'state') },
      });
      await dev.waitFor({ stderr: /svc publish cannot find this store: .*; set SVC_STATE_DIR to a writable folder/ });
      await dev.waitFor({ stderr: /svc mcp cannot find this platform: .*; set SVC_STATE_DIR to a writable folder/ });
      // The URL on stdout, which may come after both on stderr.
      await dev.waitFor(/^http:\/\/127\.0\.0\.1:\d+\S*\n/);
      expect((await fetch(dev.stdout.trim())).status).toBe(200);
      expect(await dev.stop()).toBe(0);
      // On a package, the start's advice names the settings' upload alone, not the svc publish that cannot find it.
      const folder = await writeAppDir();
      const cli = (...args: string[]) => execFileSync('node', [CLI, ...args], { cwd: folder, stdio: 'pipe' });
      cli('keygen', '--out', 'key.pem');
      cli('init', 'app', '--key', 'key.pem');
      writeFileSync(join(folder, 'app', 'index.html'), '<!doctype html><h1>x</h1>');
      cli('pack', 'app', '--key', 'key.pem', '--out', 'app.swbn');
      const served = spawnProgram('node', [CLI, 'dev', join(folder, 'app.swbn'), '--port', '0'], {
        env: { ...process.env, SVC_STATE_DIR: join(dir, 'manifest.json', 'state') },
      });
      await served.waitFor({
        stderr:
          /the local store holds \w+; Settings → Store uploads a new version \(svc publish cannot find this svc dev: see above\)\./,
      });
      expect(await served.stop()).toBe(0);
    },
  );

  it('refuses a --backend-env file holding settings it does not write, since it rewrites the whole file', async () => {
    const dir = await writeAppDir();
    const own =
      "# the project's own\nDATABASE_URL=postgres://localhost/app\nexport STRIPE_KEY=sk_test_1\nSVC_REALM=x\nsk_pasted_alone\n";
    writeFileSync(join(dir, '.env'), own);
    const { out, io: cli } = captureIo(dir);
    expect(await DEV.run(['.', '--port', '0', '--backend-env', '.env'], cli)).toBe(2);
    expect(out.stderr).toContain(
      'svc dev: --backend-env .env holds settings svc dev does not write (DATABASE_URL, STRIPE_KEY, line 5), and svc dev rewrites the whole file: pass a file of its own, such as .env.svc-dev',
    );
    expect(out.stderr).not.toMatch(/sk_test_1|sk_pasted_alone|postgres/);
    expect(out.stdout).toBe('');
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe(own);
  });

  it('names a taken --port and exits 2', async () => {
    const dir = await writeAppDir();
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    const { out, io: cli } = captureIo(dir);
    try {
      expect(await DEV.run(['.', '--port', String(port)], cli)).toBe(2);
    } finally {
      taken.close();
    }
    expect(out.stderr).toBe(
      `svc dev: port ${port} (--port) is taken by another program; pass --port <another> or --port 0 for any free one.\n`,
    );
  });

  it('with --reset, a start refused for a taken port keeps the state as it was', async () => {
    const dir = await writeAppDir();
    const first = await runDev(['.', '--port', '0', '--state', 'state.json'], dir);
    expect(await first.stop()).toBe(0);
    const saved = readFileSync(join(dir, 'state.json'), 'utf8');
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    const { out, io: cli } = captureIo(dir);
    try {
      expect(await DEV.run(['.', '--port', String(port), '--state', 'state.json', '--reset'], cli)).toBe(2);
    } finally {
      taken.close();
    }
    expect(out.stderr).toContain(`port ${port} (--port) is taken by another program`);
    expect(readFileSync(join(dir, 'state.json'), 'utf8')).toBe(saved);
    expect(readdirSync(dir).filter((name) => name.startsWith('state.json'))).toEqual(['state.json']);
  });

  it.runIf(existsSync(resolve('dist/cli.js')))('the built bin names a taken --package-port and exits 2', async () => {
    const dir = await writeAppDir();
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    const dev = spawnCli(['dev', dir, '--package-port', String(port)]);
    const code = await new Promise((r) => dev.child.once('exit', r));
    taken.close();
    expect(code).toBe(2);
    expect(dev.stderr).toContain(
      `port ${port} (--package-port) is taken by another program; pass --package-port <another>`,
    );
  });
});
