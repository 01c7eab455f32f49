// `svc init --template vite`: the project it writes runs. Its own tests pass (Vitest with svc-sdk/mock, the backend
// end to end with svc-sdk-dev), it type-checks, `npm run build` makes dist/ a valid package, and `npm run dev`
// prints one URL where the messenger serves and Vite's page names the messenger it trusts. Dependencies are this
// repository's (linked); scripts/fresh-app.mjs does the same from the packed tarball and the registry.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSvc } from './runInProcess';

const root = resolve(import.meta.dirname, '../..');
// `svc init` writes each app's key under $SVC_STATE_DIR: a folder of this test's, never the real home.
process.env.SVC_STATE_DIR = mkdtempSync(join(tmpdir(), 'svc-home-'));
const built = existsSync(join(root, 'dist/cli.js')) && existsSync(join(root, 'packages/svc-sdk-dev/dist/dev-ui.js'));

/** Writes the starter into a new folder and links the dependencies it declares to this repository's. */
async function starter(): Promise<string> {
  const parent = mkdtempSync(join(tmpdir(), 'svc-starter-'));
  const result = await runSvc(['init', 'hello-app', '--template', 'vite', '--name', 'Hello'], parent);
  expect(result.code).toBe(0);
  const dir = join(parent, 'hello-app');
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  mkdirSync(join(dir, 'node_modules/@types'), { recursive: true });
  symlinkSync(root, join(dir, 'node_modules/svc-sdk'));
  symlinkSync(join(root, 'packages/svc-sdk-dev'), join(dir, 'node_modules/svc-sdk-dev'));
  for (const name of ['vite', 'vitest', 'typescript', '@types/node'])
    symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name));
  // The bins its npm scripts call, as npm links them.
  symlinkSync(join(root, 'dist/cli.js'), join(dir, 'node_modules/.bin/svc'));
  symlinkSync(join(root, 'node_modules/vitest/vitest.mjs'), join(dir, 'node_modules/.bin/vitest'));
  return dir;
}
const run = (dir: string, args: string[]) =>
  spawnSync(process.execPath, args, {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });

