// The app's svc.storage in svc dev is the platform's, per person, as a host keeps it for the person's devices: a value
// the app stored is there after the tab reloads, in another tab, and after a restart on the same --state file; a
// change resolves once the platform has it, and one made while svc dev is down is refused, not acknowledged and lost.
// The messenger page in Chromium, the app's own calls in its frame.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, type Frame, test } from '@playwright/test';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { openAppFrame, writeMcpTestApp } from './mcpTestApp';

const root = resolve(import.meta.dirname, '../..');
let platform: DevPlatform | undefined;
let dir: string;
let statePath: string;

test.beforeEach(async () => {
  dir = await writeMcpTestApp([], '');
  statePath = join(await mkdtemp(join(tmpdir(), 'svc-storage-')), 'state.json');
  platform = await startDevPlatform({ dir, port: 0, statePath });
});
test.afterEach(async () => {
  await platform?.close();
});

// Functions given to evaluate run in the frame, so each reaches the app's global itself.
type Storage = { get(key: string): Promise<unknown>; set(key: string, value: unknown): Promise<void> };
const read = (app: Frame, key: string) =>
  app.evaluate((k) => (globalThis as unknown as { svc: { storage: Storage } }).svc.storage.get(k), key);
const write = (app: Frame, key: string, value: unknown) =>
  app.evaluate(
    ([k, v]) =>
      (globalThis as unknown as { svc: { storage: Storage } }).svc.storage.set(k as string, v).then(
        () => 'stored',
        (e: { code: string; message: string }) => `${e.code}: ${e.message}`,
      ),
    [key, value] as const,
  );

test('a stored value survives a reload of the tab, shows in another tab, and outlives a restart on --state', async ({
  browser,
}) => {
  const { tab, app } = await openAppFrame(browser, platform!);
  expect(await write(app, 'draft', { text: 'hello', n: 1 })).toBe('stored');
  expect(await read(app, 'draft')).toEqual({ text: 'hello', n: 1 });

  // A value as large as the quota allows travels whole; one past it is the quota's refusal.
  expect(await write(app, 'big', 'x'.repeat(200_000))).toBe('stored');
  expect(await write(app, 'bigger', 'x'.repeat(100_000))).toMatch(/^ERR_QUOTA_EXCEEDED: /);
  await tab.reload();
  const reloaded = await openAppFrame(browser, platform!);
  expect(await read(reloaded.app, 'draft')).toEqual({ text: 'hello', n: 1 });
  // Another tab changes it; the first sees the change (the state every tab receives).
  expect(await write(reloaded.app, 'draft', 'second')).toBe('stored');
  await expect.poll(() => read(app, 'draft').catch(() => read(reloaded.app, 'draft'))).toBe('second');

  await platform!.close();
  // The state file holds it: a line per change, of the one key it wrote.
  expect(await readFile(statePath, 'utf8')).toContain('{"p":[[["storage","alice","draft"],"second"]');
  platform = await startDevPlatform({ dir, port: 0, statePath });
  const restarted = await openAppFrame(browser, platform);
  expect(await read(restarted.app, 'draft')).toBe('second');
});

test('a change while svc dev is down is refused as the platform unreachable, and nothing is kept', async ({
  browser,
}) => {
  const { tab, app } = await openAppFrame(browser, platform!);
  const port = Number(new URL(platform!.origin).port);
  await platform!.close();
  await expect(tab.getByTestId('connection')).toContainText('Disconnected from svc dev');
  expect(await write(app, 'lost', 1)).toMatch(/^ERR_HOST_UNREACHABLE: .*svc dev is not reachable/);
  // Back on the same port without the state file, so with a new launch token: the old tab's change is refused for
  // what it is, not retriable.
  platform = await startDevPlatform({ dir, port });
  expect(
    await app.evaluate(() =>
      (globalThis as unknown as { svc: { storage: Storage } }).svc.storage
        .set('stale', 1)
        .catch((e: { code: string; message: string; retriable: boolean }) => `${e.code} ${e.retriable}: ${e.message}`),
    ),
  ).toBe(
    'ERR_HOST_UNREACHABLE false: svc.storage.set(): svc dev was restarted: this page belongs to its previous run. Open the URL svc dev printed (it carries the new launch token).',
  );
  const again = await openAppFrame(browser, platform);
  expect(await read(again.app, 'stale')).toBeUndefined();
});

