// The messenger's flows that used to mislead, each driven in Chromium as a person would, on a fresh platform with
// Team Polls and its real backend: what the person sees, and what the platform and the backend then hold.
import type { Page } from '@playwright/test';
import { controlFetch } from '../helpers/controlApi';
import { expect, test } from './messengerTest';

/** Loads the messenger from the URL svc dev prints, `url#app`, as a new document (not a change of fragment alone). */
async function loadWithApp(page: Page, url: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${url}#app`);
}

test('switching rooms relaunches the app in the new room, and the panel says where it was opened and which version runs', async ({
  session,
  page,
  app,
}) => {
  await page.getByTestId('room-general').click();
  await expect(page.getByTestId('open-app')).toHaveText('Open Team Polls');
  await page.getByTestId('open-app').click();
  await expect(page.getByTestId('app-where')).toHaveText('Opened in # General as Alice');
  await expect(page.getByTestId('app-version')).toHaveText(' · version 1.0.0');
  // Open beside the open app would leave a person unsure whether it is open: it says what it does now.
  await expect(page.getByTestId('open-app')).toHaveText('Restart Team Polls');
  await page.getByTestId('room-board').click();
  await expect(page.getByTestId('app-where')).toHaveText('Opened in [e2ee] Board (encrypted) as Alice');
  await app.getByTestId('create').click();
  await page.getByTestId('permission-allow').click();
  // The poll goes to the room on screen: the encrypted one, where the backend may not post.
  await expect(app.getByTestId('status')).toContainText('end-to-end encrypted');
  expect(session.platform.cards('general')).toHaveLength(0);
  await page.getByTestId('home').click();
  await expect(page.getByTestId('app-where')).toHaveText('Opened from the home screen as Alice');
  await page.getByTestId('app-close').click();
  await expect(page.getByTestId('open-app')).toHaveText('Open Team Polls');
  await expect(page.getByTestId('app-version')).toHaveCount(0);
});

test('the elicit sheet checks the answer against the schema, shows the error inline and stays open', async ({
  page,
  tab,
}) => {
  await tab('Agent');
  await page.getByTestId('input-create_poll-question').fill('Offsite venue?');
  await page.getByTestId('invoke-agent-create_poll').click();
  await page.getByTestId('permission-allow').click(); // the room the poll goes to
  const sheet = page.getByTestId('elicit-sheet');
  await expect(sheet).toContainText('Which options should "Offsite venue?" offer?');
  await page.getByTestId('elicit-field').fill('Lisbon');
  await page.getByTestId('elicit-submit').click();
  await expect(page.getByTestId('elicit-sheet-error')).toHaveText(
    'The answer must have at least 2 items; it has 1. Correct it, or refuse.',
  );
  await expect(sheet).toBeVisible();
  await expect(page.getByTestId('elicit-field')).toHaveAttribute('aria-invalid', 'true');
  await page.getByTestId('elicit-field').fill('Lisbon\nPorto');
  await page.getByTestId('elicit-submit').click();
  await expect(sheet).toBeHidden();
  await expect(page.getByTestId('result-create_poll').locator('pre')).toContainText('poll_id');
});

test('"Invoke as agent" with the app closed opens the app, then invokes', async ({ page, tab }) => {
  await expect(page.locator('.shell')).toHaveClass(/closed/);
  await tab('Agent');
  await page.getByTestId('input-create_poll-question').fill('Team dinner?');
  await page.getByTestId('input-create_poll-options').fill('Thai\nTapas');
  await page.getByTestId('invoke-agent-create_poll').click();
  await expect(page.locator('.shell')).not.toHaveClass(/closed/);
  await page.getByTestId('permission-allow').click(); // the room the poll goes to
  await expect(page.getByTestId('result-create_poll').locator('pre')).toContainText('poll_id');
  await expect(page.getByTestId('app-where')).toHaveText('Opened in # General as Alice');
  await expect(page.getByTestId('card')).toContainText('Team dinner?');
});

