// `svc dev`: validates the manifest first (the CLI's messages, exit 1), starts the platform, prints one URL, and
// stops cleanly; the built bin does the same under a real signal.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { devCommand } from '../../src/cli/devCommand';
import { writeAppDir } from '../dev/appDir';

function io(cwd: string) {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      cwd,
      stdout: { write: (s: string) => (out.stdout += s) },
      stderr: { write: (s: string) => (out.stderr += s) },
    },
  };
}

describe('svc dev', () => {
  it('prints the messenger URL, serves it, writes the backend settings file, and stops', async () => {
    const dir = await writeAppDir();
    const { out, io: cli } = io(dir);
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const running = devCommand(['.', '--port', '0', '--env-file', 'backend.env'], cli, { stopped });
    for (let i = 0; i < 200 && !out.stdout; i++) await new Promise((r) => setTimeout(r, 10));
    const url = out.stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/);
    expect((await fetch(url)).status).toBe(200);
    expect(out.stderr).not.toMatch(/SVC_SIGNING_SECRET=\S/);
    const env = readFileSync(join(dir, 'backend.env'), 'utf8');
    expect(env).toMatch(/^SVC_SIGNING_SECRET=\S+$/m);
    expect(env).toContain(`SVC_API_BASE=${new URL(url).origin}/v1`);
    stop();
    expect(await running).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });

  it('refuses an invalid manifest with exit 1, naming the problem', async () => {
    const dir = await writeAppDir((m) => {
      m.version = 'one';
    });
    const { out, io: cli } = io(dir);
    expect(await devCommand(['.'], cli)).toBe(1);
    expect(out.stderr).toContain('manifest.json is not a valid manifest');
    expect(out.stderr).toContain('$.version');
    expect(out.stdout).toBe('');
  });

  it('refuses bad flags with exit 2 and a sentence naming the flag', async () => {
    const { out, io: cli } = io(process.cwd());
    expect(await devCommand(['--allow', 'https://evil.example'], cli)).toBe(2);
    expect(out.stderr).toContain('--allow https://evil.example');
    expect(await devCommand(['--port', 'x'], cli)).toBe(2);
    expect(await devCommand(['--retry-scale', '-1'], cli)).toBe(2);
  });

  it.runIf(existsSync(resolve('dist/cli.js')))('the built bin prints one URL and exits 0 on SIGINT', async () => {
    const dir = await writeAppDir();
    const child = spawn(process.execPath, [resolve('dist/cli.js'), 'dev', dir, '--port', '0'], { stdio: 'pipe' });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    for (let i = 0; i < 500 && !stdout.includes('\n'); i++) await new Promise((r) => setTimeout(r, 10));
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect((await fetch(lines[0]!)).status).toBe(200);
    const code = new Promise((r) => child.once('exit', r));
    child.kill('SIGINT');
    expect(await code).toBe(0);
  });
});
