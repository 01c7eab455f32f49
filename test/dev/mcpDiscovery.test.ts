// Every way of starting the platform for a folder tells the developer where the MCP endpoint is and leaves the
// discovery file `svc mcp <dir>` finds it by: `startDevPlatform({ dir })` and the built `svc dev` bin, checked with
// the official MCP client over the stdio bridge; the file goes when the platform closes (Ctrl-C, or its terminal
// closed), and the next start removes those a killed platform left.
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AddressInfo, createServer } from 'node:net';
import { startDevPlatform } from '../../src/dev';
import { readDiscovery } from '../../src/dev/mcp/discoveryFile';
import { connectMcpStdio } from './mcpTestApp';
import { writeAppDir } from './appDir';

const root = resolve(import.meta.dirname, '../..');
const cli = join(root, 'dist/cli.js');
let state: string;
let dir: string;

beforeEach(async () => {
  state = await mkdtemp(join(tmpdir(), 'svc-state-'));
  process.env.SVC_STATE_DIR = state;
  // The app in a project that has svc-sdk installed (here: linked to this repository), as a developer's is.
  const project = await mkdtemp(join(tmpdir(), 'svc-project-'));
  await mkdir(join(project, 'node_modules'));
  await symlink(root, join(project, 'node_modules', 'svc-sdk'), 'dir');
  dir = join(project, 'polls');
  await cp(join(root, 'examples/polls'), dir, { recursive: true, filter: (src) => !src.includes('node_modules') });
});
afterEach(() => {
  delete process.env.SVC_STATE_DIR;
});

/** The built `svc dev` for `target` (a folder or a package), started in `cwd`, and what it wrote to stderr so far. */
function builtDev(target: string, cwd?: string, extra: string[] = []) {
  const child = spawn(process.execPath, [cli, 'dev', target, '--port', '0', ...extra], {
    cwd,
    stdio: 'pipe',
    env: { ...process.env, SVC_STATE_DIR: state },
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exit = new Promise((done) => child.once('exit', done));
  return { child, stderr: () => stderr, exit };
}

/**
 * The Claude Desktop configuration the built svc dev printed, run exactly as a person pastes it (its command,
 * arguments and environment) with the official client: its arguments and the tool names it lists.
 */
async function desktopTools(stderr: () => string): Promise<{ args: string[]; tools: string[] }> {
  await expect.poll(stderr, { timeout: 10_000 }).toMatch(/^ {2}Claude Desktop: claude_desktop_config\.json /m);
  const config = JSON.parse(/claude_desktop_config\.json (.*)$/m.exec(stderr())![1]!).mcpServers['svc-team-polls'];
  const client = new Client({ name: 'desktop', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...(process.env as Record<string, string>), ...config.env },
      stderr: 'pipe',
    }),
  );
  try {
    return { args: config.args, tools: (await client.listTools()).tools.map((t) => t.name) };
  } finally {
    await client.close();
  }
}

