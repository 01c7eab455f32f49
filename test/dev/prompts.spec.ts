// Every person-facing prompt of the messenger page, answered by clicking, with a small app that uses each one:
// the file picker (sample files and the files the app saved), share, ui.confirm, toasts, openExternal, close, and
// the external-oauth sign-in sheet.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { Svc } from '../../src/index';
import { type DevEvent, type DevPlatform, formatDevEvent } from '../../src/dev';
import { exchangeManifest, type Json, oauthManifest } from '../mock/fixtures';
import { expect, type MessengerFixtures, test } from './messengerTest';
import { promptsApp as appDir } from './promptsApp';

let platform: DevPlatform;
let page: Page;
test.describe.configure({ mode: 'serial' });

const open = async (messenger: MessengerFixtures['messenger'], manifest: Json) => {
  ({ platform, page } = await messenger({ dir: await appDir(manifest), port: 0 }));
  await page.getByTestId('open-app').click();
  return page.frameLocator('[data-testid=app-frame]');
};

test('picker, saved files, share, confirm, toast, openExternal and close, each answered in the messenger', async ({
  messenger,
}) => {
  const app = await open(messenger, exchangeManifest());
  const out = app.locator('#out');
  await app.locator('#pick').click();
  await page.getByTestId('permission-allow').click();
  await expect(page.getByTestId('picker-sheet')).toContainText('notes.txt');
  await page.getByTestId('pick-notes.txt').check();
  await page.getByTestId('picker-choose').click();
  await expect(out).toHaveText('notes.txt');

  await app.locator('#save').click();
  await page.getByTestId('permission-allow').click();
  await expect(out).toHaveText('saved-1');
  await app.locator('#pick').click(); // the saved file is offered now
  await page.getByTestId('pick-result.txt').check();
  await page.getByTestId('picker-choose').click();
  await expect(out).toHaveText('result.txt');
  await app.locator('#pick').click();
  await page.getByTestId('picker-cancel').click();
  await expect(out).toHaveText('ERR_CANCELLED');

  await app.locator('#share').click();
  await expect(page.getByTestId('share-sheet')).toContainText('https://polls.example/p/1');
  await page.getByTestId('share-sheet-yes').click();
  await expect(out).toHaveText('shared');
  await app.locator('#share').click();
  await page.getByTestId('share-sheet-no').click();
  await expect(out).toHaveText('ERR_CANCELLED');

  await app.locator('#confirm').click();
  await expect(page.getByTestId('confirm-sheet')).toContainText('The poll goes.');
  await page.getByTestId('confirm-sheet-no').click();
  await expect(out).toHaveText('false');

  await app.locator('#toast').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Hello from the app' })).toBeVisible();
  await app.locator('#external').click();
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Would open in the system browser: https://polls.example/help' }),
  ).toBeVisible();
  await app.locator('#close').click();
  await expect(page.locator('.shell')).toHaveClass(/closed/);
});

test('an error toast stays while the keyboard is on its Dismiss button, and goes when pressed', async ({
  messenger,
}) => {
  const app = await open(messenger, exchangeManifest());
  await app.locator('#errortoast').click();
  const toast = page.getByTestId('toast').filter({ hasText: 'It broke' });
  await page.getByTestId('open-app').focus();
  await toast.getByTestId('toast-dismiss').focus();
  // Past its 6 s it stayed: it went from under the focus, which fell to the page's body.
  await page.waitForTimeout(7500);
  await expect(toast).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(toast).toHaveCount(0);
  // The focus goes back where it was, not to the page's body.
  await expect(page.getByTestId('open-app')).toBeFocused();
});

