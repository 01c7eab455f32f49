// The accessibility review's findings (keyboard, screen reader, low vision), each checked through a real Chromium as
// the reviewer met it: the agent panel's forms and what they announce, the timeline as a log, Escape wherever focus
// is, reflow at 320 px, long words, forced colours, toasts, the tabs' arrow keys and where focus goes after Close.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { Json } from '../mock/fixtures';
import { controlFetch } from '../helpers/controlApi';
import { writeMcpTestApp } from './mcpTestApp';
import { expect, type MessengerFixtures, test } from './messengerTest';

// An action with a required text field and an optional number, answered with its input; and buttons for a
// confirmation and an error toast, both with long unbroken words.
const APP = `
svc.actions.handle('count_items', async (input) => input);
svc.actions.handle('book_day', async (input) => input);
const on = (id, fn) => {
  const button = Object.assign(document.createElement('button'), { id, textContent: id });
  button.addEventListener('click', () => fn().catch(() => {}));
  document.body.append(button);
};
const long = 'x'.repeat(2000);
on('confirm', () => svc.ui.confirm({ title: 'Delete ' + 'y'.repeat(300) + '?', body: long }));
on('error', async () => svc.ui.toast({ message: 'It failed: ' + long, kind: 'error' }));
on('close', async () => svc.ui.close());
on('ask', async () => svc.permissions.request('room.send'));
// A notice that comes while the app's question is open.
on('later', async () => {
  setTimeout(() => svc.ui.toast({ message: 'A later notice' }), 400);
  await svc.ui.confirm({ title: 'Wait', body: 'A notice comes now.' });
});
`;

/** The app's package: its manifest with `count_items`, a page running {@link APP}, and the script-tag client. */
const a11yApp = () =>
  writeMcpTestApp(
    [
      {
        name: 'count_items',
        title: 'Count items',
        description: 'Counts the items with a name. Nothing is deleted.',
        input_schema: {
          type: 'object',
          properties: {
            name: { type: 'string', minLength: 1, description: 'The item name' },
            count: { type: 'integer', minimum: 1 },
            size: { enum: ['s', 'm', 'l'], default: 'm', description: 'The size of the box' },
          },
          required: ['name', 'size'],
          additionalProperties: false,
        },
      },
      {
        name: 'book_day',
        title: 'Book a day',
        description: 'Books the given day for the team. Nothing is deleted.',
        input_schema: {
          type: 'object',
          properties: { day: { type: 'string', format: 'date', description: 'The day' } },
          required: ['day'],
          additionalProperties: false,
        },
      },
    ],
    APP,
    (manifest) => (manifest.permissions = [{ scope: 'svc.message.send', purpose: 'Post into the room.' }]),
  );

/** The messenger on {@link a11yApp}, in a viewport of `width` × `height`. */
async function openA11y(messenger: MessengerFixtures['messenger'], width = 1500, height = 860): Promise<Page> {
  const { platform, page } = await messenger({ dir: await a11yApp(), port: 0, mcp: false }, { width, height });
  posted.set(page, new URL(platform.url));
  return page;
}

const posted = new WeakMap<Page, URL>();

/** Posts a message into # General, as the person's own client would (through the control API). */
async function post(page: Page, text: string, card?: Json): Promise<void> {
  const response = await controlFetch(posted.get(page)!, 'POST', '/__svc/message', { room_id: 'general', text, card });
  expect(response.status).toBe(200);
}

/** Opens the app and presses one of its buttons. */
async function press(page: Page, button: string): Promise<void> {
  // Closed, the app's panel is inert (its buttons keep their boxes, in a column of no width).
  if (await page.getByTestId('app-panel').evaluate((el) => (el as HTMLElement).inert))
    await page.getByTestId('open-app').click();
  await page.frameLocator('[data-testid=app-frame]').locator(`#${button}`).click();
}