/** The tool names `svc mcp <dir>` (the built bin, over stdio) lists. */
async function stdioTools(): Promise<string[]> {
  const client = await connectMcpStdio(dir, state, 'discovery-test');
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe('the MCP token', () => {
  it('is kept in the --state file: a client configured with it goes on working after a restart', async () => {
    const statePath = join(state, 'state.jsonl');
    const first = await startDevPlatform({ dir, port: 0, statePath });
    const token = first.mcpToken!;
    await first.close();
    const again = await startDevPlatform({ dir, port: 0, statePath });
    try {
      expect(again.mcpToken).toBe(token);
      const client = new Client({ name: 'restart-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(again.mcpUrl!), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['create_poll', 'delete_poll']);
      await client.close();
    } finally {
      await again.close();
    }
    // Without a state file, each start makes its own.
    const memory = await startDevPlatform({ dir, port: 0 });
    expect(memory.mcpToken).not.toBe(token);
    await memory.close();
  });
});

describe('the MCP endpoint is announced and discoverable', () => {
  it('startDevPlatform({ dir }) writes the discovery file, has the lines to print, and removes the file on close', async () => {
    const platform = await startDevPlatform({ dir, port: 0 });
    try {
      expect(await readDiscovery(dir)).toMatchObject({ dir, url: platform.mcpUrl, pid: process.pid });
      const lines = platform.mcpConfigs!.split('\n');
      expect(lines[0]).toBe(
        `MCP: ${platform.mcpUrl} (header "Authorization: Bearer ${platform.mcpToken}"; keep the messenger page open: the tools run there)`,
      );
      // Named after the app, so two apps' servers live side by side in one client (week45 F5).
      expect(platform.mcpConfigs).toContain(
        `claude mcp add --transport http svc-team-polls ${platform.mcpUrl} --header`,
      );
      expect(platform.mcpConfigs).toContain(`"mcpServers":{"svc-team-polls":`);
      // The Inspector's CLI takes --method directly: a `--` before it leaves it "Method is required".
      expect(platform.mcpConfigs).toMatch(
        /inspector@2 --cli --server-url \S+ --transport http --header "[^"]+" --method tools\/list --stored-auth-only$/m,
      );
      // Claude Desktop starts its servers in a folder of its own, without the terminal's environment: the command
      // names this Node and the project's svc CLI by absolute paths, with the SVC_STATE_DIR svc dev runs with, and
      // works from any folder as it is printed.
      const desktop = JSON.parse(/Claude Desktop: claude_desktop_config\.json (.+)$/m.exec(platform.mcpConfigs!)![1]!);
      expect(desktop).toEqual({
        mcpServers: {
          'svc-team-polls': {
            command: process.execPath,
            args: [join(root, 'dist', 'cli.js'), 'mcp', dir],
            env: { SVC_STATE_DIR: state },
          },
        },
      });
      const fromElsewhere = new Client({ name: 'desktop-test', version: '1.0.0' });
      await fromElsewhere.connect(new StdioClientTransport({ ...desktop.mcpServers['svc-team-polls'], cwd: tmpdir() }));
      try {
        expect((await fromElsewhere.listTools()).tools.map((t) => t.name)).toEqual(['create_poll', 'delete_poll']);
      } finally {
        await fromElsewhere.close();
      }
      expect(await stdioTools()).toEqual(['create_poll', 'delete_poll']);
    } finally {
      await platform.close();
    }
    expect(await readDiscovery(dir)).toBeUndefined();
  });

  it('writes a relative SVC_STATE_DIR whole into the Claude Desktop configuration, which starts in a folder of its own', async () => {
    process.env.SVC_STATE_DIR = relative(process.cwd(), state);
    const platform = await startDevPlatform({ dir, port: 0 });
    try {
      const desktop = JSON.parse(/Claude Desktop: claude_desktop_config\.json (.+)$/m.exec(platform.mcpConfigs!)![1]!);
      expect(desktop.mcpServers['svc-team-polls'].env).toEqual({ SVC_STATE_DIR: state });
    } finally {
      process.env.SVC_STATE_DIR = state;
      await platform.close();
    }
  });

  it('a second platform for the same folder keeps its file when the first one closes', async () => {
    const first = await startDevPlatform({ dir, port: 0 });
    const second = await startDevPlatform({ dir, port: 0 });
    await first.close();
    expect((await readDiscovery(dir))?.url).toBe(second.mcpUrl);
    await second.close();
    expect(await readDiscovery(dir)).toBeUndefined();
  });

  it('the first platform for a folder is found again when a second one for it closes first, which says so', async () => {
    const first = await startDevPlatform({ dir, port: 0 });
    const notices: string[] = [];
    const second = await startDevPlatform({
      dir,
      port: 0,
      onNotice: (n) => void notices.push(`${n.kind}: ${n.message}`),
    });
    expect(notices).toContain(
      `folder-served-twice: another svc dev (process ${process.pid}) serves this folder too: svc mcp forwards to this one while it runs, then to that one again.`,
    );
    expect((await readDiscovery(dir))?.url).toBe(second.mcpUrl);
    await second.close();
    expect((await readDiscovery(dir))?.url).toBe(first.mcpUrl);
    await first.close();
    expect(await readDiscovery(dir)).toBeUndefined();
  });

  it('svc mcp follows a restart of svc dev and says what happened, without restarting its client', async () => {
    let platform = await startDevPlatform({ dir, port: 0 });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', dir],
      env: { ...(process.env as Record<string, string>), SVC_STATE_DIR: state },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d) => (stderr += d));
    const client = new Client({ name: 'restart-test', version: '0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['create_poll', 'delete_poll']);
      await platform.close();
      // Stopped: the tools are the manifest's, and a call's error result says how to go on.
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['create_poll', 'delete_poll']);
      const stopped = await client.callTool({
        name: 'create_poll',
        arguments: { question: 'Lunch?', options: ['a', 'b'] },
      });
      expect(stopped.isError).toBe(true);
      expect(stopped.content).toEqual([
        expect.objectContaining({
          text: `ERR_HOST_UNREACHABLE: no svc dev runs for ${dir} now: start it (npx svc-sdk dev ${dir}) and keep its messenger page open; this bridge finds it by itself on the next call.`,
        }),
      ]);
      // Started again, on another port with another token: the next request reaches it.
      platform = await startDevPlatform({ dir, port: 0 });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['create_poll', 'delete_poll']);
      const call = await client.callTool({
        name: 'create_poll',
        arguments: { question: 'Lunch?', options: ['a', 'b'] },
      });
      expect(call.content).toEqual([
        expect.objectContaining({ text: expect.stringMatching(/^ERR_HOST_UNREACHABLE: no messenger page is open/) }),
      ]);
      expect(stderr).toContain(`svc mcp: svc dev restarted; forwarding to ${platform.mcpUrl} now.`);
      expect(stderr).not.toContain(platform.mcpToken);
    } finally {
      await client.close();
      await platform.close();
    }
  });

  it('svc mcp sends a request again, once, when svc dev closed its session for newer ones (it ran nothing)', async () => {
    const platform = await startDevPlatform({ dir, port: 0 });
    const client = await connectMcpStdio(dir, state, 'evicted-test');
    const call = () => client.callTool({ name: 'create_poll', arguments: { question: 'Lunch?', options: ['a', 'b'] } });
    // No page is open: a call that reaches svc dev says so.
    const reached = [
      expect.objectContaining({ text: expect.stringMatching(/^ERR_HOST_UNREACHABLE: no messenger page/) }),
    ];
    try {
      expect((await call()).content).toEqual(reached);
      // More new sessions than svc dev keeps (100): the bridge's, the least recently used, is closed.
      for (let i = 0; i < 101; i++) {
        const response = await fetch(platform.mcpUrl!, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${platform.mcpToken}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-06-18',
              capabilities: {},
              clientInfo: { name: `flood-${i}`, version: '0' },
            },
          }),
        });
        expect(response.status).toBe(200);
        await response.text();
      }
      // It was ERR_DISCONNECTED ("Session not found"), for a call that never ran.
      expect((await call()).content).toEqual(reached);
    } finally {
      await client.close();
      await platform.close();
    }
  });

  it('svc mcp exits when its client closes stdin, even with a request still finding svc dev', async () => {
    const platform = await startDevPlatform({ dir, port: 0 });
    try {
      // What a script does: `printf … | svc mcp <dir>`, stdin ended right after the requests. The MCP stdio rules
      // have the server exit then; the request in flight goes unanswered, as the SDK's stdio transport documents.
      const bridge = spawn(process.execPath, [cli, 'mcp', dir], {
        env: { ...process.env, SVC_STATE_DIR: state },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((done) => bridge.once('exit', done));
      const initialize = {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'script', version: '0' },
      };
      const lines = [
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ];
      bridge.stdin.end(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
      // It stayed up, holding a connection to svc dev opened after the close, and ignored SIGTERM after that.
      const late = new Promise<'still running'>((done) => setTimeout(done, 10_000, 'still running'));
      const code = await Promise.race([exited, late]);
      if (code === 'still running') bridge.kill('SIGKILL');
      expect(code).toBe(0);
    } finally {
      await platform.close();
    }
  });

  it('a folder reached through a symbolic link is the same folder: found through either, and served twice is said', async () => {
    const link = join(await mkdtemp(join(tmpdir(), 'svc-link-')), 'polls-link');
    await symlink(dir, link, 'dir');
    const first = await startDevPlatform({ dir, port: 0 });
    try {
      expect((await readDiscovery(link))?.url).toBe(first.mcpUrl);
      const notices: string[] = [];
      const second = await startDevPlatform({ dir: link, port: 0, onNotice: (n) => void notices.push(n.kind) });
      expect(notices).toContain('folder-served-twice');
      expect((await readDiscovery(dir))?.url).toBe(second.mcpUrl);
      await second.close();
      expect((await readDiscovery(link))?.url).toBe(first.mcpUrl);
    } finally {
      await first.close();
    }
  });

  it('the built svc dev prints the endpoint and the configs, svc mcp reaches it, and the file goes on Ctrl-C', async () => {
    const { child, stderr, exit } = builtDev(dir);
    try {
      await expect.poll(stderr, { timeout: 10_000 }).toMatch(/^MCP: http:\/\/127\.0\.0\.1:\d+\/mcp /m);
      expect(stderr()).toMatch(/^ {2}Claude Code: {4}claude mcp add --transport http svc-team-polls /m);
      expect(stderr()).toMatch(/^ {2}Claude Desktop: claude_desktop_config\.json /m);
      await expect.poll(() => readDiscovery(dir)).toMatchObject({ pid: child.pid });
      expect(await stdioTools()).toEqual(['create_poll', 'delete_poll']);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exit).toBe(0);
    expect(await readDiscovery(dir)).toBeUndefined();
  });

  it('a second built svc dev on the folder, killed (SIGKILL), leaves the first one found again', async () => {
    const first = await startDevPlatform({ dir, port: 0 });
    try {
      const { child, stderr, exit } = builtDev(dir);
      await expect.poll(stderr, { timeout: 10_000 }).toMatch(/another svc dev \(process \d+\) serves this folder too/);
      await expect.poll(() => readDiscovery(dir)).toMatchObject({ pid: child.pid });
      child.kill('SIGKILL');
      await exit;
      // It could not take itself out of the file: the file leads to the first, which still runs.
      expect((await readDiscovery(dir))?.url).toBe(first.mcpUrl);
    } finally {
      await first.close();
    }
    expect(await readDiscovery(dir)).toBeUndefined();
  });

  it('for a package, the Claude Desktop configuration svc dev prints starts a svc mcp that lists its tools', async () => {
    // The example signed with a key of this test's own: its id is the key's.
    const run = (args: string[]) =>
      spawnSync(process.execPath, [cli, ...args], { cwd: dir, env: { ...process.env, SVC_STATE_DIR: state } });
    const keygen = run(['keygen', '--out', join(state, 'key.pem')]);
    const id = /id ([0-9a-f]{16})/.exec(`${keygen.stdout}${keygen.stderr}`)![1]!;
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, id }, null, 2));
    const pkg = join(dir, '..', 'polls.swbn');
    expect(run(['pack', '.', '--key', join(state, 'key.pem'), '--out', pkg]).status).toBe(0);
    const { child, stderr, exit } = builtDev(pkg, join(dir, '..'));
    try {
      const { args, tools } = await desktopTools(stderr);
      expect(args.at(-1)).toBe(pkg);
      expect(tools).toEqual(['create_poll', 'delete_poll']);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exit).toBe(0);
  });

  it('after a key rotation, the configuration svc dev prints for a package run with --state trusts the new key', async () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, [cli, ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, SVC_STATE_DIR: state },
      });
    const keygen = run(['keygen', '--out', join(state, 'old.pem')]);
    const id = /id ([0-9a-f]{16})/.exec(`${keygen.stdout}${keygen.stderr}`)![1]!;
    expect(run(['keygen', '--out', join(state, 'new.pem')]).status).toBe(0);
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    const pack = async (version: string, keys: string[], more: string[] = []) => {
      await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, id, version }, null, 2));
      const out = join(dir, '..', `polls-${version}.swbn`);
      const packed = run(['pack', '.', ...keys.flatMap((k) => ['--key', join(state, k)]), '--out', out, ...more]);
      expect(packed.status, packed.stderr).toBe(0);
      return out;
    };
    const statePath = join(state, 'dev-state.jsonl');
    // The store binds the id to the new key: the first version, then one both keys sign, published to it.
    const first = builtDev(await pack('1.0.0', ['old.pem']), join(dir, '..'), ['--state', statePath]);
    try {
      await expect.poll(first.stderr, { timeout: 10_000 }).toMatch(/^ {2}Claude Desktop: /m);
      const rotation = run(['publish', await pack('1.1.0', ['old.pem', 'new.pem'])]);
      expect(rotation.status, rotation.stderr).toBe(0);
    } finally {
      first.child.kill('SIGINT');
    }
    expect(await first.exit).toBe(0);
    // A version the new key alone signs: svc dev runs it, trusting the state's record, and so does svc mcp.
    const rotated = await pack('1.2.0', ['new.pem'], ['--rotated']);
    const alone = run(['mcp', rotated]);
    expect(alone.status).toBe(1);
    expect(alone.stderr).toContain('(untrusted-key): the package id');
    expect(alone.stderr).toContain(
      'the id is bound to (svc dev and svc mcp trust the key the store of their --state file binds)',
    );
    const { child, stderr, exit } = builtDev(rotated, join(dir, '..'), ['--state', statePath]);
    try {
      const { args, tools } = await desktopTools(stderr);
      expect(args.slice(-3)).toEqual([rotated, '--state', statePath]);
      expect(tools).toEqual(['create_poll', 'delete_poll']);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exit).toBe(0);
    // A mistyped path is said as such, not as a key the store never bound.
    const missing = run(['mcp', rotated, '--state', join(state, 'nope.jsonl')]);
    expect([missing.status, missing.stderr]).toEqual([
      2,
      `svc mcp: --state ${join(state, 'nope.jsonl')} does not exist: pass the file svc dev runs with (its --state).\n`,
    ]);
    // A device read as the state file would be read without end.
    const device = run(['mcp', rotated, '--state', '/dev/zero']);
    expect([device.status, device.stderr]).toEqual([
      2,
      'svc mcp: --state /dev/zero cannot be read (not a regular file): pass the file svc dev runs with (its --state).\n',
    ]);
    // Another app's state file is named, not trusted.
    const otherState = join(state, 'other.jsonl');
    await writeFile(otherState, (await readFile(statePath, 'utf8')).replaceAll(id, '0123456789abcdef'));
    const other = run(['mcp', rotated, '--state', otherState]);
    expect([other.status, other.stderr]).toEqual([
      1,
      `svc mcp: --state ${otherState} belongs to mini app 0123456789abcdef, not ${id}: pass another path.\n`,
    ]);
  });

  it("replaces a killed platform's store file on the same port, never removes its own new one with it", async () => {
    // The start writes two files at once; the clean-up of the first read the killed run's store file, and removed it
    // just after the second write had put this run's there (svc publish then found no store, every other restart).
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    await mkdir(join(state, 'dev'), { recursive: true });
    for (let round = 0; round < 6; round++) {
      const free = createServer();
      await new Promise<void>((ok) => free.listen(0, '127.0.0.1', ok));
      const port = (free.address() as AddressInfo).port;
      await new Promise((ok) => free.close(ok));
      const file = join(state, 'dev', `store-${port}.json`);
      await writeFile(file, JSON.stringify({ url: `http://127.0.0.1:${port}`, token: 't', pid: gone }));
      const platform = await startDevPlatform({ dir, port });
      try {
        // Once every clean-up has run (a few turns of the loop), the file is this run's.
        await new Promise((wait) => setTimeout(wait, 100));
        expect(JSON.parse(await readFile(file, 'utf8')).pid, `round ${round}`).toBe(process.pid);
      } finally {
        await platform.close();
      }
    }
  });

  it("the built svc dev removes its files when its terminal closes (SIGHUP), and a killed one's when it starts", async () => {
    // A platform killed before it could clean up (its process is gone), and a file another one is writing now.
    await mkdir(join(state, 'dev'), { recursive: true });
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    await writeFile(
      join(state, 'dev', 'store-1.json'),
      JSON.stringify({ url: 'http://127.0.0.1:1', token: 't', pid: gone }),
    );
    await writeFile(join(state, 'dev', 'half.json'), '{"url":"http://127.0.0.1:2","tok');
    const child = spawn(process.execPath, [cli, 'dev', dir, '--port', '0'], {
      stdio: 'pipe',
      env: { ...process.env, SVC_STATE_DIR: state },
    });
    const exit = new Promise((done) => child.once('exit', done));
    try {
      await expect.poll(() => readDiscovery(dir), { timeout: 10_000 }).toMatchObject({ pid: child.pid });
      const files = () => readdir(join(state, 'dev'));
      await expect.poll(files).toEqual(expect.arrayContaining([expect.stringMatching(/^store-\d+\.json$/)]));
      await expect.poll(files).not.toContain('store-1.json');
      expect(await files()).toContain('half.json');
    } finally {
      child.kill('SIGHUP');
    }
    expect(await exit).toBe(0);
    expect(await readDiscovery(dir)).toBeUndefined();
    expect(await readdir(join(state, 'dev'))).toEqual(['half.json']);
  });
});

describe("the MCP server's name in the printed configurations", () => {
  it('drops accents, and adds the id where letters of other scripts would leave two apps one name', async () => {
    const names: string[] = [];
    for (const name of [
      'Zürich Tasks',
      'Zu\u0308rich Tasks',
      'Опросы Polls',
      'Голосование Polls',
      'مشروع',
      'Straße Ærø Łódź',
    ]) {
      const app = await writeAppDir((m) => {
        m.name = name;
      });
      const platform = await startDevPlatform({ dir: app, port: 0 });
      try {
        names.push(/claude mcp add --transport http (\S+) /.exec(platform.mcpConfigs!)![1]!);
      } finally {
        await platform.close();
      }
    }
    expect(names.slice(0, 2)).toEqual(['svc-zurich-tasks', 'svc-zurich-tasks']);
    expect(names[2]).toMatch(/^svc-polls-[0-9a-f]{8}$/);
    expect(names[3]).toMatch(/^svc-polls-[0-9a-f]{8}$/);
    expect(names[4]).toMatch(/^svc-[0-9a-f]{16}$/);
    // Latin letters no decomposition takes apart are spelled out, and the name is whole (recheck47 F3).
    expect(names[5]).toBe('svc-strasse-aero-lodz');
  });
});
