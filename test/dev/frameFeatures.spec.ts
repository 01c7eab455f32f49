// The app's frame in `svc dev`, as attachIframe makes it for every web host. The standard web APIs the platform leaves
// to the engine's own prompts (camera, microphone, geolocation), and the clipboard: the frame is of another site, so
// each works only when the messenger delegates it (APP_FRAME_ALLOW). The browser grants the prompts here (fake
// devices, a granted context), so an error is the frame's policy or the API itself. Its sandbox (APP_FRAME_SANDBOX):
// no navigation of the messenger's page, and everything else a page does still works. And its sound, which seeks.
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContextOptions, expect, type Page, test } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../scripts/chromiumArgs.mjs';
import { startDevPlatform } from '../../src/dev';
import { APP_FRAME_ALLOW, APP_FRAME_SANDBOX } from '../../src/host';
import { exchangeManifest } from '../mock/fixtures';
import { SEEK_AUDIO, toneWav } from './toneWav';

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  },
});

const root = resolve(import.meta.dirname, '../..');

/** An app folder: the manifest, a page with `body` that loads `app.js` (after the script-tag client, with `client`). */
async function appFolder(body: string, script: string, client = false): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-frame-'));
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(exchangeManifest()));
  const scripts = `${client ? '<script src="svc.global.js"></script>' : ''}<script src="app.js"></script>`;
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"></head><body>${body}<p id="out"></p>${scripts}</body></html>`,
  );
  if (client) await copyFile(join(root, 'dist/svc.global.js'), join(dir, 'svc.global.js'));
  await writeFile(join(dir, 'app.js'), script);
  return dir;
}

/** Runs `check` on the messenger with the app open, in a context of `contextOptions`; closes both after it. */
async function withApp(
  browser: Browser,
  dir: string,
  contextOptions: BrowserContextOptions,
  check: (page: Page, platform: Awaited<ReturnType<typeof startDevPlatform>>) => Promise<void>,
): Promise<void> {
  const platform = await startDevPlatform({ dir, port: 0, mcp: false });
  const context = await browser.newContext(contextOptions);
  try {
    const page = await context.newPage();
    await check(page, platform);
  } finally {
    await context.close();
    await platform.close();
  }
}

const USE_FEATURES = `
const out = document.getElementById('out');
const settle = (p) => p.then(() => 'ok', (e) => (e.name || 'GeolocationPositionError') + ': ' + e.message);
document.getElementById('use').addEventListener('click', async () => {
  const r = {};
  r.camera = await settle(navigator.mediaDevices.getUserMedia({ video: true }));
  r.microphone = await settle(navigator.mediaDevices.getUserMedia({ audio: true }));
  r.geolocation = await settle(new Promise((ok, no) => navigator.geolocation.getCurrentPosition(ok, no, { timeout: 5000 })));
  r.clipboard = await settle(navigator.clipboard.writeText('copied'));
  r.bridge = await settle(svc.auth.state());
  out.textContent = JSON.stringify(r);
});
`;

test('a mini app in svc dev uses the camera, the microphone, geolocation and the clipboard, as in a WebView', async ({
  browser,
}) => {
  const dir = await appFolder('<button id="use">use</button>', USE_FEATURES, true);
  const granted: BrowserContextOptions = {
    permissions: ['camera', 'microphone', 'geolocation', 'clipboard-read', 'clipboard-write'],
    geolocation: { latitude: 52.52, longitude: 13.4 },
  };
  await withApp(browser, dir, granted, async (page, platform) => {
    const console: string[] = [];
    page.on('console', (message) => console.push(message.text()));
    await page.goto(platform.url);
    await page.getByTestId('open-app').click();
    await expect(page.getByTestId('app-frame')).toHaveAttribute('allow', APP_FRAME_ALLOW);
    const app = page.frameLocator('[data-testid=app-frame]');
    await app.locator('#use').click();
    await expect(app.locator('#out')).not.toBeEmpty();
    expect(JSON.parse((await app.locator('#out').textContent())!)).toEqual({
      camera: 'ok',
      microphone: 'ok',
      geolocation: 'ok',
      clipboard: 'ok',
      bridge: 'ok',
    });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('copied');
    // Every feature delegated is one this Chromium knows: it names any other in the console at each launch.
    expect(console.filter((text) => /feature/i.test(text))).toEqual([]);
  });
});

