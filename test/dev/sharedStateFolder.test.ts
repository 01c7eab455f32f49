// svc dev's files of secrets in a folder other users can write (SVC_STATE_DIR=/tmp/…, a shared CI workspace, a
// --state or --backend-env there): nothing another user put there leads `svc mcp` or `svc publish` anywhere, and svc
// dev writes its tokens only into files of its own user's. Another user's file or link is made as root with chown
// (the tests that need it run as root, as CI does); the bins are the built ones.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { chmod, chown, cp, lchown, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectMcpStdio } from './mcpTestApp';

const root = resolve(import.meta.dirname, '../..');
const cli = join(root, 'dist/cli.js');
/** Another user of the machine: nobody. */
const OTHER = 65534;
const asRoot = process.getuid?.() === 0;

let state: string;
let dir: string;
/** What the server another user runs was asked. */
let asked: string[];
let theirs: Server;
let theirUrl: string;

beforeEach(async () => {
  state = await mkdtemp(join(tmpdir(), 'svc-shared-state-'));
  dir = join(await mkdtemp(join(tmpdir(), 'svc-shared-app-')), 'polls');
  await cp(join(root, 'examples/polls'), dir, { recursive: true, filter: (src) => !src.includes('node_modules') });
  asked = [];
  theirs = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    response.writeHead(500).end();
  });
  await new Promise<void>((ok) => theirs.listen(0, '127.0.0.1', ok));
  theirUrl = `http://127.0.0.1:${(theirs.address() as AddressInfo).port}`;
});
afterEach(() => new Promise<void>((ok) => theirs.close(() => ok())));

/** The discovery file `svc mcp <dir>` reads (its name is the folder's hash, which anyone can work out). */
async function plantDiscovery(entry: object, owner?: number): Promise<string> {
  await mkdir(join(state, 'dev'), { recursive: true, mode: 0o700 });
  const path = join(state, 'dev', `${createHash('sha256').update(dir).digest('hex').slice(0, 24)}.json`);
  await writeFile(path, JSON.stringify(entry), { mode: 0o600 });
  if (owner !== undefined) await chown(path, owner, OTHER);
  return path;
}

/** A call of the app's tool through `svc mcp <dir>` (the official client over stdio), with no svc dev running. */
async function callThroughBridge(): Promise<string> {
  const client = await connectMcpStdio(dir, state);
  try {
    const result = await client.callTool({
      name: 'create_poll',
      arguments: { question: 'Lunch?', options: ['a', 'b'] },
    });
    return (result.content as { text: string }[])[0]!.text;
  } finally {
    await client.close();
  }
}