/** The violations axe finds on the messenger (WCAG 2.2 A/AA and best practices), the app's frame left out. */
async function axe(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .exclude('[data-testid=app-frame]')
    .analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Whether the page scrolls sideways. */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test.describe('the agent panel', () => {
  test('an optional number left empty is left out of the input, and the action runs', async ({ messenger }) => {
    const page = await openA11y(messenger);
    await page.getByTestId('input-count_items-name').fill('pens');
    await page.getByTestId('invoke-agent-count_items').click();
    await expect(page.getByTestId('result-count_items')).toContainText('Result');
    await expect(page.getByTestId('result-count_items').locator('pre')).toHaveText(/"name": "pens"/);
    await expect(page.getByTestId('result-count_items')).not.toContainText('count');
  });

  test('Enter in a field invokes the action as the agent, as a form submits (a11y47 F3)', async ({ messenger }) => {
    const page = await openA11y(messenger);
    await page.getByTestId('input-count_items-name').fill('cups');
    await page.getByTestId('input-count_items-name').press('Enter');
    await expect(page.getByTestId('result-count_items').locator('pre')).toHaveText(/"name": "cups"/);
  });

  test('a refused field is marked invalid and described by the refusal, which is announced at once', async ({
    messenger,
  }) => {
    const page = await openA11y(messenger);
    const name = page.getByTestId('input-count_items-name');
    const count = page.getByTestId('input-count_items-count');
    await expect(name).toHaveAttribute('aria-required', 'true');
    await expect(page.getByRole('textbox', { name: 'name (required)' })).toHaveAccessibleDescription('The item name');
    await expect(count).not.toHaveAttribute('aria-required', 'true');
    // A number's bounds are said before an answer out of them is refused.
    await expect(count).toHaveAccessibleDescription('At least 1.');
    // The host refuses the missing name: that field, and it alone, is marked.
    await count.fill('3');
    await page.getByTestId('invoke-agent-count_items').click();
    const result = page.getByTestId('result-count_items');
    await expect(result).toContainText('ERR_ACTION_INVALID_INPUT');
    // Read at once as a sentence, not the error's JSON: an alert that stays on the page, beside the result.
    const card = page.getByTestId('action-count_items');
    await expect(card.getByRole('alert')).toHaveText(/^Count items failed: ERR_ACTION_INVALID_INPUT: [^{}"]+$/);
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(count).toHaveAttribute('aria-invalid', 'false');
    // The focus goes to the field the refusal is about, as in the elicit sheet.
    await expect(name).toBeFocused();
    // Described by its own sentence, in words (no JSON), then its hint.
    const own = await page.getByTestId('input-count_items-name-error').textContent();
    expect(own).toMatch(/^name /);
    await expect(name).toHaveAccessibleDescription(`${own} The item name`);
    // Filled: the marks go, and the result is said politely.
    await name.fill('pens');
    await page.getByTestId('invoke-agent-count_items').click();
    await expect(result).toContainText('Result');
    await expect(card.getByRole('alert')).toHaveText('');
    await expect(card.getByRole('status').first()).toHaveText('Count items: done; its result is below.');
    await expect(name).toHaveAttribute('aria-invalid', 'false');
    await expect(page.getByTestId('input-count_items-name-error')).toHaveCount(0);
    // A choice says what it is for and its default, and starts at that default.
    const size = page.getByTestId('input-count_items-size');
    await expect(size).toHaveAccessibleDescription('The size of the box. Default: "m".');
    await expect(size.locator('option:checked')).toHaveText('m');
    await expect(result.locator('pre')).toHaveText(/"size": "m"/);
    // Each button says which action it invokes, its visible words first.
    await expect(page.getByTestId('invoke-agent-count_items')).toHaveAccessibleName('Invoke as agent: Count items');
    await expect(page.getByTestId('progress-count_items')).toHaveAttribute('role', 'log');
  });
});

test('an empty required date is said to be missing, not to be no date', async ({ messenger }) => {
  const page = await openA11y(messenger);
  const day = page.getByTestId('input-book_day-day');
  await page.getByTestId('invoke-agent-book_day').click();
  await expect(day).toHaveAttribute('aria-invalid', 'true');
  const own = (await page.getByTestId('input-book_day-day-error').textContent()) ?? '';
  expect(own).toMatch(/required|missing/);
  expect(own).not.toMatch(/date format/);
  // So is an empty required text of a least length, not a text too short (recheck48b F5).
  await page.getByTestId('invoke-agent-count_items').click();
  const name = (await page.getByTestId('input-count_items-name-error').textContent()) ?? '';
  expect(name).toMatch(/required|missing/);
  expect(name).not.toMatch(/at least/);
});

test('headings reach the app panel and each action of the agent panel', async ({ messenger }) => {
  const page = await openA11y(messenger);
  await page.getByTestId('open-app').click();
  await expect(page.getByRole('region', { name: 'Polls' }).getByRole('heading', { level: 2 })).toHaveText('Polls');
  await expect(page.getByRole('heading', { level: 2, name: 'Actions' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Count items' })).toBeVisible();
  // One h1, first of all the headings (the room list's h2s come before the room's title in the page), read by
  // screen readers, not shown; the room's title is an h2 under it.
  const levels = await page.locator('h1, h2, h3').evaluateAll((all) => all.map((h) => h.tagName));
  expect(levels[0]).toBe('H1');
  expect(levels.filter((tag) => tag === 'H1')).toHaveLength(1);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText("Polls in svc dev's messenger");
  await expect(page.getByRole('heading', { level: 2, name: '# General' })).toBeVisible();
  expect(await axe(page)).toEqual([]);
  // The room's landmark is named after the room, and Home's after Home; the house sign is not read out.
  await expect(page.getByRole('main', { name: 'Room # General' })).toBeVisible();
  await page.getByRole('button', { name: 'Home', exact: true }).click();
  await expect(page.getByRole('main', { name: 'Home' })).toBeVisible();
});

test.describe('the timeline', () => {
  test('is a named log a keyboard reaches, and axe finds nothing with many messages', async ({ messenger }) => {
    const page = await openA11y(messenger);
    for (let i = 0; i < 40; i++) await post(page, `Message ${i}`);
    await expect(page.getByTestId('message')).toHaveCount(40);
    const log = page.getByRole('log', { name: 'Messages in # General' });
    await expect(log).toHaveAttribute('tabindex', '0');
    await page.getByTestId('open-app').focus();
    await page.keyboard.press('Tab');
    await expect(log).toBeFocused();
    expect(await axe(page)).toEqual([]);
  });

  test("each card's buttons are described by its title, so two cards' Open are told apart (a11y47)", async ({
    messenger,
  }) => {
    const page = await openA11y(messenger);
    for (const title of ['Poll: Lunch', 'Poll: Dinner'])
      await post(page, title, { title, body: 'Vote now.', actions: [{ label: 'Open', deep_link: '/' }] });
    const open = page.getByTestId('card-action');
    await expect(open).toHaveCount(2);
    await expect(open.nth(0)).toHaveAccessibleName('Open');
    await expect(open.nth(0)).toHaveAccessibleDescription('Poll: Lunch');
    await expect(open.nth(1)).toHaveAccessibleDescription('Poll: Dinner');
  });

  test('a long word, a long card and a long confirmation wrap instead of running out of their box', async ({
    messenger,
  }) => {
    const page = await openA11y(messenger, 1280, 800);
    await post(page, 'z'.repeat(2000), { title: 't'.repeat(250), body: 'b'.repeat(2000) });
    await expect(page.getByTestId('message')).toHaveCount(1);
    const box = page.locator('.timeline-box');
    expect(await box.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await press(page, 'confirm');
    const sheet = page.getByTestId('confirm-sheet');
    await expect(sheet).toBeVisible();
    expect(await sheet.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  });
});

test.describe('sheets', () => {
  test('a notice that comes while a sheet is open is in the accessibility tree, read out (a11y47 F7)', async ({
    messenger,
  }) => {
    const page = await openA11y(messenger);
    await press(page, 'later');
    await expect(page.getByTestId('confirm-sheet')).toBeVisible();
    await expect(page.getByTestId('toasts').getByRole('status')).toContainText('A later notice');
    // Outside what the open sheet makes inert.
    expect(await page.getByTestId('toasts').evaluate((el) => el.closest('[inert]') === null)).toBe(true);
    const tree = await page.locator('body').ariaSnapshot();
    expect(tree).toContain('A later notice');
    await page.keyboard.press('Escape');
  });

  test("the permission sheet the app opens starts on Don't allow: Enter meant for the app allows nothing (a11y47 F2)", async ({
    messenger,
  }) => {
    const page = await openA11y(messenger);
    await press(page, 'ask');
    await expect(page.getByTestId('permission-sheet')).toBeVisible();
    await expect(page.getByTestId('permission-deny')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('permission-sheet')).toBeHidden();
    await page.getByTestId('tab-Settings').click();
    await expect(page.getByTestId('settings')).toContainText('denied');
  });

  test('Escape declines a sheet wherever focus is, and Tab goes round the sheet', async ({ messenger }) => {
    const page = await openA11y(messenger);
    await press(page, 'confirm');
    const sheet = page.getByTestId('confirm-sheet');
    await expect(sheet).toBeVisible();
    // Past the last button, Tab comes back to the first one.
    // Its body is read with its title, and the button it starts on shows its ring though a click opened it.
    await expect(sheet).toHaveAccessibleDescription(/^x{2000}$/);
    await expect(page.getByTestId('confirm-sheet-yes')).toBeFocused();
    expect(await page.getByTestId('confirm-sheet-yes').evaluate((el) => getComputedStyle(el).outlineStyle)).toBe(
      'solid',
    );
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('confirm-sheet-no')).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(page.getByTestId('confirm-sheet-yes')).toBeFocused();
    // Focus on the page's body, as after a click on the sheet's text.
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();
  });
});

test.describe('low vision', () => {
  test('at 320 px wide the page reflows: nothing scrolls sideways, on any tab, with the app open', async ({
    messenger,
  }) => {
    const page = await openA11y(messenger, 320, 800);
    await post(page, `A link: https://example.com/${'path/'.repeat(40)}`);
    expect(await scrollsSideways(page), 'the room').toBe(false);
    for (const name of ['Agent', 'Calls', 'Webhooks', 'Blocked', 'Notifications', 'Settings']) {
      await page.getByTestId(`tab-${name}`).click();
      expect(await scrollsSideways(page), name).toBe(false);
    }
    await page.getByTestId('open-app').click();
    await expect(page.getByTestId('app-close')).toBeVisible();
    expect(await scrollsSideways(page), 'the app open').toBe(false);
    await page.screenshot({ path: test.info().outputPath('reflow-320.png'), fullPage: true });
    // 400 % of a 1280 × 1024 screen.
    await page.setViewportSize({ width: 320, height: 256 });
    expect(await scrollsSideways(page), '320 × 256').toBe(false);
  });

  test('in forced colours the chosen tab and room stand out, and a sheet keeps its edge', async ({ messenger }) => {
    const page = await openA11y(messenger);
    await page.emulateMedia({ forcedColors: 'active' });
    const background = (testid: string) =>
      page.getByTestId(testid).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await background('tab-Agent')).not.toBe(await background('tab-Calls'));
    await page.getByTestId('room-general').click();
    expect(await background('room-general')).not.toBe(await background('home'));
    await press(page, 'confirm');
    const sheet = page.getByTestId('confirm-sheet');
    await expect(sheet).toBeVisible();
    expect(await sheet.evaluate((el) => getComputedStyle(el).borderTopWidth)).not.toBe('0px');
    await page.screenshot({ path: test.info().outputPath('forced-colors.png') });
  });

  test('in a short window, a control Shift+Tab reaches in the tools shows below the sticky tab row', async ({
    messenger,
  }) => {
    const page = await openA11y(messenger, 1280, 400);
    await page.getByTestId('tab-Settings').click();
    await page.getByTestId('store-upload').focus();
    const tabs = (await page.locator('.tabs').boundingBox())!;
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Shift+Tab');
      const { top, name, inPanel } = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const inPanel = el.id !== 'tool-panel' && !!el.closest('#tool-panel');
        return { top: el.getBoundingClientRect().top, name: el.dataset.testid ?? el.tagName, inPanel };
      });
      if (!inPanel) break;
      expect(top, `${name} under the tab row`).toBeGreaterThanOrEqual(tabs.y + tabs.height);
    }
  });

  test('an error toast is an alert of its text alone, holds its long word inside the window, stays while the pointer is on it, and is dismissed by a key', async ({
    messenger,
  }) => {
    const page = await openA11y(messenger, 1280, 800);
    // The page's clock from here on: the toast's time passes at once, and the pointer is what holds it.
    await page.clock.install();
    await press(page, 'error');
    const toast = page.getByTestId('toast').filter({ has: page.getByRole('alert') });
    await expect(toast).toHaveCount(1);
    // What is read out is the message: its Dismiss button is beside the alert, not a part of it.
    const said = (await toast.getByRole('alert').textContent()) ?? '';
    expect(said.length).toBeGreaterThan(0);
    expect(said).not.toContain('Dismiss');
    await expect(toast.getByRole('alert').getByRole('button')).toHaveCount(0);
    const box = (await toast.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    await toast.hover();
    await page.clock.runFor(10 * 60_000);
    await expect(toast).toHaveCount(1);
    await page.mouse.move(5, 5);
    await page.clock.runFor(2000);
    await expect(toast).toHaveCount(0);
    // The keyboard reaches an error's Dismiss, before its time is up.
    await press(page, 'error');
    await expect(toast).toHaveCount(1);
    await toast.getByTestId('toast-dismiss').focus();
    await page.keyboard.press('Enter');
    await expect(toast).toHaveCount(0);
  });

  test('a copy says it copied, to a screen reader too', async ({ messenger, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await openA11y(messenger);
    await page.getByTestId('input-count_items-name').fill('pens');
    await page.getByTestId('invoke-agent-count_items').click();
    const copy = page.getByTestId('result-count_items').getByTestId('copy');
    await expect(copy).toHaveAccessibleName('Copy the result of Count items');
    await copy.click();
    await expect(copy).toHaveAccessibleName('Copied: Copy the result of Count items');
    await expect(page.getByTestId('result-count_items').getByRole('status')).toHaveText('Copied');
  });
});

test.describe('the keyboard', () => {
  test('the arrow keys, Home and End move between the tabs; the row is one Tab stop', async ({ messenger }) => {
    const page = await openA11y(messenger);
    const tab = (name: string) => page.getByTestId(`tab-${name}`);
    await tab('Agent').focus();
    await page.keyboard.press('ArrowRight');
    await expect(tab('Calls')).toBeFocused();
    await expect(tab('Calls')).toHaveAttribute('aria-selected', 'true');
    await expect(tab('Agent')).toHaveAttribute('tabindex', '-1');
    await page.keyboard.press('End');
    await expect(tab('Settings')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowRight');
    await expect(tab('Agent')).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(tab('Settings')).toBeFocused();
    await page.keyboard.press('Home');
    await expect(tab('Agent')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Tab');
    await expect(page.locator('#tool-panel')).toBeFocused();
  });

  test("after Close the focus is on the button that opens the app again, not lost on the page's body", async ({
    messenger,
  }) => {
    const page = await openA11y(messenger);
    await page.getByTestId('open-app').click();
    await expect(page.locator('iframe')).toHaveCount(1);
    await page.getByTestId('app-close').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('open-app')).toBeFocused();
    // No empty frame stays behind for a screen reader's list of frames to offer.
    await expect(page.locator('iframe')).toHaveCount(0);
  });

  test('after the app closes itself, the focus that was in it is on the button that opens it again', async ({
    messenger,
  }) => {
    const page = await openA11y(messenger);
    await press(page, 'close');
    await expect(page.getByTestId('app-panel')).toHaveJSProperty('inert', true);
    await expect(page.getByTestId('open-app')).toBeFocused();
  });

  test('the arrow keys on the closed "Signed in as" select do not switch person; Enter does', async ({ messenger }) => {
    const page = await openA11y(messenger);
    await page.getByTestId('tab-Settings').click();
    const signedIn = page.getByTestId('signed-in');
    const before = await signedIn.textContent();
    await page.getByTestId('user').focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByTestId('user')).not.toHaveValue(/^$/);
    await page.waitForTimeout(500);
    await expect(signedIn).toHaveText(before!);
    await page.keyboard.press('Enter');
    await expect(signedIn).not.toHaveText(before!);
  });
});
