// The messenger's accessibility, checked by axe-core on every panel and every sheet, opened for real as a person
// would, in the light and the dark theme: no violation of WCAG 2.2 A/AA or of axe's best practices (landmarks,
// heading order, names). A failure lists each violation with the elements it is about.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { Result } from 'axe-core';
import { exchangeManifest, type Json, oauthManifest } from '../mock/fixtures';
import { expect, test } from './messengerTest';
import { promptsApp } from './promptsApp';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** Runs axe on the messenger page (the app's own page in its frame is the app's, not the messenger's). */
async function expectAccessible(page: Page, where: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).exclude('[data-testid=app-frame]').analyze();
  const found = violations.map(
    (v: Result) =>
      `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary}`).join('\n')}`,
  );
  expect(found, `axe on ${where}`).toEqual([]);
}

/** Switches the page to the dark theme (Settings), as a person would. */
async function dark(page: Page): Promise<void> {
  await page.getByTestId('tab-Settings').click();
  await page.getByTestId('theme').selectOption('dark');
  await expect(page.locator('body')).toHaveClass(/dark/);
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    // Each test runs axe four to nine times (1-2 s a scan) through a whole flow: 10-25 s on a quiet machine, past
    // 30 s on a busy 2-core one (two CI runs beside other work). Three times the timeout, for every test here.
    test.slow();
    test('every panel of the developer tools, with content', async ({ page, app, tab }) => {
      if (theme === 'dark') await dark(page);
      await expectAccessible(page, 'the home screen');
      await page.getByTestId('room-general').click();
      await page.getByTestId('open-app').click();
      await app.getByTestId('create').click();
      await expect(page.getByTestId('permission-sheet')).toBeVisible();
      await expectAccessible(page, 'the permission sheet');
      await page.getByTestId('permission-allow').click();
      await expect(page.getByTestId('card')).toContainText('Lunch?');
      await app.getByTestId('remind').click();
      await page.getByTestId('permission-allow').click();
      await expect(page.getByTestId('unread')).toHaveText('1');
      await app.locator('body').evaluate(() => fetch('https://tracker.example/pixel').catch(() => undefined));
      await expect(page.getByTestId('tab-Blocked').locator('.badge')).toBeVisible();
      await tab('Agent');
      await expectAccessible(page, 'the agent panel, a room with a card');
      await tab('Calls');
      await page.getByRole('button', { name: 'ui.setTitle' }).first().click();
      await expectAccessible(page, 'the call log, a row opened');
      await tab('Webhooks');
      await page.getByTestId('delivery').first().locator('summary').click();
      await page.getByTestId('delivery').first().getByTestId('resend').click();
      await expect(page.getByTestId('resend-of')).toHaveCount(1);
      await page.getByTestId('delivery').first().locator('summary').click();
      await expect(page.getByTestId('resend-of')).toBeVisible();
      await expectAccessible(page, 'the webhook inspector, a delivery sent again opened');
      await tab('Blocked');
      await expect(page.getByTestId('blocked')).toHaveCount(1);
      await expectAccessible(page, 'the blocked requests');
      await tab('Notifications');
      await expect(page.getByTestId('notification')).toHaveCount(1);
      await expectAccessible(page, 'the notifications');
      await tab('Settings');
      await page
        .getByTestId('store-upload')
        .setInputFiles({ name: 'x.swbn', mimeType: 'application/octet-stream', buffer: Buffer.from('x') });
      await expect(page.getByTestId('store-result')).toContainText('Refused');
      await expectAccessible(page, 'the settings, a store upload refused');
    });

    test("Team Polls' sheets: confirm an action, elicit, send, and the settings' confirmations", async ({
      page,
      tab,
    }) => {
      if (theme === 'dark') await dark(page);
      await tab('Agent');
      await page.getByTestId('input-delete_poll-poll_id').fill('no-such-poll');
      await page.getByTestId('invoke-agent-delete_poll').click();
      await expect(page.getByTestId('action-sheet')).toBeVisible();
      await expectAccessible(page, 'the action confirmation sheet');
      await page.getByTestId('action-sheet-no').click();
      await page.getByTestId('input-create_poll-question').fill('Offsite venue?');
      await page.getByTestId('invoke-agent-create_poll').click();
      await page.getByTestId('permission-allow').click(); // the room the poll goes to
      await expect(page.getByTestId('elicit-sheet')).toBeVisible();
      await page.getByTestId('elicit-submit').click(); // refused: the sheet says why, the field is marked
      await expect(page.getByTestId('elicit-sheet-error')).not.toBeEmpty();
      await expectAccessible(page, 'the elicit sheet, an answer refused');
      await page.getByTestId('elicit-refuse').click();
      await tab('Settings');
      for (const [button, sheet, no] of [
        ['uninstall', 'uninstall-sheet', 'uninstall-sheet-no'],
        ['deprovision', 'deprovision-sheet', 'deprovision-sheet-no'],
        ['revoke-version', 'revoke-version-sheet', 'revoke-version-sheet-no'],
        ['reset', 'reset-sheet', 'reset-no'],
      ]) {
        await page.getByTestId(button!).click();
        await expect(page.getByTestId(sheet!)).toBeVisible();
        await expectAccessible(page, `the ${sheet}`);
        await page.getByTestId(no!).click();
      }
      await page.getByTestId('uninstall').click();
      await page.getByTestId('uninstall-sheet-yes').click();
      await expect(page.getByTestId('notice')).toBeVisible();
      await expectAccessible(page, 'the notice after an uninstall');
      await page.getByTestId('open-app').click();
      await expect(page.getByTestId('install-sheet')).toBeVisible();
      await expectAccessible(page, 'the install sheet');
      await page.getByTestId('install-confirm').click();
    });

    test('the send sheet, from an encrypted room', async ({ page, app }) => {
      if (theme === 'dark') await dark(page);
      await page.getByTestId('room-board').click();
      await page.getByTestId('open-app').click();
      await app.getByTestId('create').click();
      await page.getByTestId('permission-allow').click();
      await expect(app.getByTestId('status')).toContainText('end-to-end encrypted');
      await app.getByTestId('send-instead').click();
      await page.getByTestId('permission-allow').click();
      await expect(page.getByTestId('send-sheet')).toBeVisible();
      await expectAccessible(page, 'the send sheet');
      await page.getByTestId('send-sheet-yes').click();
      await expect(page.getByTestId('message')).toContainText('Poll: Lunch?');
      await expectAccessible(page, 'a room with a message carrying a card');
    });

    test('the prompts: file picker, share, confirm, and the external-oauth sign-in', async ({ messenger }) => {
      const prompts: [Json, [string, string, string][]][] = [
        [
          exchangeManifest(),
          [
            ['#pick', 'permission-sheet', 'permission-allow'],
            ['', 'picker-sheet', 'picker-cancel'],
            ['#share', 'share-sheet', 'share-sheet-no'],
            ['#confirm', 'confirm-sheet', 'confirm-sheet-no'],
          ],
        ],
        [oauthManifest(), [['#signin', 'signin-sheet', 'signin-sheet-no']]],
      ];
      for (const [manifest, sheets] of prompts) {
        const { page } = await messenger({ dir: await promptsApp(manifest), port: 0 });
        if (theme === 'dark') await dark(page);
        await page.getByTestId('open-app').click();
        const app = page.frameLocator('[data-testid=app-frame]');
        for (const [button, sheet, answer] of sheets) {
          if (button) await app.locator(button).click();
          await expect(page.getByTestId(sheet)).toBeVisible();
          await expectAccessible(page, `the ${sheet}`);
          await page.getByTestId(answer).click();
        }
      }
    });
  });
}