test('uninstall asks first, closes the app and says what happened; opening it again shows the install step', async ({
  session,
  page,
  tab,
}) => {
  await page.getByTestId('open-app').click();
  await expect(page.getByTestId('app-title')).toHaveText('Polls');
  await tab('Settings');
  await page.getByTestId('uninstall').click();
  await expect(page.getByTestId('uninstall-sheet')).toContainText('auth.getToken fails');
  await page.getByTestId('uninstall-sheet-no').click();
  expect(session.platform.state.installations.find((i) => i.user_id === 'alice')?.installed).toBe(true);
  await page.getByTestId('uninstall').click();
  await page.getByTestId('uninstall-sheet-yes').click();
  await expect(page.getByTestId('notice')).toContainText('Team Polls was uninstalled for Alice and closed');
  await expect(page.locator('.shell')).toHaveClass(/closed/);
  expect(session.platform.state.installations.find((i) => i.user_id === 'alice')?.installed).toBe(false);
  await page.getByTestId('open-app').click();
  await expect(page.getByTestId('install-sheet')).toContainText('Team Polls is not installed for Alice.');
  await page.getByTestId('install-confirm').click();
  await expect(page.getByTestId('app-title')).toHaveText('Polls');
  await expect
    .poll(() => session.platform.state.installations.find((i) => i.user_id === 'alice')?.installed)
    .toBe(true);
});

test('a person who never installed the app gets the install step, not a permission sheet', async ({ page, tab }) => {
  await tab('Settings');
  await page.getByTestId('user').selectOption('bob');
  await expect(page.getByTestId('signed-in')).toHaveText('Bob');
  await page.getByTestId('open-app').click();
  await expect(page.getByTestId('install-sheet')).toContainText('not installed for Bob');
  await page.getByTestId('install-cancel').click();
  await expect(page.locator('.shell')).toHaveClass(/closed/);
  await expect(page.getByTestId('permission-sheet')).toHaveCount(0);
  await page.getByTestId('open-app').click();
  await page.getByTestId('install-confirm').click();
  await expect(page.getByTestId('app-title')).toHaveText('Polls');
  await tab('Webhooks');
  await expect(page.locator('[data-testid=delivery][data-event="installation.created"]')).toHaveAttribute(
    'data-state',
    'delivered',
  );
});

test('the app open for Alice opens again when she is back from Bob, who cancelled its install; Close keeps it closed', async ({
  page,
  tab,
}) => {
  await page.getByTestId('open-app').click();
  await expect(page.getByTestId('app-title')).toHaveText('Polls');
  await tab('Settings');
  await page.getByTestId('user').selectOption('bob');
  await expect(page.getByTestId('install-sheet')).toContainText('not installed for Bob');
  await page.getByTestId('install-cancel').click();
  await expect(page.locator('.shell')).toHaveClass(/closed/);
  // It stayed closed for Alice: she had to open it again.
  await page.getByTestId('user').selectOption('alice');
  await expect(page.getByTestId('app-title')).toHaveText('Polls');
  await expect(page.getByTestId('app-where')).toContainText('as Alice');
  // Closed by the person, it stays closed across a switch.
  await page.getByTestId('app-close').click();
  await page.getByTestId('user').selectOption('carol');
  await page.getByTestId('user').selectOption('alice');
  await expect(page.locator('.shell')).toHaveClass(/closed/);
});

test('remove from tenant and revoke version ask first and explain; reset brings a fresh state back', async ({
  session,
  page,
  tab,
}) => {
  await page.getByTestId('open-app').click();
  await tab('Settings');
  await page.getByTestId('deprovision').click();
  await expect(page.getByTestId('deprovision-sheet')).toContainText('Remove Alice from Acme?');
  await page.getByTestId('deprovision-sheet-yes').click();
  await expect(page.getByTestId('notice')).toContainText('Alice was removed from Acme');
  await page.getByTestId('open-app').click();
  await expect(page.getByTestId('notice')).toContainText('cannot be opened for them');
  await expect(page.locator('.shell')).toHaveClass(/closed/);

  await page.getByTestId('revoke-version').click();
  await expect(page.getByTestId('revoke-version-sheet')).toContainText('409 version-revoked');
  await page.getByTestId('revoke-version-sheet-yes').click();
  await expect(page.getByTestId('notice')).toContainText('Version 1.0.0 was revoked');
  expect(session.platform.state.version_revoked).toBe(true);
  // The focus comes back to the button, which says it is done and no longer acts.
  await expect(page.getByTestId('revoke-version')).toBeFocused();
  await expect(page.getByTestId('revoke-version')).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByTestId('revoke-version')).toHaveText('Version 1.0.0 revoked');

  await expect(page.getByTestId('state-where')).toContainText('In memory only');
  await page.getByTestId('reset').click();
  await page.getByTestId('reset-yes').click();
  await expect(page.getByTestId('notice')).toContainText('Fresh state');
  expect(session.platform.state.version_revoked).toBeUndefined();
  expect(session.platform.state.users.some((u) => u.deprovisioned)).toBe(false);
  expect(session.platform.state.deliveries).toHaveLength(0);
  await page.getByTestId('open-app').click();
  await expect(page.getByTestId('app-title')).toHaveText('Polls');
});

