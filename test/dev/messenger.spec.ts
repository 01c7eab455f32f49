// The simulated messenger end to end, in Chromium, driven as a person would: Team Polls (examples/polls) with its
// real backend, on the local platform. Each step checks what the person sees and what the backend received.
import type { Page } from '@playwright/test';
import type { DevPlatform } from '../../src/dev';
import type { PollsBackend } from '../../examples/polls/server/createPollsBackend';
import { expect, test } from './messengerTest';
import { type PollsSession, startPollsBackend } from './pollsSession';

let session: PollsSession;
let platform: DevPlatform;
let backend: PollsBackend;
let page: Page;

test.describe.configure({ mode: 'serial' });

// A copy of the example built for its backend's free port, the platform, then the backend (the order npm start
// uses): one session for the file, its steps in order.
test.use({ sharedSessionOptions: { viewport: { width: 1500, height: 860 } } });
test.beforeEach(({ sharedSession }) => {
  session = sharedSession;
  ({ platform, backend, page } = session);
});

const app = () => page.frameLocator('[data-testid=app-frame]');
const tab = (name: string) => page.getByTestId(`tab-${name}`).click();

test('launches in the plain room; a poll created in the app is posted by the backend as a card', async () => {
  await page.getByTestId('room-general').click();
  await page.getByTestId('open-app').click();
  await expect(page.getByTestId('app-title')).toHaveText('Polls'); // svc.ui.setTitle
  await app().getByTestId('create').click();
  // The permission sheet shows the manifest's purpose; the person allows.
  await expect(page.getByTestId('permission-sheet')).toContainText('Know which room a new poll belongs to.');
  await page.getByTestId('permission-allow').press('Enter');
  await expect(app().getByTestId('status')).toHaveText('Poll posted to the room.');
  // The page gives the focus back to the app's frame, and the app to its button (the browser forgets which control
  // in the frame had it).
  await expect(app().getByTestId('create')).toBeFocused();
  await expect(page.getByTestId('card')).toContainText('Lunch?');
  expect(platform.cards('general')).toHaveLength(1);
});

test('reminders: the notifications sheet, the backend checks the installation and notifies, the deep link opens the route', async () => {
  await app().getByTestId('remind').click();
  await expect(page.getByTestId('permission-sheet')).toContainText('Remind you when a poll you voted in closes.');
  // One scope, named once for the person and once for the developer, with how the two names relate.
  await expect(page.getByTestId('permission-sheet')).toContainText('Polls asks for: Notifications');
  await expect(page.getByTestId('permission-sheet')).toContainText(
    "svc.notifications in the manifest, asked for as 'notifications' in the app",
  );
  await page.getByTestId('permission-allow').click();
  await expect(app().getByTestId('status')).toHaveText('Reminders on.');
  await tab('Notifications');
  const note = page.getByTestId('notification').first();
  await expect(note).toContainText('Reminders on');
  await note.getByRole('button').click();
  await expect(page.getByTestId('app-title')).toHaveText('Poll'); // launched at the declared route /poll
  await expect(app().getByTestId('status')).toContainText('Poll ');
  await tab('Agent');
});

test('in the encrypted room the backend explains the 409, and the person posts from their own client', async () => {
  await page.getByTestId('room-board').click();
  await page.getByTestId('open-app').click();
  await app().getByTestId('create').click();
  await expect(app().getByTestId('status')).toContainText('end-to-end encrypted');
  await app().getByTestId('send-instead').click();
  await page.getByTestId('permission-allow').click(); // room.send
  await expect(page.getByTestId('send-sheet')).toContainText('Poll: Lunch?');
  await page.getByTestId('send-sheet-yes').click();
  await expect(page.getByTestId('message')).toContainText('Poll: Lunch?');
  expect(platform.cards('board')).toHaveLength(0);
});

test('the agent panel creates a poll as an agent, and a destructive action asks for confirmation', async () => {
  await page.getByTestId('room-general').click();
  await page.getByTestId('open-app').click();
  await tab('Agent');
  await page.getByTestId('input-create_poll-question').fill('Team dinner?');
  await page.getByTestId('input-create_poll-options').fill('Thai\nTapas');
  await page.getByTestId('invoke-agent-create_poll').click();
  await expect(page.getByTestId('result-create_poll')).toContainText('poll_id');
  await expect(page.getByTestId('card')).toHaveCount(2);
  const pollId = JSON.parse((await page.getByTestId('result-create_poll').locator('pre').textContent()) ?? '{}')
    .poll_id as string;
  const [polls] = [...backend.polls.values()];
  expect(polls?.find((p) => p.poll_id === pollId)?.created_by).toBe('agent'); // the token carried act.sub
  await page.getByTestId('input-delete_poll-poll_id').fill(pollId);
  await page.getByTestId('invoke-agent-delete_poll').click();
  await expect(page.getByTestId('action-sheet')).toContainText('destructive');
  // A destructive choice starts on the declining button, and says it is destructive when it opens.
  await expect(page.getByTestId('action-sheet-no')).toBeFocused();
  await expect(page.getByTestId('action-sheet')).toHaveAccessibleDescription(/This action is destructive\./);
  await expect(page.getByTestId('action-sheet-yes')).toHaveClass(/danger/);
  await page.getByTestId('action-sheet-yes').click();
  await expect(page.getByTestId('result-delete_poll')).toContainText(pollId);
});

