// The messenger specs' fixtures: Team Polls with its real backend on a fresh platform, the messenger open in `page`,
// and the helpers every spec used to copy (the app's frame, a tab click). `test.use({ sessionOptions })` passes the
// platform's options and the viewport.
import { test as base, type FrameLocator, type Page } from '@playwright/test';
import { type DevPlatform, type DevPlatformOptions, startDevPlatform } from '../../src/dev';
import { type PollsSession, startPollsSession } from './pollsSession';

/** A platform started for one test, and the messenger open on it. */
export interface OpenedMessenger {
  platform: DevPlatform;
  page: Page;
}

/** What {@link startPollsSession} takes: the platform's options and the page's viewport. */
export type SessionOptions = NonNullable<Parameters<typeof startPollsSession>[1]>;

/** The fixtures of a messenger spec. */
export interface MessengerFixtures {
  /** The session's options (`test.use({ sessionOptions: { viewport } })`). */
  sessionOptions: SessionOptions;
  /** Team Polls on a fresh platform with its backend, closed after the test (a broken contract fails it). */
  session: PollsSession;
  /** The messenger page of the session. */
  page: Page;
  /** The mini app's frame in the messenger. */
  app: FrameLocator;
  /** Opens a tab of the developer tools. */
  tab: (name: string) => Promise<void>;
  /**
   * Starts a platform on `options` (an app of the spec's own) and opens the messenger on it, in a browser context of
   * its own; both are closed after the test.
   */
  messenger: (options: DevPlatformOptions, viewport?: { width: number; height: number }) => Promise<OpenedMessenger>;
}

/** A session shared by the tests of a serial file (`sharedSession`), as one person would go through them in order. */
export interface SharedFixtures {
  sharedSessionOptions: SessionOptions;
  sharedSession: PollsSession;
}

/** `test` with the messenger's fixtures. */
export const test = base.extend<MessengerFixtures, SharedFixtures>({
  sessionOptions: [{}, { option: true }],
  session: async ({ browser, sessionOptions }, use) => {
    const session = await startPollsSession(browser, sessionOptions);
    await use(session);
    await session.close();
  },
  page: async ({ session }, use) => {
    await use(session.page);
  },
  app: async ({ page }, use) => {
    await use(page.frameLocator('[data-testid=app-frame]'));
  },
  tab: async ({ page }, use) => {
    await use((name) => page.getByTestId(`tab-${name}`).click());
  },
  messenger: async ({ browser }, use) => {
    const opened: { platform: DevPlatform; close: () => Promise<void> }[] = [];
    await use(async (options, viewport = { width: 1500, height: 860 }) => {
      const platform = await startDevPlatform(options);
      const context = await browser.newContext({ viewport });
      opened.push({ platform, close: () => context.close() });
      const page = await context.newPage();
      await page.goto(platform.url);
      return { platform, page };
    });
    for (const { platform, close } of opened.reverse()) {
      await close();
      await platform.close();
    }
  },
  sharedSessionOptions: [{}, { option: true, scope: 'worker' }],
  sharedSession: [
    async ({ browser, sharedSessionOptions }, use) => {
      const session = await startPollsSession(browser, sharedSessionOptions);
      await use(session);
      await session.close();
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';
