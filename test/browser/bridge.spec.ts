// The browser cases (bridgeCases.mjs, mockCases.mjs) on @playwright/test: the loopback servers are a worker fixture (each worker
// has its own three origins), each case gets a fresh browser context through the `h` fixture, and the browser is
// Playwright's, launched with the system Chromium from playwright.config.ts.
import { test as base } from '@playwright/test';
import { helpersFor } from './bridgeCases.mjs';
import { tests } from './declareCases.mjs';
import { declareMockCases } from './mockCases.mjs';
import { exchangeManifest } from '../mock/fixtures';
import { startServers } from './server.mjs';

interface Origins {
  /** The host page. */
  H: string;
  /** The app, same site as the host (another port). */
  A: string;
  /** The app on another site (an out-of-process frame). */
  X: string;
  /** An attacker on a third site. */
  E: string;
}

declareMockCases(exchangeManifest());

const test = base.extend<{ h: ReturnType<typeof helpersFor> }, { origins: Origins }>({
  origins: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature takes the other fixtures first
    async ({}, use) => {
      const servers = await startServers(3);
      const [hp, ap, ep] = servers.ports;
      await use({
        H: `http://127.0.0.1:${hp}`,
        A: `http://127.0.0.1:${ap}`,
        X: `http://localhost:${ap}`,
        E: `http://localhost:${ep}`,
      });
      await servers.close();
    },
    { scope: 'worker' },
  ],
  h: async ({ browser, origins }, use) => {
    const context = await browser.newContext();
    await use(helpersFor(context, browser, origins));
    await context.close();
  },
});

for (const { name, fn, timeout } of tests)
  test(name, async ({ h }) => {
    test.setTimeout(timeout);
    await fn(h);
  });
