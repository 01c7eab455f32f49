// What a reviewer checks on the messenger page, in Chromium: text contrast of both themes computed from the
// theme's own custom properties, no console error on load, the side panel's tabs on one row at 1280 px, state
// events that leave the sidebar, the timeline and an open <select> alone, the notification badge and toast,
// permission rows with their state, the call log's markers, and the agent panel's whole result with a copy button.
import type { Page } from '@playwright/test';
import { CONTRAST_PAIRS, CONTROL_CONTRAST_PAIRS } from '../../src/dev/messenger/styles';
import { expect, test } from './messengerTest';

/** WCAG 2 contrast of two CSS colours, as the page resolves them. */
async function contrasts(page: Page, pairs = CONTRAST_PAIRS): Promise<{ pair: string; ratio: number }[]> {
  return page.evaluate((pairs) => {
    const probe = document.createElement('span');
    document.body.append(probe);
    const rgb = (name: string) => {
      probe.style.color = `var(${name})`;
      return getComputedStyle(probe)
        .color.match(/[\d.]+/g)!
        .slice(0, 3)
        .map(Number);
    };
    const luminance = (c: number[]) => {
      const [r, g, b] = c.map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const out = pairs.map(([fg, bg]) => {
      const [a, b] = [luminance(rgb(fg)), luminance(rgb(bg))].sort((x, y) => y - x);
      return { pair: `${fg} on ${bg}`, ratio: (a! + 0.05) / (b! + 0.05) };
    });
    probe.remove();
    return out;
  }, pairs);
}

test("text reaches 4.5:1 and a field's border 3:1 in the light and the dark theme, from the theme variables", async ({
  page,
  tab,
}) => {
  await expect(page.getByTestId('room-title')).toBeVisible();
  for (const theme of ['light', 'dark']) {
    if (theme === 'dark') {
      await tab('Settings');
      await page.getByTestId('theme').selectOption('dark');
      await expect(page.locator('body')).toHaveClass(/dark/);
    }
    const low = (await contrasts(page)).filter((c) => c.ratio < 4.5);
    expect(low, `${theme}: ${JSON.stringify(low)}`).toEqual([]);
    const faint = (await contrasts(page, CONTROL_CONTRAST_PAIRS)).filter((c) => c.ratio < 3);
    expect(faint, `${theme}: ${JSON.stringify(faint)}`).toEqual([]);
  }
});

test('no console error and no failed request on load and launch; the tabs fit one row at 1280 px', async ({
  browser,
  session,
}) => {
  const errors: string[] = [];
  // A page of its own, listened to from its first request.
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('requestfailed', (r) => errors.push(`${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`${r.url()} ${r.status()}`);
  });
  await page.goto(session.platform.url);
  await page.getByTestId('open-app').click();
  await expect(page.frameLocator('[data-testid=app-frame]').getByTestId('create')).toBeVisible();
  await expect(page.getByTestId('app-title')).toHaveText('Polls');
  const tops = await page
    .getByRole('tab')
    .evaluateAll((tabs) => tabs.map((t) => Math.round(t.getBoundingClientRect().top)));
  expect(tops).toHaveLength(6);
  expect(new Set(tops).size).toBe(1);
  const right = await page
    .getByRole('tab')
    .last()
    .evaluate((t) => t.getBoundingClientRect().right);
  expect(right).toBeLessThanOrEqual(1280);
  expect(errors).toEqual([]);
  await page.close();
});

test('a state event leaves the sidebar, the timeline and an open <select> as they were', async ({
  session,
  page,
  tab,
}) => {
  await session.platform.rotateSecret(); // something to render first
  await tab('Settings');
  const select = page.getByTestId('user');
  await select.focus();
  // Tag the elements: a rebuilt region has new ones, without the tag.
  await page.evaluate(() => {
    for (const sel of ['[data-testid=room-general]', '[data-testid=timeline]', '[data-testid=user]'])
      (document.querySelector(sel) as HTMLElement).dataset.kept = '1';
  });
  await session.platform.rotateSecret(); // a state event about the secret only
  await session.platform.grant('svc.notifications', 'bob'); // and one about another person
  await expect(page.getByTestId('secret-note')).toContainText('generation 3');
  await expect(page.getByTestId('room-general')).toHaveAttribute('data-kept', '1');
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-kept', '1');
  await expect(select).toHaveAttribute('data-kept', '1');
  await expect(select).toBeFocused();
});

test('notifications: an unread badge and a toast; permission rows show granted, denied or prompt', async ({
  page,
  app,
  tab,
}) => {
  await page.getByTestId('open-app').click();
  await app.getByTestId('create').click();
  await page.getByTestId('permission-allow').click();
  await app.getByTestId('remind').click();
  await page.getByTestId('permission-deny').click();
  await tab('Settings');
  await expect(page.getByTestId('permission-svc.room.context')).toHaveAttribute('data-state', 'granted');
  await expect(page.getByTestId('permission-svc.notifications')).toHaveAttribute('data-state', 'denied');
  await expect(page.getByTestId('permission-svc.message.send')).toHaveAttribute('data-state', 'prompt');
  await expect(page.getByTestId('permission-svc.room.context')).toContainText('The room it is opened in');
  await app.getByTestId('remind').click(); // refused before: the app is told at once, no sheet
  await page.getByTestId('grant-svc.notifications').click();
  await app.getByTestId('remind').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Reminders on' })).toBeVisible();
  await expect(page.getByTestId('unread')).toHaveText('1');
  await tab('Notifications');
  await page.getByTestId('notification').getByRole('button').click();
  await expect(page.getByTestId('unread')).toHaveCount(0);
});

test('the call log marks each launch and shows the agent result whole, with copy', async ({ page, tab }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('open-app').click();
  await page.getByTestId('app-reload').click();
  await tab('Calls');
  await expect(page.getByTestId('call-mark')).toHaveCount(2);
  await expect(page.getByTestId('call-mark').first()).toHaveText('▸ Launch as Alice in # General');
  // Rows open one at a time, and a filter leaves closed rows closed.
  await expect(page.locator('tr.more:visible')).toHaveCount(0);
  await page.getByRole('button', { name: 'ui.setTitle' }).first().click();
  await expect(page.locator('tr.more:visible')).toHaveCount(1);
  await expect(page.getByTestId('call-params')).toHaveText('{\n  "title": "Polls"\n}');
  await expect(page.getByTestId('call-result')).toHaveText('undefined'); // a notification has no answer
  await page.getByTestId('call-filter').fill('identity');
  await expect(page.locator('tr.more:visible')).toHaveCount(0);
  const identity = await page.locator('[data-testid=call-row][data-method="identity.get"]').count();
  expect(identity).toBeGreaterThan(0);
  await expect(page.getByTestId('call-row').filter({ visible: true })).toHaveCount(identity);
  await page.getByTestId('call-filter').fill('');
  await tab('Agent');
  await page.getByTestId('input-delete_poll-poll_id').fill('no-such-poll');
  await page.getByTestId('invoke-user-delete_poll').click();
  await page.getByTestId('action-sheet-yes').click();
  const result = page.getByTestId('result-delete_poll');
  await expect(result.locator('pre')).toHaveText('{\n  "deleted": "no-such-poll"\n}');
  await result.getByTestId('copy').click();
  await expect(result.getByTestId('copy')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('{\n  "deleted": "no-such-poll"\n}');
});

test('every control has a name, and the tab order never reaches a hidden one', async ({ page, tab }) => {
  for (const name of ['Agent', 'Calls', 'Webhooks', 'Blocked', 'Notifications', 'Settings']) {
    await tab(name);
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('button, input, select, textarea')]
        .filter((el) => {
          const labelled = (el as HTMLInputElement).labels?.length || el.getAttribute('aria-label');
          return !labelled && !(el.textContent ?? '').trim();
        })
        .map((el) => el.outerHTML.slice(0, 80)),
    );
    expect(unnamed, name).toEqual([]);
  }
  // With the app closed its panel has no width: Tab never lands on its Reload or Close.
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const box = el.getBoundingClientRect();
      return { testid: el.dataset.testid ?? el.tagName, visible: box.width > 0 && box.height > 0 };
    });
    expect(focused.visible, focused.testid).toBe(true);
    expect(['app-reload', 'app-close']).not.toContain(focused.testid);
  }
});

test('with every badge showing, the tabs fit one row and the page fits the window from 1024 to 1920 px', async ({
  page,
  app,
}) => {
  await page.getByTestId('open-app').click();
  await app.getByTestId('create').click();
  await page.getByTestId('permission-allow').click();
  await app.getByTestId('remind').click();
  await page.getByTestId('permission-allow').click();
  await expect(page.getByTestId('unread')).toHaveText('1');
  await app.locator('body').evaluate(() => fetch('https://tracker.example/pixel').catch(() => undefined));
  await expect(page.getByTestId('tab-Blocked').locator('.badge')).toBeVisible();
  for (const width of [1024, 1152, 1280, 1366, 1440, 1600, 1920]) {
    await page.setViewportSize({ width, height: 800 });
    const layout = await page.evaluate(() => {
      const tabs = [...document.querySelectorAll<HTMLElement>('[role=tab]')];
      const bar = tabs[0]!.parentElement!.getBoundingClientRect();
      return {
        page: document.documentElement.scrollWidth - window.innerWidth,
        tops: new Set(tabs.map((t) => Math.round(t.getBoundingClientRect().top))).size,
        // A tab or its badge past the row's edges is clipped by the panel (which scrolls, and hides what overflows).
        clipped: tabs
          .filter((t) =>
            [t, ...t.querySelectorAll('.badge')].some((el) => {
              const box = el.getBoundingClientRect();
              return box.right > bar.right + 0.5 || box.left < bar.left - 0.5 || box.top < 0;
            }),
          )
          .map((t) => t.textContent),
        outside: bar.right > window.innerWidth,
      };
    });
    expect(layout, `${width} px`).toEqual({ page: 0, tops: 1, clipped: [], outside: false });
  }
});

test("a message's and a card's line breaks are kept in the timeline", async ({ page, session }) => {
  const { platform } = session;
  const response = await fetch(`${platform.origin}/__svc/message`, {
    method: 'POST',
    headers: { origin: platform.origin, 'x-svc-dev-token': platform.controlToken, 'content-type': 'application/json' },
    body: JSON.stringify({
      room_id: 'general',
      text: 'Standup:\nall done',
      card: { title: 'Summary', body: 'Done:\n- ship it\nTodo:\n- test it' },
    }),
  });
  expect(response.status).toBe(200);
  const card = page.getByTestId('message-card').filter({ hasText: 'Summary' });
  // innerText is what the page shows: a line break collapsed to a space would read "Done: - ship it".
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, line breaks and all, is what is checked
  await expect.poll(() => card.innerText()).toContain('Done:\n- ship it\nTodo:\n- test it');
  await expect
    // biome-ignore lint/performance/useDomNodeTextContent: as above
    .poll(() => page.getByTestId('message').filter({ hasText: 'Standup:' }).innerText())
    .toContain('Standup:\nall done');
});

test('a long timeline draws its latest entries, and earlier ones on request; another room starts from its latest', async ({
  page,
  session,
}) => {
  const { platform } = session;
  const { timelineShown } = (await import('../../src/dev/limits')).LIMITS;
  // A backend posting all day grew the page without end: every entry was drawn.
  const count = timelineShown + 5;
  const platformPost = async (text: string) => {
    const response = await fetch(`${platform.origin}/__svc/message`, {
      method: 'POST',
      headers: {
        origin: platform.origin,
        'x-svc-dev-token': platform.controlToken,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ room_id: 'general', text }),
    });
    expect(response.status).toBe(200);
  };
  for (let i = 1; i <= count; i++) await platformPost(`entry ${i}`);
  const messages = page.getByTestId('timeline').getByTestId('message');
  await expect(messages.last()).toContainText(`entry ${count}`);
  await expect(messages).toHaveCount(timelineShown);
  await expect(messages.first()).toContainText('entry 6');
  const earlier = page.getByTestId('timeline-earlier');
  await expect(earlier).toHaveText('5 earlier entries not shown. Show 5 earlier entries');
  // Its count changes with each new entry: outside the log's live region too.
  await expect(earlier).toHaveAttribute('aria-live', 'off');
  // Pressed from the keyboard, where the reader is: the view stays on the entries they were reading, and the focus in
  // the timeline once the button is gone (it fell to the page's body).
  const box = page.getByRole('log', { name: 'Messages in # General' });
  await box.evaluate((el) => {
    el.scrollTop = 0;
  });
  const shownBefore = await messages.first().boundingBox();
  await earlier.getByRole('button', { name: 'Show 5 earlier entries' }).focus();
  await page.keyboard.press('Enter');
  await expect(messages).toHaveCount(count);
  await expect(messages.first()).toContainText('entry 1');
  // Said once, politely, instead of each entry read out.
  await expect(page.getByTestId('timeline-told')).toHaveText(`5 earlier entries shown above, ${count} in all.`);
  await expect(page.getByTestId('timeline-told')).toHaveAttribute('role', 'status');
  await expect(earlier).toHaveCount(0);
  await expect(box).toBeFocused();
  const entry6 = page.getByTestId('message').filter({ hasText: /^.*entry 6$/ });
  expect(Math.abs((await entry6.boundingBox())!.y - shownBefore!.y)).toBeLessThan(60);
  // The entries drawn on request are not read out as if they had just arrived: a screen reader reads out what is
  // added to the log's live region, and they are drawn inside a region of its own that is off; a new entry is not.
  await platformPost(`entry ${count + 1}`);
  await expect(messages.last()).toContainText(`entry ${count + 1}`);
  const region = (text: string) =>
    page
      .getByTestId('message')
      .filter({ hasText: new RegExp(`${text}$`) })
      .evaluate((el) => {
        const root = el.closest('[aria-live], [role=log]');
        return root?.getAttribute('aria-live') ?? root?.getAttribute('role');
      });
  expect(await region('entry 1')).toBe('off');
  expect(await region('entry 5')).toBe('off');
  expect(await region('entry 6')).toBe('log');
  expect(await region(`entry ${count + 1}`)).toBe('log');
  await page.getByTestId('room-board').click();
  await page.getByTestId('room-general').click();
  await expect(messages).toHaveCount(timelineShown);
});
