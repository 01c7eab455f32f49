// The svc dev messenger page in Firefox or WebKit (SVC_ENGINE), beside the Chromium suites: the page connects its
// channel (a WebSocket, allowed by the page's Content-Security-Policy), shows a change made by the platform, opens the
// app at start from the URL svc dev prints, reports what the app's CSP blocked, runs an MCP tool call from the
// official client in the app and answers it on the same channel, and serves the app's sound so that it seeks.
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { SEEK_AUDIO, toneWav } from '../dev/toneWav';
import { exchangeManifest } from '../mock/fixtures';
import { launchEngine } from './engines/launchEngine.mjs';

const engine = (process.env.SVC_ENGINE ?? 'firefox') as 'firefox' | 'webkit';

/** An app with one action, `echo`, that answers its input: its page loads the built script-tag client. */
async function echoApp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-engine-echo-'));
  const manifest = exchangeManifest();
  manifest.auth = { type: 'none' };
  manifest.actions = [
    {
      name: 'echo',
      title: 'Echo',
      description: 'Returns its input unchanged, to check the relay.',
      input_schema: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
        additionalProperties: false,
      },
      annotations: { read_only: true, destructive: false, idempotent: true, open_world: false },
      confirm: 'never',
    },
  ];
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><title>echo</title></head><body><button id="ask">Ask</button><script src="svc.global.js"></script><script src="app.js"></script></body></html>',
  );
  await copyFile(resolve('dist/svc.global.js'), join(dir, 'svc.global.js'));
  // And a request outside the manifest's network, which the page's CSP blocks and reports.
  await writeFile(
    join(dir, 'app.js'),
    "svc.actions.handle('echo', (input) => input);\nfetch('https://tracker.example/pixel').catch(() => {});\n" +
      // A sheet the app opens, from a person's click in its frame.
      "document.getElementById('ask').onclick = () => svc.ui.confirm({ title: 'Keep the draft?', body: 'It stays.' }).then((kept) => { document.body.dataset.kept = kept; });\n",
  );
  // And a page with a minute of sound, which seeks to 45 s.
  await writeFile(
    join(dir, 'sound.html'),
    '<!doctype html><html><head><meta charset="utf-8"><title>sound</title></head><body><audio id="a" src="tone.wav" preload="auto"></audio><p id="out"></p><script src="seek.js"></script></body></html>',
  );
  await writeFile(join(dir, 'seek.js'), SEEK_AUDIO);
  await writeFile(join(dir, 'tone.wav'), toneWav(60));
  return dir;
}

interface EngineFrame {
  url(): string;
  click(selector: string): Promise<unknown>;
  waitForFunction(fn: () => unknown, arg?: unknown, options?: { timeout: number }): Promise<unknown>;
}

interface EnginePage {
  goto(url: string): Promise<unknown>;
  mainFrame(): EngineFrame;
  frames(): EngineFrame[] | Promise<EngineFrame[]>;
  keyboard: { press(key: string): Promise<unknown> };
}

