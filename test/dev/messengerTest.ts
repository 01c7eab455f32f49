// The messenger specs' fixtures: Team Polls with its real backend on a fresh platform, the messenger open in `page`,
// and the helpers every spec used to copy (the app's frame, a tab click). `test.use({ sessionOptions })` passes the
// platform's options and the viewport.
import { test as base, type FrameLocator, type Page } from '@playwright/test';
import { type PollsSession, startPollsSession } from './pollsSession';

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
