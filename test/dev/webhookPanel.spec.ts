// The webhook panel in Chromium: "Send a test event" delivers the contract's example about the person using the
// messenger, and a 401 during a secret rotation's overlap is explained (the backend may hold only the old secret).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../src/server';
import { writeAppDir } from './appDir';
import { expect, test } from './messengerTest';

let backend: Server;
/** The secrets the backend verifies with: set from the platform at start, as a backend reads its env file once. */
let secrets: string[] = [];

test.beforeAll(async () => {
  backend = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    try {
      await verifyWebhook({ body, headers: req.headers }, { secrets });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    } catch (error) {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: (error as Error).message }));
    }
  });
  await new Promise<void>((ok) => backend.listen(0, '127.0.0.1', ok));
});
test.afterAll(async () => {
  await new Promise((ok) => backend.close(ok));
});

test('sends a test event about the person using the messenger, and explains a 401 during a rotation', async ({
  messenger,
}) => {
  const { platform, page } = await messenger({
    dir: await writeAppDir(),
    port: 0,
    webhooks: `http://127.0.0.1:${(backend.address() as AddressInfo).port}/hooks`,
    retryScale: 0.001,
  });
  secrets = [platform.signingSecret];
  await page.getByTestId('tab-Webhooks').click();
  await page.getByTestId('test-event').selectOption('user.deprovisioned');
  await page.getByTestId('send-test-event').click();
  const first = page.locator('[data-testid=delivery][data-event="user.deprovisioned"]');
  await expect(first).toHaveAttribute('data-state', 'delivered');
  const alice = platform.state.users.find((u) => u.id === 'alice')!;
  expect(platform.state.deliveries.at(-1)!.payload).toMatchObject({
    event: 'user.deprovisioned',
    app_user_id: alice.app_user_id,
    tenant_id: alice.tenant_id,
  });
  // Nobody left the tenant: a test event changes nothing else.
  expect(platform.state.users.every((u) => !u.deprovisioned)).toBe(true);

  await platform.rotateSecret();
  await page.getByTestId('test-event').selectOption('scope.granted');
  await page.getByTestId('send-test-event').click();
  const refused = page.locator('[data-testid=delivery][data-event="scope.granted"]');
  await expect(refused).toHaveAttribute('data-state', 'failed');
  await refused.locator('summary').click();
  await expect(refused.getByTestId('overlap-401').first()).toContainText(
    'your backend may hold only the old secret: give it both',
  );

  // Given both, as the rewritten env file has them, the backend accepts the same event sent again.
  secrets = platform.signingSecrets;
  await refused.getByTestId('resend').click();
  await expect(page.locator('[data-testid=delivery][data-event="scope.granted"][data-state="delivered"]')).toHaveCount(
    1,
  );
  await expect(page.locator('[data-testid=delivery][data-state="delivered"] [data-testid=overlap-401]')).toHaveCount(0);
});

test('sends every failed delivery again with one button, which then goes away', async ({ messenger }) => {
  const { platform, page } = await messenger({
    dir: await writeAppDir(),
    port: 0,
    webhooks: `http://127.0.0.1:${(backend.address() as AddressInfo).port}/hooks`,
    retryScale: 0.001,
  });
  // A backend that holds no secret refuses everything, as one that is down would.
  secrets = [];
  await page.getByTestId('tab-Webhooks').click();
  // Started with --webhooks: not told to start with it (paths46 F8).
  await expect(
    page.getByText(/^No webhook yet: the platform sends them to http:\/\/127\.0\.0\.1:\d+\/hooks as/),
  ).toBeVisible();
  await page.getByTestId('test-event').selectOption('scope.granted');
  await page.getByTestId('send-test-event').click();
  await page.getByTestId('send-test-event').click();
  await expect(page.locator('[data-testid=delivery][data-state="failed"]')).toHaveCount(2);
  const button = page.getByTestId('resend-failed');
  await expect(button).toHaveText('Send the 2 failed ones again');
  secrets = [platform.signingSecret];
  await button.click();
  await expect(page.locator('[data-testid=delivery][data-state="delivered"]')).toHaveCount(2);
  await expect(page.getByTestId('resend-of')).toHaveCount(2);
  await expect(button).toHaveCount(0);
});

test('without a webhook URL, the test event cannot be sent and the panel says how to give one', async ({
  messenger,
}) => {
  const { page } = await messenger({ dir: await writeAppDir(), port: 0 });
  await page.getByTestId('tab-Webhooks').click();
  await expect(page.getByTestId('send-test-event')).toBeDisabled();
  await expect(page.getByText('No webhook yet (start svc dev with --webhooks <url>).')).toBeVisible();
});