test("a mini app's sound knows its length and seeks to any second: the package server answers byte ranges", async ({
  browser,
}) => {
  // Without ranges Chromium took the file for a live stream (no length, no seeking back), Firefox could not seek, and
  // WebKit failed with a network error at the seek.
  const dir = await appFolder('<audio id="a" src="tone.wav" preload="auto"></audio>', SEEK_AUDIO);
  await writeFile(join(dir, 'tone.wav'), toneWav(60));
  await withApp(browser, dir, {}, async (page, platform) => {
    await page.goto(platform.url);
    await page.getByTestId('open-app').click();
    const out = page.frameLocator('[data-testid=app-frame]').locator('#out');
    await expect(out).not.toBeEmpty();
    expect(JSON.parse((await out.textContent())!)).toEqual({ duration: 60, seekable: 60, time: 45 });
  });
});

test("a mini app cannot navigate the messenger's page, even on a click", async ({ browser }) => {
  // A copy of the messenger's sign-in page on another site, say: the click is the person's, so only a sandbox stops it.
  const dir = await appFolder(
    '<button id="go">Vote</button>',
    `document.getElementById('go').onclick = () => {
      try { top.location.href = 'http://127.0.0.1:9/sign-in'; } catch (e) { document.getElementById('out').textContent = e.name; }
    };`,
  );
  await withApp(browser, dir, {}, async (page, platform) => {
    await page.goto(platform.url);
    await page.getByTestId('open-app').click();
    await expect(page.getByTestId('app-frame')).toHaveAttribute('sandbox', APP_FRAME_SANDBOX);
    await page.frameLocator('[data-testid=app-frame]').locator('#go').click();
    await expect(page.frameLocator('[data-testid=app-frame]').locator('#out')).toHaveText('SecurityError');
    expect(page.url()).toBe(`${platform.url}#app`); // the page opens #app with the app
    await expect(page.getByTestId('app-frame')).toBeVisible();
  });
});

test('in its sandbox a mini app still downloads, opens pop-ups, asks with confirm() and submits forms', async ({
  browser,
}) => {
  const dir = await appFolder(
    '<button id="download">download</button><button id="popup">popup</button><button id="ask">ask</button><form action="index.html"><input name="sent" value="yes"><button id="submit">submit</button></form>',
    `const out = document.getElementById('out');
    document.getElementById('download').onclick = () => {
      const a = Object.assign(document.createElement('a'), { href: URL.createObjectURL(new Blob(['42'])), download: 'answer.txt' });
      a.click();
    };
    document.getElementById('popup').onclick = () => window.open('index.html?popup');
    document.getElementById('ask').onclick = () => { out.textContent = 'confirmed: ' + confirm('Sure?'); };`,
  );
  await withApp(browser, dir, { acceptDownloads: true }, async (page, platform) => {
    await page.goto(platform.url);
    await page.getByTestId('open-app').click();
    const app = page.frameLocator('[data-testid=app-frame]');
    const [download] = await Promise.all([page.waitForEvent('download'), app.locator('#download').click()]);
    expect(download.suggestedFilename()).toBe('answer.txt');
    const [popup] = await Promise.all([page.context().waitForEvent('page'), app.locator('#popup').click()]);
    await popup.waitForLoadState();
    expect(popup.url()).toBe(`${platform.appOrigin}/index.html?popup`);
    page.once('dialog', (dialog) => dialog.accept());
    await app.locator('#ask').click();
    await expect(app.locator('#out')).toHaveText('confirmed: true');
    await app.locator('#submit').click();
    await expect.poll(() => page.frames().some((f) => f.url().endsWith('/index.html?sent=yes'))).toBe(true);
  });
});