test('in a narrow window, toasts stay under a sheet, clear of the focused control, and Escape dismisses them', async ({
  messenger,
}) => {
  const app = await open(messenger, exchangeManifest());
  await page.setViewportSize({ width: 320, height: 640 });
  await app.locator('#confirm').waitFor();
  const frame = page.frames().find((f) => f.url().startsWith(platform.appOrigin))!;
  const long = (kind: string) =>
    frame.evaluate(
      (k) =>
        (window as unknown as { svc: Svc }).svc.ui.toast({ message: 'A long toast. '.repeat(300), kind: k as 'error' }),
      kind,
    );
  await long('error');
  await long('info');
  // The info toast, long enough to scroll, is a Tab stop (the error one has its Dismiss button).
  await expect(page.getByTestId('toast').and(page.locator('.info'))).toHaveAttribute('tabindex', '0');
  // A sheet over them: its question and its focused button are on top, not the toasts.
  await app.locator('#confirm').click();
  const yes = page.getByTestId('confirm-sheet-yes');
  await expect(yes).toBeFocused();
  const onTop = await yes.evaluate((button) => {
    const r = button.getBoundingClientRect();
    return button.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
  });
  expect(onTop).toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('confirm-sheet-yes')).toHaveCount(0);
  // Tab through the page: no control the keyboard reaches is under the toasts.
  await page.getByTestId('open-app').focus();
  const hidden: string[] = [];
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    const under = await page.evaluate(async () => {
      // The page scrolls the control clear the frame after the focus came to it.
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const focused = document.activeElement as HTMLElement | null;
      const toasts = document.querySelector('.toasts > div:first-child')?.parentElement;
      if (!focused || !toasts || focused.closest('.toasts') || focused.tagName === 'IFRAME') return '';
      const box = focused.getBoundingClientRect();
      const cover = [...toasts.querySelectorAll('.toast')].map((t) => t.getBoundingClientRect());
      const inside = (r: DOMRect) =>
        box.top >= r.top && box.bottom <= r.bottom && box.left >= r.left && box.right <= r.right;
      return cover.some(inside) ? (focused.dataset.testid ?? focused.tagName) : '';
    });
    if (under) hidden.push(under);
  }
  expect(hidden).toEqual([]);
  await expect(page.getByTestId('toast')).toHaveCount(2);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('toast')).toHaveCount(0);
  // An app's words in a right-to-left language are laid out right to left.
  await frame.evaluate(() => (window as unknown as { svc: Svc }).svc.ui.toast({ message: 'مرحبا بكم! (١٢٣)' }));
  const arabic = page.getByTestId('toast').filter({ hasText: 'مرحبا' });
  expect(await arabic.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  // Cut, its count of what was cut stays in the page's own order, isolated left to right.
  await frame.evaluate(() => (window as unknown as { svc: Svc }).svc.ui.toast({ message: 'شالوم '.repeat(400) }));
  const cut = page.getByTestId('toast').filter({ hasText: 'شالوم' }).locator('bdi');
  await expect(cut).toHaveAttribute('dir', 'ltr');
  await expect(cut).toHaveText(/^… \(\d+ more characters\)$/);
});

test("a message to a room that is not one of the person's is refused naming room_id, before the person is asked", async ({
  messenger,
}) => {
  const app = await open(messenger, exchangeManifest());
  await app.locator('#nowhere').click();
  await page.getByTestId('permission-allow').click();
  await expect(app.locator('#out')).toHaveText('ERR_INVALID_ARGUMENT');
  await expect(page.getByTestId('send-sheet')).toHaveCount(0);
  // Nor to another tenant's room, which the person is no member of.
  await app.locator('#toast').click();
  await expect(app.locator('#out')).toHaveText('toasted');
  await app.locator('#elsewhere').click();
  await expect(app.locator('#out')).toHaveText('ERR_INVALID_ARGUMENT');
  await expect(page.getByTestId('send-sheet')).toHaveCount(0);
});

test('an app that asks again and again: from its third sheet in a row, the sheet offers to close it', async ({
  messenger,
}) => {
  const app = await open(messenger, exchangeManifest());
  await app.locator('#nag').click();
  const nag = page.getByTestId('confirm-sheet');
  // The first two are plain sheets: an app may well ask twice.
  for (let i = 0; i < 2; i++) {
    await expect(nag).toBeVisible();
    await expect(page.getByTestId('sheet-close-app')).toHaveCount(0);
    await page.keyboard.press('Escape');
  }
  // The page behind is inert, so the app panel's Close cannot be reached: the sheet offers it.
  const exit = page.getByTestId('sheet-close-app');
  await expect(exit).toHaveText(`Close ${exchangeManifest().name}`);
  await exit.click();
  await expect(page.locator('.shell')).toHaveClass(/closed/);
  await expect(page.getByTestId('open-app')).toBeFocused();
  await expect(nag).toHaveCount(0);
  // Closed as the person closes it: a reload does not open it again.
  expect(new URL(page.url()).hash).toBe('');
  await page.waitForTimeout(500);
  await expect(page.getByTestId('confirm-sheet')).toHaveCount(0);
});