test('rotate secret: the page explains the overlap, and the example backend verifies webhooks signed with the new secret', async ({
  page,
  tab,
}) => {
  await tab('Settings');
  await page.getByTestId('rotate-secret').click();
  await expect(page.getByTestId('secret-note')).toContainText('Secret generation 2');
  await expect(page.getByTestId('secret-note')).toContainText('the previous one still verifies server API calls until');
  await page.getByTestId('grant-svc.notifications').click();
  await tab('Webhooks');
  const delivery = page.locator('[data-testid=delivery][data-event="scope.granted"]');
  await expect(delivery).toHaveAttribute('data-state', 'delivered');
  await expect(delivery.locator('.attempt')).toHaveCount(1);
});

test('rooms belong to a tenant: Carol in Globex sees her rooms only, never Acme rooms or Alice’s cards', async ({
  page,
  app,
  tab,
}) => {
  await page.getByTestId('open-app').click();
  await app.getByTestId('create').click();
  await page.getByTestId('permission-allow').click();
  await expect(page.getByTestId('card')).toContainText('Lunch?');
  await tab('Settings');
  await page.getByTestId('user').selectOption('carol');
  await expect(page.getByTestId('signed-in')).toHaveText('Carol');
  await expect(page.getByTestId('room-title')).toHaveText('# Globex team');
  await expect(page.getByTestId('room-general')).toHaveCount(0);
  await expect(page.getByTestId('room-board')).toHaveCount(0);
  await expect(page.getByTestId('card')).toHaveCount(0);
  await expect(page.getByTestId('app-where')).toHaveText('Opened in # Globex team as Carol');
  await page.getByTestId('user').selectOption('alice');
  await expect(page.getByTestId('room-title')).toHaveText('# General');
  await expect(page.getByTestId('card')).toContainText('Lunch?');
});