test('an action without options elicits them from the person through a form built from the schema', async () => {
  await tab('Agent');
  await page.getByTestId('input-create_poll-question').fill('Offsite venue?');
  await page.getByTestId('input-create_poll-options').fill('');
  await page.getByTestId('invoke-agent-create_poll').click();
  await expect(page.getByTestId('elicit-sheet')).toContainText('Which options should "Offsite venue?" offer?');
  await page.getByTestId('elicit-field').fill('Lisbon\nPorto');
  await page.getByTestId('elicit-submit').click();
  await expect(page.getByTestId('result-create_poll')).toContainText('poll_id');
  await expect(page.getByTestId('progress-create_poll')).toContainText('Asking for the answer options');
  await expect(page.getByTestId('card').filter({ hasText: 'Offsite venue?' })).toContainText('Lisbon · Porto');
});

test('the call log shows every bridge call, tokens redacted', async () => {
  await tab('Calls');
  const rows = page.getByTestId('call-row');
  await rows.filter({ hasText: 'auth.getToken' }).first().getByRole('button', { name: 'auth.getToken' }).click();
  await expect(page.getByTestId('call-result').first()).toContainText('[redacted]');
  await expect(rows.filter({ hasText: 'permissions.request' }).first()).toBeVisible();
  expect(await page.getByTestId('call-log').textContent()).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
});

test('a person of another tenant is another app user', async () => {
  await tab('Calls');
  const before = await page.locator('[data-testid=call-row][data-method="identity.get"]').count();
  await tab('Settings');
  await page.getByTestId('user').selectOption('carol');
  await expect(page.getByTestId('app-where')).toContainText('as Carol'); // relaunched as Carol
  await tab('Calls');
  await expect(page.locator('[data-testid=call-row][data-method="identity.get"]')).toHaveCount(before + 1);
  await page.getByTestId('call-filter').fill('identity.get');
  await page.getByRole('button', { name: 'identity.get' }).first().click();
  await expect(page.getByTestId('call-result').first()).toContainText('au-carol');
  await expect(page.getByTestId('call-result').first()).toContainText('globex');
  await page.getByTestId('call-filter').fill('');
  await tab('Settings');
  await page.getByTestId('user').selectOption('alice');
  await expect(page.getByTestId('app-where')).toContainText('as Alice');
});

test('a request outside the manifest network is blocked, and the log says which host to add', async () => {
  const outcome = await app()
    .locator('body')
    .evaluate(() =>
      fetch('https://tracker.example/pixel').then(
        () => 'reached',
        () => 'blocked',
      ),
    );
  expect(outcome).toBe('blocked');
  await tab('Blocked');
  await expect(page.getByTestId('blocked')).toHaveCount(1);
  await expect(page.getByTestId('blocked').first()).toContainText('add "tracker.example" to network.connect');
});

test('WebAssembly the app compiles is blocked, and the log says a mini app runs none', async () => {
  const outcome = await app()
    .locator('body')
    .evaluate(() =>
      WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(
        () => 'compiled',
        (e: Error) => e.name,
      ),
    );
  expect(outcome).toBe('CompileError');
  await tab('Blocked');
  await expect(page.getByTestId('blocked').filter({ hasText: 'compiled WebAssembly' })).toContainText(
    "which a mini app's policy never allows",
  );
});

test('the theme reaches the app, and follows the system while it is "System"', async () => {
  await tab('Settings');
  const theme = page.getByTestId('theme');
  await expect(theme).toHaveValue('system');
  await theme.selectOption('dark');
  await expect(app().locator('body')).toHaveAttribute('data-theme', 'dark');
  await theme.selectOption('light');
  await expect(app().locator('body')).toHaveAttribute('data-theme', 'light');
  // A person whose system is dark sees the page and the app dark, and both follow the system when it changes.
  await page.emulateMedia({ colorScheme: 'dark' });
  await theme.selectOption('system');
  await expect(theme.locator('option[value=system]')).toHaveText('System (dark)');
  await expect(page.locator('body')).toHaveClass(/dark/);
  await expect(app().locator('body')).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('body')).not.toHaveClass(/dark/);
  await expect(app().locator('body')).toHaveAttribute('data-theme', 'light');
  // A launch on a dark system starts dark.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByTestId('app-reload').click();
  await expect(app().locator('body')).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(app().locator('body')).toHaveAttribute('data-theme', 'light');
});

test('revoking a scope and uninstalling send webhooks the backend verifies', async () => {
  await tab('Settings');
  await page.getByTestId('revoke-svc.room.context').click();
  await page.getByTestId('uninstall').click();
  await page.getByTestId('uninstall-sheet-yes').click();
  await tab('Webhooks');
  await expect(page.locator('[data-testid=delivery][data-event="scope.revoked"][data-state=delivered]')).toHaveCount(1);
  await expect(
    page.locator('[data-testid=delivery][data-event="installation.deleted"][data-state=delivered]'),
  ).toHaveCount(1);
  await tab('Settings');
  await page.getByTestId('install').click();
});

test('with the backend stopped, deliveries are retried with backoff; "send again" delivers once it is back', async () => {
  const port = Number(new URL(backend.origin).port);
  await backend.close();
  await tab('Settings');
  await page.getByTestId('revoke-svc.notifications').click();
  await tab('Webhooks');
  const granted = page.locator('[data-testid=delivery][data-event="scope.revoked"]').first();
  // Six attempts in all (retry delays scaled down for the test), each one logged, then the delivery fails.
  await expect(granted).toHaveAttribute('data-state', 'failed', { timeout: 15_000 });
  await granted.locator('summary').click();
  await expect(granted.getByTestId('attempt')).toHaveCount(6);
  backend = await startPollsBackend(platform, port);
  session.backend = backend;
  await granted.getByTestId('resend').click();
  await expect(page.locator('[data-testid=delivery][data-event="scope.granted"]').first()).toHaveAttribute(
    'data-state',
    'delivered',
  );
});