test('external-oauth: the sign-in sheet, refused then accepted', async ({ messenger }) => {
  const app = await open(messenger, oauthManifest());
  const out = app.locator('#out');
  await app.locator('#signin').click();
  await page.getByTestId('signin-sheet-no').click();
  await expect(out).toHaveText('ERR_PERMISSION_DENIED');
  await app.locator('#signin').click();
  await page.getByTestId('signin-sheet-yes').click();
  await expect(out).toHaveText('signed-in');
});

test('an app that never says hello: a warning in the page and on the terminal, and launches told to the terminal', async ({
  messenger,
}) => {
  test.setTimeout(40_000);
  // The package without the svc client: it loads, but never speaks on the bridge.
  const dir = await appDir(exchangeManifest());
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"></head><body>silent</body></html>',
  );
  const events: DevEvent[] = [];
  ({ platform, page } = await messenger({ dir, port: 0, onEvent: (event) => events.push(event) }));
  await page.getByTestId('open-app').click();
  await expect(page.getByTestId('notice')).toContainText('has not said hello 10 s after its launch', {
    timeout: 20_000,
  });
  await expect(page.getByTestId('notice')).toContainText(`<meta name="svc-host-origins" content="${platform.origin}">`);
  await expect.poll(() => events.map((e) => e.type)).toContain('no-hello');
  expect(events).toContainEqual({ type: 'launch', user: 'Alice', room: 'in # General' });
  expect(formatDevEvent(events.find((e) => e.type === 'no-hello')!)).toContain('has not said hello 10 s');
  // An app that waits for a click before its first call is silent too: the warning says when it is no fault.
  await expect(page.getByTestId('notice')).toContainText("The client says it with the app's first call");
});

test("a prompt of an app page that reloads closes, and the new page's own prompts are asked", async ({ messenger }) => {
  const app = await open(messenger, exchangeManifest());
  await app.locator('#confirm').click();
  await expect(page.getByTestId('confirm-sheet')).toBeVisible();
  // The app's page reloads under the sheet (a dev server's full reload): nobody waits for that answer any more.
  const frame = page.frames().find((f) => f.url().startsWith(platform.appUrl))!;
  await frame.evaluate(() => location.reload());
  await expect(page.getByTestId('confirm-sheet')).toBeHidden();
  // The reloaded page is not behind a sheet: its own question is asked and answered.
  await app.locator('#confirm').click();
  await expect(page.getByTestId('confirm-sheet')).toContainText('The poll goes.');
  await page.getByTestId('confirm-sheet-yes').click();
  await expect(app.locator('#out')).toHaveText('true');
});

test('the call log keeps its latest 500 rows and says how many earlier calls it dropped', async ({ messenger }) => {
  const app = await open(messenger, exchangeManifest());
  await expect(app.locator('#confirm')).toBeVisible();
  const frame = page.frames().find((f) => f.url().startsWith(platform.appUrl))!;
  // An agent calling all day: each call is a row, and the page must not grow (nor each row slow down) without end.
  await frame.evaluate(async () => {
    for (let i = 0; i < 520; i++) await (globalThis as unknown as { svc: Svc }).svc.storage.get(`k${i}`);
  });
  await page.getByTestId('tab-Calls').click();
  const rows = page.locator('[data-testid=call-row], [data-testid=call-mark]');
  await expect(rows).toHaveCount(500);
  await expect(page.getByTestId('call-earlier')).toHaveText(/^2\d earlier calls not shown: the latest 500 are kept\.$/);
  await expect(page.locator('[data-testid=call-row][data-method="storage.get"]').first()).toBeVisible();
  await page.getByTestId('call-clear').click();
  await expect(rows).toHaveCount(0);
  await expect(page.getByTestId('call-earlier')).toHaveCount(0);
});
