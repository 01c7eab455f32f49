// What the MCP specs share: a small app folder whose actions the test declares (a page with an `#out` line and the
// script-tag build), an official MCP client connected to a platform, and the text of a tool result.
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type Browser, expect, type Frame, type Page } from '@playwright/test';
import type { DevPlatform } from '../../src/dev';
import { exchangeManifest, type Json } from '../mock/fixtures';

const root = resolve(import.meta.dirname, '../..');

/**
 * An action of the test app: by default it takes no input, is read-only and never confirms; `confirm`,
 * `destructive` and `input_schema` change that.
 */
export interface TestAction {
  name: string;
  title: string;
  description: string;
  confirm?: 'never' | 'if_destructive' | 'always';
  destructive?: boolean;
  input_schema?: Record<string, unknown>;
  output_schema?: Record<string, unknown>;
}

/**
 * Writes an app folder declaring `actions`, whose page runs `script` after the svc script tag; `change` edits the
 * manifest before it is written. Returns its path.
 */
export async function writeMcpTestApp(
  actions: TestAction[],
  script: string,
  change: (manifest: Json) => void = () => {},
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-mcp-'));
  const manifest: Json = exchangeManifest();
  manifest.network = { connect: [] };
  manifest.actions = actions.map(({ confirm = 'never', destructive = false, input_schema, ...action }) => ({
    ...action,
    input_schema: input_schema ?? { type: 'object', properties: {}, additionalProperties: false },
    annotations: { read_only: !destructive, destructive, idempotent: !destructive, open_world: false },
    confirm,
  }));
  change(manifest);
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"></head><body><p id="out">idle</p><script src="svc.global.js"></script><script src="app.js"></script></body></html>',
  );
  await copyFile(join(root, 'dist/svc.global.js'), join(dir, 'svc.global.js'));
  await writeFile(join(dir, 'app.js'), script);
  return dir;
}

/** The official MCP client, connected to `platform`'s endpoint with its token. */
export async function connectMcp(
  platform: DevPlatform,
  { name = 'svc-test', capabilities = {}, versionNegotiation }: ConnectOptions = {},
): Promise<Client> {
  const client = new Client({ name, version: '0' }, { capabilities, versionNegotiation });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(platform.mcpUrl!), {
      requestInit: { headers: { Authorization: `Bearer ${platform.mcpToken}` } },
    }),
  );
  return client;
}

/**
 * The official MCP client over stdio, through the built `svc mcp <dir>` as an agent launches it: it finds the running
 * platform through the discovery file in `stateDir` (`SVC_STATE_DIR`); in the 2025 era unless `versionNegotiation`
 * says otherwise.
 */
export async function connectMcpStdio(
  dir: string,
  stateDir: string,
  name = 'stdio-test',
  versionNegotiation?: ConnectOptions['versionNegotiation'],
): Promise<Client> {
  const client = new Client({ name, version: '0' }, { versionNegotiation });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(root, 'dist/cli.js'), 'mcp', dir],
      env: { ...(process.env as Record<string, string>), SVC_STATE_DIR: stateDir },
      stderr: 'pipe',
    }),
  );
  return client;
}

/** Options of {@link connectMcp}: the client's name, its capabilities, and its protocol era. */
export interface ConnectOptions {
  name?: string;
  capabilities?: ConstructorParameters<typeof Client>[1] extends infer O
    ? O extends { capabilities?: infer C }
      ? C
      : never
    : never;
  versionNegotiation?: { mode: 'auto' };
}

/** The first text block of a tool result. */
export const resultText = (result: { content?: unknown }) =>
  ((result.content as Array<{ text?: string }>)[0]?.text ?? '') as string;

/** Opens the messenger page of `platform` in a new tab and waits until its channel is open (MCP calls reach it). */
export async function openLivePage(browser: Browser, platform: DevPlatform): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(platform.url);
  await page.locator('html[data-live]').waitFor({ state: 'attached' });
  return page;
}

/** A messenger tab with the app opened in it, and the app's frame once its `svc` global is there. */
export async function openAppFrame(browser: Browser, platform: DevPlatform): Promise<{ tab: Page; app: Frame }> {
  const tab = await openLivePage(browser, platform);
  await tab.getByTestId('open-app').click();
  const origin = new URL(platform.appUrl!).origin;
  const frame = () => tab.frames().find((f) => f.url().startsWith(origin));
  await expect.poll(() => frame() !== undefined).toBe(true);
  const app = frame()!;
  await expect.poll(() => app.evaluate(() => typeof (globalThis as { svc?: unknown }).svc)).toBe('object');
  return { tab, app };
}