/** The built `svc dev` for the app, until it prints its MCP endpoint or exits; then stopped. */
async function devStart(extra: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [cli, 'dev', dir, '--port', '0', '--package-port', '0', ...extra], {
    env: { ...process.env, SVC_STATE_DIR: state },
    stdio: 'pipe',
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exit = new Promise<number | null>((done) => child.once('exit', done));
  const started = await Promise.race([
    exit.then(() => false),
    (async () => {
      for (let i = 0; i < 300 && !/^MCP: /m.test(stderr); i++) await new Promise((r) => setTimeout(r, 50));
      return true;
    })(),
  ]);
  if (started) child.kill('SIGINT');
  return { code: await exit, stderr };
}

describe('svc mcp follows only what its own svc dev could have written', () => {
  it('an entry that leads off this machine, names another folder, or sits in a file others can write is not followed', async () => {
    await plantDiscovery({ dir, url: 'http://203.0.113.9/mcp', token: 't', pid: process.pid });
    expect(await callThroughBridge()).toMatch(/^ERR_HOST_UNREACHABLE: no svc dev runs for /);
    await plantDiscovery({ dir: '/somewhere/else', url: `${theirUrl}/mcp`, token: 't', pid: process.pid });
    expect(await callThroughBridge()).toMatch(/^ERR_HOST_UNREACHABLE: no svc dev runs for /);
    // This user's file, but one every user may have changed (svc dev writes it mode 600).
    const path = await plantDiscovery({ dir, url: `${theirUrl}/mcp`, token: 't', pid: process.pid });
    await chmod(path, 0o666);
    expect(await callThroughBridge()).toMatch(/^ERR_HOST_UNREACHABLE: no svc dev runs for /);
    expect(asked).toEqual([]);
  }, 30_000);

  it.runIf(asRoot)(
    "a discovery file of another user's is not followed, nor written into by svc dev",
    async () => {
      const planted = { dir, url: `${theirUrl}/mcp`, token: 'theirs', pid: 1 };
      const path = await plantDiscovery(planted, OTHER);
      expect(await callThroughBridge()).toMatch(/^ERR_HOST_UNREACHABLE: no svc dev runs for /);
      expect(asked).toEqual([]);
      // svc dev says it, and leaves the file as it was: its token does not go into a file that is another user's.
      const run = await devStart([]);
      expect(run.stderr).toContain(
        `(svc mcp cannot find this platform: ${path} is a file of another user (uid ${OTHER}): svc dev writes secrets there only to a file of yours; set SVC_STATE_DIR to a writable folder.)`,
      );
      expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(planted);
      expect(run.stderr).not.toContain('another svc dev');
    },
    30_000,
  );
  it.runIf(asRoot)(
    'svc dev refuses a state folder of another user, and says so; nothing is written in it',
    async () => {
      await mkdir(join(state, 'dev'), { mode: 0o777 });
      await chmod(join(state, 'dev'), 0o777);
      await chown(join(state, 'dev'), OTHER, OTHER);
      const run = await devStart([]);
      expect(run.stderr).toContain(
        `(svc mcp cannot find this platform: ${join(state, 'dev')} belongs to another user (uid ${OTHER}), and it would hold svc dev's tokens; set SVC_STATE_DIR to a writable folder.)`,
      );
      expect(spawnSync('ls', ['-A', join(state, 'dev')], { encoding: 'utf8' }).stdout).toBe('');
    },
    30_000,
  );

  it('svc publish does not upload to a store file that leads to another port than its name says', async () => {
    await mkdir(join(state, 'dev'), { recursive: true, mode: 0o700 });
    await writeFile(
      join(state, 'dev', 'store-4310.json'),
      JSON.stringify({ url: theirUrl, token: 'theirs', pid: process.pid }),
      { mode: 0o600 },
    );
    await writeFile(join(state, 'app-1.0.0.swbn'), new Uint8Array(64));
    const run = spawnSync(process.execPath, [cli, 'publish', 'app-1.0.0.swbn'], {
      cwd: state,
      env: { ...process.env, SVC_STATE_DIR: state },
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).not.toContain(theirUrl);
    expect(asked).toEqual([]);
  });
});

describe.runIf(asRoot)("svc dev and svc pack write nothing into another user's file or through their link", () => {
  it("svc dev refuses a --state file of another user's: its token and secret would be theirs", async () => {
    const shared = await mkdtemp(join(tmpdir(), 'svc-shared-'));
    const planted = join(shared, 'state.json');
    await writeFile(planted, '{"svc_dev_state":1}\n');
    await chown(planted, OTHER, OTHER);
    const run = await devStart(['--state', planted]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      `--state ${planted} is a file of another user (uid ${OTHER}): svc dev would take its MCP token and signing secret from it; pass a file of yours, in a folder of yours.`,
    );
    expect(run.stderr).not.toMatch(/^MCP: /m);
  }, 30_000);

  it("svc dev refuses to write the signing secret into a --backend-env file of another user's, or through their link", async () => {
    const shared = await mkdtemp(join(tmpdir(), 'svc-shared-'));
    const planted = join(shared, 'backend.env');
    await writeFile(planted, '');
    await chmod(planted, 0o666);
    await chown(planted, OTHER, OTHER);
    const run = await devStart(['--backend-env', planted]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `svc dev: --backend-env ${planted} cannot be written (${planted} is a file of another user (uid ${OTHER}): svc dev writes secrets there only to a file of yours): pass a path you can write to.`,
    );
    expect(await readFile(planted, 'utf8')).toBe('');
    // A link of theirs, to a file of this user's that is not there yet: not followed.
    const victim = join(await mkdtemp(join(tmpdir(), 'svc-victim-')), 'created.env');
    const link = join(shared, 'link.env');
    await symlink(victim, link);
    await lchown(link, OTHER, OTHER);
    expect((await devStart(['--backend-env', link])).stderr).toContain(
      `${link} is a symbolic link of another user (uid ${OTHER})`,
    );
    expect(existsSync(victim)).toBe(false);
  }, 30_000);

  it("svc pack and svc types refuse an --out that is another user's link, even to a file not there yet", async () => {
    const shared = await mkdtemp(join(tmpdir(), 'svc-shared-'));
    const victim = join(await mkdtemp(join(tmpdir(), 'svc-victim-')), 'created');
    const key = join(shared, 'key.pem');
    const made = spawnSync(process.execPath, [cli, 'keygen', '--out', key], { encoding: 'utf8' });
    // The app signed by this key: its id is the key's.
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    manifest.id = /^id (\w+)$/m.exec(made.stdout)![1];
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
    for (const [command, out] of [
      ['pack', join(shared, 'p.swbn')],
      ['types', join(shared, 't.d.ts')],
    ] as const) {
      await symlink(victim, out);
      await lchown(out, OTHER, OTHER);
      const args = command === 'pack' ? ['pack', dir, '--key', key, '--out', out] : ['types', dir, '--out', out];
      const run = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr).toContain(`is a symbolic link of another user (uid ${OTHER})`);
      expect(existsSync(victim)).toBe(false);
    }
  }, 30_000);
});