test('a tab left open follows a restart on the same --state: it reloads itself, its app keeps what was stored', async ({
  browser,
}) => {
  const { tab, app } = await openAppFrame(browser, platform!);
  expect(await write(app, 'draft', 'before')).toBe('stored');
  const port = Number(new URL(platform!.origin).port);
  await platform!.close();
  await expect(tab.getByTestId('connection')).toContainText('Disconnected from svc dev');
  expect(await write(app, 'lost', 1)).toMatch(/^ERR_HOST_UNREACHABLE: /);
  // The launch token is kept with the state: the tab connects again, is told of the new start, and reloads.
  platform = await startDevPlatform({ dir, port, statePath });
  const origin = new URL(platform.appUrl!).origin;
  const frame = () => tab.frames().find((f) => f !== app && f.url().startsWith(origin));
  await expect.poll(() => frame() !== undefined, { timeout: 15_000 }).toBe(true);
  const reloaded = frame()!;
  await expect.poll(() => reloaded.evaluate(() => typeof (globalThis as { svc?: unknown }).svc)).toBe('object');
  expect(await read(reloaded, 'draft')).toBe('before');
  expect(await read(reloaded, 'lost')).toBeUndefined();
  expect(await write(reloaded, 'after', 2)).toBe('stored');
  await expect(tab.getByTestId('connection')).toBeHidden();
});

test('a svc dev that stops answering (paused at a breakpoint) is said on the page, and the page goes on after it', async ({
  browser,
}) => {
  // The built bin in a process of its own, so that it can be paused as a debugger pauses it.
  const child = spawn(process.execPath, [join(root, 'dist/cli.js'), 'dev', dir, '--port', '0', '--quiet'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SVC_STATE_DIR: await mkdtemp(join(tmpdir(), 'svc-paused-')) },
  });
  try {
    const url = await new Promise<string>((found, failed) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const line = /^(http:\S+)$/m.exec(out)?.[1];
        if (line) found(line);
      });
      child.once('exit', (code) => failed(new Error(`svc dev exited ${code}`)));
    });
    const tab = await browser.newPage();
    await tab.goto(url);
    const frame = () => tab.frames().find((f) => f !== tab.mainFrame() && f.url().includes('localhost'));
    await expect.poll(() => frame()?.evaluate(() => typeof (globalThis as { svc?: unknown }).svc)).toBe('object');
    const app = frame()!;
    expect(await write(app, 'before', 1)).toBe('stored');
    child.kill('SIGSTOP');
    await expect(tab.getByTestId('connection')).toContainText('svc dev is not answering', { timeout: 15_000 });
    // A change made meanwhile waits for svc dev, and is kept once it answers again.
    const during = write(app, 'during', 2);
    child.kill('SIGCONT');
    await expect(tab.getByTestId('connection')).toBeHidden({ timeout: 15_000 });
    expect(await during).toBe('stored');
    expect(await read(app, 'during')).toBe(2);
  } finally {
    child.kill('SIGCONT');
    child.kill('SIGTERM');
  }
});

test('a declared svc.storage is named in the settings as needing no request, with no button to grant it', async ({
  browser,
}) => {
  const declared = await writeMcpTestApp([], '', (manifest) => {
    manifest.permissions = [{ scope: 'svc.storage', purpose: 'Remembers your last choice.' }];
  });
  const own = await startDevPlatform({ dir: declared, port: 0 });
  try {
    const { tab, app } = await openAppFrame(browser, own);
    expect(await write(app, 'k', 1)).toBe('stored');
    await tab.getByTestId('tab-Settings').click();
    const row = tab.getByTestId('permission-svc.storage');
    await expect(row).toHaveAttribute('data-state', 'no-request');
    await expect(row).toContainText('Storage kept for you');
    await expect(row).toContainText('needs no request');
    await expect(row.getByRole('button')).toHaveCount(0);
    await tab.close();
  } finally {
    await own.close();
  }
});