describe('svc init --template vite', () => {
  it('writes a project with a valid manifest, real icons of the declared sizes, and a .gitignore for secrets and state', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'svc-starter-'));
    const first = await runSvc(['init', 'my-app', '--template', 'vite'], parent);
    expect(first.stdout).toContain('npm run dev');
    const dir = join(parent, 'my-app');
    const manifest = JSON.parse(readFileSync(join(dir, 'public/manifest.json'), 'utf8'));
    expect(manifest.id).toMatch(/^[0-9a-f]{16}$/);
    expect(manifest.id).not.toBe('0000000000000000');
    // The id is the one of the key svc init made for the app, outside the project.
    expect(first.stdout).toContain(
      `made this app's key: ${join(process.env.SVC_STATE_DIR!, 'keys', `${manifest.id}.pem`)}`,
    );
    for (const icon of manifest.icons) {
      const png = readFileSync(join(dir, 'public', icon.src));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(icon.sizes);
    }
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toMatch(/^\.env$[\s\S]*^\.svc-dev\.json$/m);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(Object.keys(pkg.scripts)).toEqual(['dev', 'build', 'test']);
    expect((await runSvc(['validate', 'public/manifest.json'], dir)).code).toBe(0);
    // VS Code completes and checks the manifest where the starter keeps it, as a plain `svc init` does.
    expect(first.stdout).toContain(
      `wrote ${join('my-app', '.vscode', 'settings.json')} (VS Code validates and completes public/manifest.json)`,
    );
    expect(JSON.parse(readFileSync(join(dir, '.vscode/settings.json'), 'utf8'))).toEqual({
      'json.schemas': [
        { fileMatch: ['/public/manifest.json'], url: './node_modules/svc-sdk/schema/manifest.schema.json' },
      ],
    });
    const again = await runSvc(['init', 'my-app', '--template', 'vite'], parent);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('my-app is not empty');
  });

  it.runIf(built)(
    'its tests pass, it type-checks, and its build is a valid package',
    async () => {
      const dir = await starter();
      // `npm test` as the developer runs it: svc check (the manifest in public/, the code in src/), then Vitest.
      const tests = spawnSync('npm', ['test'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      });
      expect(tests.status, tests.stdout + tests.stderr).toBe(0);
      expect(tests.stdout).toMatch(/^svc check: ok \(\d+ source files?, 0 declared actions\)$/m);
      expect(tests.stdout).toMatch(/Tests\s+4 passed/);
      const tsc = run(dir, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.']);
      expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
      const build = run(dir, ['node_modules/vite/bin/vite.js', 'build']);
      expect(build.status, build.stdout + build.stderr).toBe(0);
      const validate = await runSvc(['validate', 'dist'], dir);
      expect(validate.stdout).not.toContain('error');
      expect(validate.code).toBe(0);
      // The build signs with the key svc init made for the app (found by the manifest's id), and verifies.
      const packed = await runSvc(['pack', 'dist', '--out', 'hello.swbn'], dir);
      expect(packed.code, packed.stderr).toBe(0);
      const verified = await runSvc(['verify', 'hello.swbn'], dir);
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stdout).toContain('(the id is derived from it)');
    },
    120_000,
  );

  it.runIf(built)(
    'npm run dev prints one URL and the MCP endpoint; the messenger serves it and the page names the messenger',
    async () => {
      const dir = await starter();
      const child = spawn(process.execPath, ['scripts/dev.mjs'], { cwd: dir, stdio: 'pipe' });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      try {
        for (let i = 0; i < 600 && !stdout.includes('\n'); i++) await new Promise((r) => setTimeout(r, 50));
        const lines = stdout.trim().split('\n');
        expect(lines, stderr).toHaveLength(1);
        const url = new URL(lines[0]!);
        // The URL opens the app at start, as svc dev's does.
        expect(url.hash).toBe('#app');
        expect((await fetch(url)).status).toBe(200);
        const appUrl = /app at (\S+),/.exec(stderr)?.[1];
        const html = await (await fetch(appUrl!)).text();
        expect(html).toContain(`<meta name="svc-host-origins" content="${url.origin}">`);
        // The messenger's state (the signing secret, the MCP token) and its lock are in the project's root, whose
        // files Vite serves to any page of this machine: denied, however asked.
        await expect.poll(() => existsSync(join(dir, '.svc-dev.json'))).toBe(true);
        for (const path of [
          '/.svc-dev.json',
          '/.svc-dev.json?raw',
          '/.svc-dev.json?import',
          `/@fs${join(dir, '.svc-dev.json')}`,
          '/.svc-dev.json.lock',
        ]) {
          const leaked = await fetch(new URL(path, appUrl), { headers: { origin: 'http://localhost:9' } });
          expect(leaked.status, path).toBe(403);
          expect(await leaked.text(), path).not.toContain('mcp_token');
        }
        // The agent bridge is announced like svc dev does it, with what to paste into a client.
        await expect
          .poll(() => stderr)
          .toMatch(/^MCP: http:\/\/127\.0\.0\.1:\d+\/mcp \(header "Authorization: Bearer /m);
        // Claude Desktop's line names this Node and the project's svc CLI by absolute paths (it starts servers
        // in a folder of its own).
        const desktop = JSON.parse(/claude_desktop_config\.json (.+)$/m.exec(stderr)![1]!);
        // Named after the app (svc-<its name>), so two apps' servers live side by side in one client.
        expect(Object.keys(desktop.mcpServers)).toEqual([expect.stringMatching(/^svc-[a-z0-9-]+$/)]);
        expect(Object.values(desktop.mcpServers)[0]).toMatchObject({
          command: process.execPath,
          args: [expect.stringMatching(/\/dist\/cli\.js$/), 'mcp', join(dir, 'public')],
        });
        // A manifest saved invalid is said, with what is still served, and so is the fix, as svc dev says them.
        const manifestPath = join(dir, 'public', 'manifest.json');
        const manifest = readFileSync(manifestPath, 'utf8');
        writeFileSync(manifestPath, manifest.replace(/"name": "[^"]*"/, '"name": ""'));
        await expect
          .poll(() => stderr, { timeout: 10_000 })
          .toMatch(/^svc dev: .*manifest\.json is not a valid manifest:/m);
        writeFileSync(manifestPath, manifest);
        await expect.poll(() => stderr, { timeout: 10_000 }).toMatch(/^svc dev: .*manifest\.json is valid again/m);
      } finally {
        const exit = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exit;
      }
      // Stopped (SIGTERM, as a process manager stops it), it leaves no discovery file behind: each holds a token.
      const discovery = join(process.env.SVC_STATE_DIR!, 'dev');
      expect(existsSync(discovery) ? readdirSync(discovery).filter((name) => name.endsWith('.json')) : []).toEqual([]);
    },
    60_000,
  );

  it.runIf(built)(
    'npm run dev takes its three ports from VITE_PORT, SVC_DEV_PORT and BACKEND_PORT, and refuses one that is no port',
    async () => {
      const dir = await starter();
      const [vitePort, devPort, backendPort] = await freePorts(3);
      const env = { VITE_PORT: `${vitePort}`, SVC_DEV_PORT: `${devPort}`, BACKEND_PORT: `${backendPort}` };
      const child = spawn(process.execPath, ['scripts/dev.mjs'], {
        cwd: dir,
        stdio: 'pipe',
        env: { ...process.env, ...env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      try {
        await expect.poll(() => stderr, { timeout: 30_000 }).toMatch(/backend at \S+;/);
        expect(new URL(stdout.trim()).port).toBe(`${devPort}`);
        expect(/app at (\S+),/.exec(stderr)?.[1]).toBe(`http://127.0.0.1:${vitePort}/`);
        expect(/backend at (\S+?);/.exec(stderr)?.[1]).toBe(`http://127.0.0.1:${backendPort}`);
      } finally {
        const exit = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exit;
      }
      // Run through a shell, as npm runs it, and the shell killed without passing the signal on (a CI step stopping
      // npm): the script stops by itself, not left holding its ports.
      const shell = spawn('sh', ['-c', 'node scripts/dev.mjs; true'], {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...env },
      });
      let shellOut = '';
      shell.stdout.on('data', (d) => (shellOut += d));
      await expect.poll(() => shellOut, { timeout: 30_000 }).toContain('\n');
      const script = Number(
        execFileSync('pgrep', ['-P', String(shell.pid)])
          .toString()
          .trim(),
      );
      shell.kill('SIGKILL');
      const running = () => {
        try {
          process.kill(script, 0);
          return true;
        } catch {
          return false;
        }
      };
      await expect.poll(running, { timeout: 15_000 }).toBe(false);
      // A value that is no port stops it at once, naming the variable (it once fell back to the default unsaid).
      const wrong = spawnSync(process.execPath, ['scripts/dev.mjs'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 30_000,
        env: { ...process.env, VITE_PORT: 'abc' },
      });
      expect(wrong.status).toBe(1);
      expect(wrong.stderr.trim()).toBe('VITE_PORT is "abc": set it to a port from 1 to 65535, or unset it.');
      // Number() reads these as ports too; digits only are.
      for (const value of ['0x1F', '1e3', '+8080'])
        expect(
          spawnSync(process.execPath, ['scripts/dev.mjs'], {
            cwd: dir,
            encoding: 'utf8',
            timeout: 30_000,
            env: { ...process.env, BACKEND_PORT: value },
          }).stderr.trim(),
        ).toBe(`BACKEND_PORT is ${JSON.stringify(value)}: set it to a port from 1 to 65535, or unset it.`);
      // The backend's port taken by another program: one line saying so, no stack trace.
      const holder = createServer().listen(backendPort, '127.0.0.1');
      await new Promise((resolve) => holder.once('listening', resolve));
      try {
        const taken = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
          const run = spawn(process.execPath, ['scripts/dev.mjs'], {
            cwd: dir,
            stdio: 'pipe',
            env: { ...process.env, BACKEND_PORT: `${backendPort}` },
          });
          let stderr = '';
          run.stderr.on('data', (d) => (stderr += d));
          run.once('exit', (code) => resolve({ code, stderr }));
        });
        expect(taken.code).toBe(1);
        expect(taken.stderr).toContain(
          `npm run dev: the backend's port ${backendPort} is taken by another program: set BACKEND_PORT to another, or unset it.`,
        );
        expect(taken.stderr).not.toMatch(/\n\s+at /);
      } finally {
        holder.close();
      }
    },
    60_000,
  );
});

/** `count` ports free on loopback now (each held until all are found, so they differ). */
async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  await Promise.all(servers.map((server) => new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))));
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  return ports;
}