describe.sequential(`the messenger page in ${engine}`, () => {
  let launched: Awaited<ReturnType<typeof launchEngine>>;
  let platform: DevPlatform;
  let page: EnginePage;

  beforeAll(async () => {
    platform = await startDevPlatform({ dir: await echoApp() });
    launched = await launchEngine(engine);
    page = (await (await launched.newContext()).newPage()) as EnginePage;
    await page.goto(platform.url);
  }, 60_000);

  afterAll(async () => {
    await launched?.close();
    await platform?.close();
  });

  // Puppeteer's frame takes (fn, options, ...args), the WebDriver page's (fn, arg, options): a function of no
  // argument and the default timeouts suit both.
  const until = (fn: () => unknown) => page.mainFrame().waitForFunction(fn);

  it('connects its channel and shows what the platform changes', async () => {
    await until(() => document.documentElement.dataset.live === 'true');
    // A message posted as the control API is called (what the page itself does), in the room the page shows.
    const room = platform.state.settings.current_room_id;
    const posted = await fetch(`${platform.origin}/__svc/message`, {
      method: 'POST',
      headers: {
        origin: platform.origin,
        'x-svc-dev-token': platform.controlToken,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ room_id: room, text: 'a message from the platform' }),
    });
    expect(posted.status).toBe(200);
    await until(() => document.body.textContent?.includes('a message from the platform'));
  });

  it('opens the app at start from the URL svc dev prints (#app), and keeps #app while it is open', async () => {
    // A new document: a change of the fragment alone would not load the page again.
    await page.goto('about:blank');
    await page.goto(`${platform.url}#app`);
    await until(() => document.querySelector('[data-testid=app-where]')?.textContent?.startsWith('Opened in'));
    await until(() => document.querySelector('[data-testid=app-frame]')?.getAttribute('src')?.startsWith('http'));
    await until(() => location.hash === '#app' && document.documentElement.dataset.live === 'true');
  });

  it('reports the request the CSP blocked, as the platform reads it, and the page says which host to add', async () => {
    await expect
      .poll(() => platform.blocked.map((b) => b.blocked), { timeout: 10_000 })
      .toContain('https://tracker.example/pixel');
    await until(() => document.body.textContent?.includes('add "tracker.example" to network.connect'));
  });

  it('runs an MCP tool call in the app and answers it on its channel', async () => {
    const client = new Client({ name: `engine-${engine}`, version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(platform.mcpUrl!), {
        requestInit: { headers: { Authorization: `Bearer ${platform.mcpToken}` } },
      }),
    );
    try {
      const result = await client.callTool({ name: 'echo', arguments: { text: `hello from ${engine}` } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ text: `hello from ${engine}` });
    } finally {
      await client.close();
    }
  }, 60_000);

  it("gives the focus back to the app's frame when a key closes a sheet the app opened", async () => {
    // Firefox kept it on the sheet's button, and then the page's body, so the next Tab went to the messenger's top.
    await until(() => document.querySelector('[data-testid=app-frame]')?.getAttribute('src')?.startsWith('http'));
    const frames = await page.frames();
    const app = frames.find((f) => f.url().startsWith(platform.appOrigin));
    await app!.click('#ask');
    for (const key of ['Escape', 'Enter']) {
      await until(() => document.activeElement?.getAttribute('data-testid') === 'confirm-sheet-yes');
      await page.keyboard.press(key);
      await until(
        () =>
          !document.querySelector('[data-testid=confirm-sheet]') &&
          document.activeElement?.getAttribute('data-testid') === 'app-frame',
      );
      // Escape declines, Enter presses the focused OK.
      await app!.waitForFunction(
        key === 'Escape' ? () => document.body.dataset.kept === 'false' : () => document.body.dataset.kept === 'true',
      );
      if (key === 'Escape') await app!.click('#ask');
    }
  });

  it('draws the ring of the control a sheet gives the focus back to, after Escape closed it', async () => {
    // Firefox drew none on the button clicked to open the sheet, given the focus back by the page's script.
    await page.goto(platform.url);
    await until(() => document.documentElement.dataset.live === 'true');
    await page.mainFrame().click('[data-testid=tab-Settings]');
    await page.mainFrame().click('[data-testid=reset]');
    await until(() => document.activeElement?.closest('[role=dialog]') !== null);
    await page.keyboard.press('Escape');
    await until(
      () =>
        !document.querySelector('[role=dialog]') &&
        document.activeElement?.getAttribute('data-testid') === 'reset' &&
        document.activeElement.matches(':focus-visible'),
    );
  });

  it("plays the app's sound from its length and seeks it: the package server answers byte ranges", async () => {
    // Opened on the package's own origin: the answers are the same as in the frame. Before the server answered
    // ranges, Firefox could not seek at all and WebKit failed with a network error at the seek.
    await page.goto(`${platform.appOrigin}/sound.html`);
    await until(() => document.getElementById('out')?.textContent === '{"duration":60,"seekable":60,"time":45}');
  });
});
