// The three engines the browser cases run in, each through the driver that can drive it here: Chromium through
// Playwright, Firefox ESR through puppeteer-core over WebDriver BiDi, WebKitGTK through WebKitWebDriver (under Xvfb).
// Each gives contexts with Playwright-shaped pages (newPage, pages, close), so one case list serves all three.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { CHROMIUM_ARGS } from '../../../scripts/chromiumArgs.mjs';
import { webdriverPage } from './webdriverPage.mjs';

/** Where each engine is on a Debian machine (overridable), and the package that brings it. */
export const ENGINES = {
  chromium: { path: process.env.CHROMIUM_PATH || '/usr/bin/chromium', apt: 'chromium' },
  firefox: { path: process.env.FIREFOX_PATH || '/usr/bin/firefox-esr', apt: 'firefox-esr' },
  webkit: {
    path: process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver',
    apt: 'webkit2gtk-driver xvfb',
    browser: process.env.WEBKIT_BROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  },
};

/** Whether `engine` can start here, or a sentence saying what to install. `native` is the WebKitGTK WebView host. */
export function engineMissing(engine) {
  if (engine === 'native') {
    const typelib = '/usr/lib/x86_64-linux-gnu/girepository-1.0/WebKit2-4.1.typelib';
    if (!existsSync('/usr/bin/python3') || !existsSync('/usr/lib/python3/dist-packages/gi'))
      return 'no PyGObject for /usr/bin/python3 (apt-get install -y python3-gi)';
    if (!existsSync(typelib)) return 'no WebKit2 4.1 bindings (apt-get install -y gir1.2-webkit2-4.1)';
    if (!process.env.DISPLAY && !existsSync('/usr/bin/Xvfb')) return 'no Xvfb (apt-get install -y xvfb)';
    return;
  }
  const e = ENGINES[engine];
  if (!existsSync(e.path)) return `no ${engine} at ${e.path} (apt-get install -y ${e.apt})`;
  if (engine === 'webkit' && !existsSync(e.browser))
    return `no MiniBrowser at ${e.browser} (apt-get install -y ${e.apt})`;
  if (engine === 'webkit' && !process.env.DISPLAY && !existsSync('/usr/bin/Xvfb'))
    return 'no Xvfb (apt-get install -y xvfb)';
}

const freePort = () =>
  new Promise((ok, fail) => {
    const server = createServer().once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });

/** Starts Xvfb on a display it picks itself; resolves the display name and a stop function. */
export function startXvfb() {
  return new Promise((ok, fail) => {
    const xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    xvfb.once('error', fail);
    xvfb.stdout.once('data', (chunk) => ok({ display: `:${String(chunk).trim()}`, stop: () => xvfb.kill() }));
  });
}

/** Starts `command` and waits until it accepts connections on `port`. */
async function startDriver(command, port, env) {
  const child = spawn(command, [`--port=${port}`, '--host=127.0.0.1'], { stdio: 'ignore', env });
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/status`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  child.kill();
  throw new Error(`${command} did not start on port ${port}`);
}

/**
 * Launches `engine` headless. Resolves `{ engine, browser, newContext(), close() }`; a context has `newPage()`,
 * `pages()` and `close()`, and its pages the Playwright-shaped calls the cases use.
 */
export async function launchEngine(engine) {
  const missing = engineMissing(engine);
  if (missing) throw new Error(`cannot start ${engine}: ${missing}`);
  if (engine === 'chromium') {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: ENGINES.chromium.path, args: CHROMIUM_ARGS });
    return { engine, browser, newContext: () => browser.newContext(), close: () => browser.close() };
  }
  if (engine === 'firefox') {
    const { default: puppeteer } = await import('puppeteer-core');
    const browser = await puppeteer.launch({
      browser: 'firefox',
      protocol: 'webDriverBiDi',
      executablePath: ENGINES.firefox.path,
      headless: true,
    });
    return {
      engine,
      browser,
      newContext: async () => {
        const context = await browser.createBrowserContext();
        return {
          newPage: () => context.newPage(),
          pages: () => context.pages(),
          close: () => context.close(),
        };
      },
      close: () => browser.close(),
    };
  }
  // WebKitGTK: one WebKitWebDriver session (it allows one at a time), its window reused by each context.
  const { Builder } = await import('selenium-webdriver');
  const xvfb = process.env.DISPLAY ? undefined : await startXvfb();
  const env = { ...process.env, ...(xvfb && { DISPLAY: xvfb.display }) };
  const port = await freePort();
  const driverProcess = await startDriver(ENGINES.webkit.path, port, env);
  const driver = await new Builder()
    .usingServer(`http://127.0.0.1:${port}`)
    .withCapabilities({
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: ENGINES.webkit.browser, args: ['--automation'] },
    })
    .build();
  await driver.manage().setTimeouts({ script: 60_000, pageLoad: 30_000 });
  const page = webdriverPage(driver);
  return {
    engine,
    browser: driver,
    newContext: async () => {
      await driver.get('about:blank');
      return {
        newPage: async () => page,
        pages: async () => [page],
        close: async () => {},
      };
    },
    close: async () => {
      await driver.quit().catch(() => {});
      driverProcess.kill();
      xvfb?.stop();
    },
  };
}
