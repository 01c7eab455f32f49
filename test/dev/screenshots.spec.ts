// The README's images of the messenger, in light and dark: `SVC_SCREENSHOTS=1 npx playwright test
// test/dev/screenshots.spec.ts` writes them into docs/images. Skipped otherwise: a picture is looked at, not asserted.
import { join, resolve } from 'node:path';
import { expect, test } from './messengerTest';

const shots = join(resolve(import.meta.dirname, '../..'), 'docs/images');
test.skip(!process.env.SVC_SCREENSHOTS, 'SVC_SCREENSHOTS=1 writes the README images');

for (const theme of ['light', 'dark'] as const) {
  test(`screenshots, ${theme}`, async ({ page, app, tab }) => {
    const suffix = theme === 'dark' ? '-dark' : '';
    if (theme === 'dark') {
      await tab('Settings');
      await page.getByTestId('theme').selectOption('dark');
      await expect(page.locator('body')).toHaveClass(/dark/);
    }
    await page.getByTestId('open-app').click();
    await app.getByTestId('create').click();
    await page.getByTestId('permission-allow').click();
    await expect(page.getByTestId('card')).toContainText('Lunch?');
    await page.getByTestId('card').getByRole('button', { name: 'Vote' }).click();
    await app.getByTestId('vote-option').first().click();
    await expect(app.getByTestId('vote-option').first()).toContainText('· 1');
    await tab('Agent');
    await page.getByTestId('input-create_poll-question').fill('Team dinner?');
    await page.getByTestId('input-create_poll-options').fill('Thai\nTapas');
    await page.getByTestId('invoke-agent-create_poll').click();
    await expect(page.getByTestId('result-create_poll').locator('pre')).toContainText('poll_id');
    await page.screenshot({ path: join(shots, `messenger${suffix}.png`) });
    // The agent panel asking the person before a destructive action.
    const pollId = JSON.parse((await page.getByTestId('result-create_poll').locator('pre').textContent()) ?? '{}');
    await page.getByTestId('input-delete_poll-poll_id').fill(pollId.poll_id);
    await page.getByTestId('invoke-agent-delete_poll').click();
    await expect(page.getByTestId('action-sheet')).toBeVisible();
    await page.screenshot({ path: join(shots, `agent-panel${suffix}.png`) });
    await page.getByTestId('action-sheet-no').click();
    await expect(page.getByTestId('result-delete_poll').locator('pre')).toContainText('ERR_PERMISSION_DENIED');

    await tab('Calls');
    await page.getByRole('button', { name: 'auth.getToken' }).first().click();
    await page.screenshot({ path: join(shots, `call-log${suffix}.png`) });

    await tab('Settings');
    await page.getByTestId('grant-svc.notifications').click();
    await tab('Webhooks');
    const delivery = page.locator('[data-testid=delivery][data-event="scope.granted"]').first();
    await expect(delivery).toHaveAttribute('data-state', 'delivered');
    await delivery.getByTestId('resend').evaluate((b) => (b as HTMLElement).click());
    await expect(page.getByTestId('duplicate')).toBeVisible();
    await page.getByTestId('delivery').first().locator('summary').click();
    await page.screenshot({ path: join(shots, `webhooks${suffix}.png`) });
  });
}