test('sheets are modal dialogs: focus moves in, the page behind is inert, Escape declines and focus returns', async ({
  session,
  page,
  tab,
}) => {
  await tab('Settings');
  const trigger = page.getByTestId('uninstall');
  await trigger.click();
  const sheet = page.getByTestId('uninstall-sheet');
  await expect(sheet).toHaveAttribute('aria-modal', 'true');
  await expect(sheet).toHaveAccessibleName('Uninstall Team Polls for Alice?');
  // A destructive choice: the declining button has the focus, so Enter pressed out of habit uninstalls nothing.
  await expect(page.getByTestId('uninstall-sheet-no')).toBeFocused();
  expect(await page.locator('#messenger').evaluate((el) => (el as HTMLElement).inert)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  await expect(trigger).toBeFocused();
  expect(await page.locator('#messenger').evaluate((el) => (el as HTMLElement).inert)).toBe(false);
  expect(session.platform.state.installations.find((i) => i.user_id === 'alice')?.installed).toBe(true);
});

test('the webhook inspector: target, headers with the signature cut, payload, attempts with answers, send again linked and seen as a duplicate, a filter by event', async ({
  session,
  page,
  tab,
}) => {
  await tab('Settings');
  await page.getByTestId('grant-svc.notifications').click();
  await page.getByTestId('revoke-svc.notifications').click();
  await tab('Webhooks');
  const granted = page.locator('[data-testid=delivery][data-event="scope.granted"]');
  await expect(granted).toHaveAttribute('data-state', 'delivered');
  await expect(granted.locator('summary')).toContainText('Alice (au-alice, acme) · Notifications (svc.notifications)');
  await granted.locator('summary').click();
  await expect(granted).toContainText(`POST ${session.backend.webhookUrl}`);
  const headers = granted.getByTestId('delivery-headers');
  await expect(headers).toContainText('"X-Svc-Signature"');
  await expect(headers).toContainText('…[redacted]');
  await expect(headers).toContainText(`"X-Svc-Mini-App": "${session.platform.miniAppId}"`);
  await expect(granted.getByTestId('delivery-payload')).toContainText('"scope": "svc.notifications"');
  await expect(granted.getByTestId('attempt')).toContainText('200');
  await expect(granted.getByTestId('response-body')).toHaveText('{"ok":true}');
  await granted.getByTestId('resend').click();
  const again = page.locator('[data-testid=delivery][data-event="scope.granted"]').first();
  await expect(again.getByTestId('duplicate')).toBeVisible();
  await again.locator('summary').click();
  await expect(again.getByTestId('resend-of')).toContainText('handled it already');
  await expect(page.getByTestId('delivery')).toHaveCount(3);
  await page.getByTestId('delivery-filter').selectOption('scope.revoked');
  await expect(page.locator('[data-testid=delivery]:visible')).toHaveCount(1);
  await expect(page.locator('[data-testid=delivery]:visible')).toHaveAttribute('data-event', 'scope.revoked');
});

test('Team Polls: "Vote" on a card votes; a deleted poll says so; a client-side post clears the warning', async ({
  session,
  page,
  app,
  tab,
}) => {
  await page.getByTestId('open-app').click();
  await app.getByTestId('create').click();
  await page.getByTestId('permission-allow').click();
  const card = page.getByTestId('card').filter({ hasText: 'Lunch?' });
  await card.getByRole('button', { name: 'Vote' }).click();
  await expect(page.getByTestId('app-title')).toHaveText('Poll');
  await expect(app.getByTestId('vote-question')).toHaveText('Lunch?');
  await app.getByTestId('vote-option').filter({ hasText: 'Sushi' }).click();
  await expect(app.getByTestId('vote-option').filter({ hasText: 'Sushi' })).toHaveText('Sushi · 1');
  await expect(app.getByTestId('vote-option').filter({ hasText: 'Sushi' })).toHaveAttribute('aria-pressed', 'true');
  const [poll] = [...session.backend.polls.values()].flat();
  expect(Object.values(poll!.votes)).toEqual(['Sushi']);

  await tab('Agent');
  await page.getByTestId('input-delete_poll-poll_id').fill(poll!.poll_id);
  await page.getByTestId('invoke-user-delete_poll').click();
  await page.getByTestId('action-sheet-yes').click();
  await expect(page.getByTestId('result-delete_poll').locator('pre')).toContainText(poll!.poll_id);
  await card.getByRole('button', { name: 'Vote' }).click();
  await expect(app.getByTestId('status')).toHaveText('This poll was deleted.');

  await page.getByTestId('room-board').click();
  await expect(page.getByTestId('app-where')).toContainText('Board');
  await app.getByTestId('create').click();
  await expect(app.getByTestId('status')).toContainText('end-to-end encrypted');
  await app.getByTestId('send-instead').click();
  await page.getByTestId('permission-allow').click();
  await expect(page.getByTestId('send-card')).toContainText('Pizza · Sushi'); // the card, as a card
  await page.getByTestId('send-sheet-yes').click();
  await expect(app.getByTestId('status')).toHaveText('Poll posted to the room from your client.');
  await expect(app.getByTestId('send-instead')).toBeHidden();
  await expect(page.getByTestId('message').getByTestId('message-card')).toContainText('Lunch?');
  await expect(page.getByTestId('message')).toContainText('Alice via Team Polls');
});

test('when svc dev stops the page says so; after a restart the old tab says to open the new URL', async ({
  session,
  page,
}) => {
  await expect(page.getByTestId('room-title')).toBeVisible();
  const port = Number(new URL(session.platform.origin).port);
  await session.platform.close();
  await expect(page.getByTestId('connection')).toContainText('Disconnected from svc dev');
  const { startDevPlatform } = await import('../../src/dev');
  const again = await startDevPlatform({ dir: session.dir, port });
  try {
    await expect(page.getByTestId('connection')).toContainText('Open the URL svc dev printed', { timeout: 15_000 });
    // Reloaded, the old tab gets a page that says what happened and what to do.
    const reloaded = await page.reload();
    expect(reloaded?.status()).toBe(403);
    await expect(page.getByTestId('stale-tab')).toContainText('This tab belongs to an earlier run of svc dev');
    expect((await fetch(again.url)).status).toBe(200);
  } finally {
    await again.close();
  }
});

test('refusing a scope never granted sends no webhook: nothing was revoked; a grant and its revoke send one each', async ({
  session,
  page,
  app,
  tab,
}) => {
  const events = () =>
    session.platform.state.deliveries.map((d) => `${d.event} ${(d.payload as { scope?: string }).scope}`).sort();
  await page.getByTestId('open-app').click();
  await app.getByTestId('create').click();
  await page.getByTestId('permission-allow').click();
  await expect(page.getByTestId('card')).toContainText('Lunch?');
  await app.getByTestId('remind').click();
  await page.getByTestId('permission-deny').click();
  await tab('Settings');
  await expect(page.getByTestId('permission-svc.notifications')).toHaveAttribute('data-state', 'denied');
  expect(events().filter((e) => e.startsWith('scope.'))).toEqual(['scope.granted svc.room.context']);
  await page.getByTestId('grant-svc.notifications').click();
  await page.getByTestId('revoke-svc.notifications').click();
  await expect
    .poll(() => events().filter((e) => e.startsWith('scope.')))
    .toEqual(['scope.granted svc.notifications', 'scope.granted svc.room.context', 'scope.revoked svc.notifications']);
});

test('the home tile shows the app icon; a poll made in a room the person would not share says why it was not posted', async ({
  page,
  app,
}) => {
  await page.getByTestId('home').click();
  const icon = page.getByTestId('home-tile').getByTestId('tile-icon');
  await expect(icon).toBeVisible();
  // Loaded from the app's origin, not a broken image.
  await expect.poll(() => icon.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await page.getByTestId('room-general').click();
  await page.getByTestId('open-app').click();
  await app.getByTestId('create').click();
  await page.getByTestId('permission-deny').click();
  await expect(app.getByTestId('status')).toHaveText(
    'Poll created, not posted: Polls may not know the room it is opened in. Allow "The room it is opened in" in the settings to post polls.',
  );
});

test('the URL svc dev prints (#app) opens the app at start; a reload keeps it open; Close takes #app out of the URL', async ({
  session,
  page,
  app,
}) => {
  const open = async () => {
    await expect(page.getByTestId('app-where')).toHaveText(/^Opened in .* as Alice$/);
    // The app's first bridge call (svc.ui.setTitle) has reached the messenger.
    await expect(page.getByTestId('app-title')).toHaveText('Polls');
    await expect(app.getByTestId('create')).toBeVisible();
  };
  await loadWithApp(page, session.platform.url);
  await open();
  await page.reload();
  await open();
  expect(new URL(page.url()).hash).toBe('#app');
  await page.getByTestId('app-close').click();
  expect(new URL(page.url()).hash).toBe('');
  // The token stays in the address: a reload is still this run's page, now with the app closed.
  expect(new URL(page.url()).searchParams.get('token')).toBe(new URL(session.platform.url).searchParams.get('token'));
  await page.reload();
  await expect(page.getByTestId('room-title')).toBeVisible();
  await expect(page.getByTestId('app-panel')).toHaveAttribute('inert', '');
  await expect(page.getByTestId('app-where')).toHaveText('');
  // Opened with the button, the app is in the URL again.
  await page.getByTestId('open-app').click();
  await open();
  expect(new URL(page.url()).hash).toBe('#app');
});

test('a person the app cannot be opened for: #app shows why, and leaves the URL', async ({ session, page }) => {
  const alice = session.platform.state.users.find((u) => u.display_name === 'Alice')!;
  await controlFetch(new URL(session.platform.url), 'POST', '/__svc/deprovision', { user_id: alice.id });
  await loadWithApp(page, session.platform.url);
  await expect(page.getByTestId('notice')).toContainText('Alice was removed from the tenant');
  await expect(page.getByTestId('app-panel')).toHaveAttribute('inert', '');
  await expect.poll(() => new URL(page.url()).hash).toBe('');
});

test('a click on a sheet button over the app frame reaches the sheet, even the moment the sheet shows', async ({
  session,
  page,
}) => {
  await loadWithApp(page, session.platform.url);
  await expect(page.getByTestId('app-title')).toHaveText('Polls');
  await page.getByTestId('tab-Settings').click();
  const frame = (await page.getByTestId('app-frame').boundingBox())!;
  // The browser routes a click to the app's frame (a process of its own) by where it last saw that frame; a sheet
  // that showed before the page behind it went inert lost about one click in five made the moment it appeared.
  for (let i = 0; i < 20; i++) {
    await page.evaluate(() => (document.querySelector('[data-testid=reset]') as HTMLElement).click());
    const cancel = page.getByTestId('reset-no');
    await cancel.waitFor();
    const box = (await cancel.boundingBox())!;
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    // The button is over the app's frame, or this case would prove nothing.
    expect(x > frame.x && x < frame.x + frame.width && y > frame.y && y < frame.y + frame.height).toBe(true);
    // At once: no wait for the sheet to be stable, as a fast person or a busy machine gives none.
    await page.mouse.click(x, y);
    await expect(page.getByTestId('reset-sheet')).toHaveCount(0, { timeout: 2000 });
  }
  await expect(page.getByTestId('app-where')).toHaveText(/^Opened in/);
});
