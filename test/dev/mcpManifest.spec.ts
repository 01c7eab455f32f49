// An edited manifest.json reaches everything at once: the MCP tool list (list_changed), the platform's rules and
// the messenger page, which reloads, so a tool added by the edit runs at once in both eras, and after another reload
// of the page too. An edit that does not validate changes nothing, and the page and the terminal say why. The
// official MCP client, the messenger page in Chromium.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { expect, type Page, test } from '@playwright/test';
import { type DevNotice, type DevPlatform, startDevPlatform } from '../../src/dev';
import { connectMcp, openLivePage, resultText, writeMcpTestApp } from './mcpTestApp';

// The app handles both actions from the start; only `echo` is declared until the manifest is edited.
const APP = `
svc.actions.handle('echo', () => ({ echoed: true }));
svc.actions.handle('added', () => ({ added: true }));
`;

let platform: DevPlatform;
let page: Page;
let dir: string;
test.afterEach(async () => {
  await page?.close();
  await platform?.close();
});

for (const [era, negotiation] of [
  ['2025-era', undefined],
  ['2026-07-28', { mode: 'auto' as const }],
] as const)
  test(`${era}: a tool added to manifest.json runs at once, and after the page reloads`, async ({ browser }) => {
    dir = await writeMcpTestApp(
      [{ name: 'echo', title: 'Echo', description: 'Answers at once with { echoed: true }.' }],
      APP,
    );
    platform = await startDevPlatform({ dir, port: 0 });
    page = await openLivePage(browser, platform);
    const changed: string[][] = [];
    const client: Client = await connectMcp(platform, { versionNegotiation: negotiation });
    client.setNotificationHandler('notifications/tools/list_changed', async () => {
      changed.push((await client.listTools()).tools.map((t) => t.name));
    });
    expect((await client.callTool({ name: 'echo', arguments: {} })).structuredContent).toEqual({ echoed: true });

    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    manifest.actions.push({
      ...manifest.actions[0],
      name: 'added',
      title: 'Added',
      description: 'Declared by an edit of manifest.json.',
    });
    manifest.network.connect = ['api.added.example'];
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    // Only a 2025-era session hears list_changed; a 2026 client lists again.
    if (!negotiation) await expect.poll(() => changed.at(-1), { timeout: 5000 }).toContain('added');
    else await expect.poll(async () => (await client.listTools()).tools.map((t) => t.name)).toContain('added');

    expect(platform.manifest?.actions?.map((a) => a.name)).toEqual(['echo', 'added']);
    // The package's pages carry the edited manifest's policy too.
    expect((await fetch(platform.appUrl)).headers.get('content-security-policy')).toContain('api.added.example');
    const added = await client.callTool({ name: 'added', arguments: {} });
    expect(added.isError, resultText(added)).toBeFalsy();
    expect(added.structuredContent).toEqual({ added: true });
    // The reloaded page lists the new action in its agent panel.
    await page.getByTestId('tab-Agent').click();
    await expect(page.getByTestId('action-added')).toBeVisible();

    await page.reload();
    await page.locator('html[data-live]').waitFor({ state: 'attached' });
    expect((await client.callTool({ name: 'added', arguments: {} })).structuredContent).toEqual({ added: true });
    await client.close();
  });

test('an edit that does not validate changes nothing, and the page and the terminal say why, once', async ({
  browser,
}) => {
  dir = await writeMcpTestApp(
    [{ name: 'echo', title: 'Echo', description: 'Answers at once with { echoed: true }.' }],
    APP,
  );
  const notices: DevNotice[] = [];
  platform = await startDevPlatform({ dir, port: 0, onNotice: (n) => void notices.push(n) });
  page = await openLivePage(browser, platform);
  const file = join(dir, 'manifest.json');
  const valid = await readFile(file, 'utf8');
  const manifest = JSON.parse(valid);
  const kinds = () => notices.map((n) => n.kind);

  await writeFile(file, JSON.stringify({ ...manifest, version: '1.0' }));
  await expect.poll(kinds).toEqual(['manifest-invalid']);
  expect(notices[0]!.message).toMatch(/manifest\.json is not a valid manifest:\n {2}\$\.version is not a version/);
  expect(notices[0]!.message).toMatch(/Still serving the last valid manifest\.json/);
  await expect(page.getByTestId('toast').filter({ hasText: '$.version is not a version' })).toBeVisible();
  // The notice above the timeline keeps it while it holds: a toast goes in seconds. A screen reader hears it once,
  // from the notice (a status): the toast is shown, and is no alert.
  await expect(page.getByTestId('notice')).toContainText('$.version is not a version');
  await expect(page.getByRole('status').filter({ hasText: '$.version is not a version' })).toHaveCount(1);
  await expect(page.getByRole('alert').filter({ hasText: '$.version is not a version' })).toHaveCount(0);
  // The toast is in a landmark of its own (axe's best practice: all content in landmarks).
  await expect(
    page
      .getByRole('region', { name: 'Notices' })
      .getByTestId('toast')
      .filter({ hasText: '$.version is not a version' }),
  ).toBeVisible();
  expect(platform.manifest?.version).toBe(manifest.version);
  // The same problem saved again is not said again; the edit undone is said to be valid again.
  await writeFile(file, JSON.stringify({ ...manifest, version: '1.0' }, null, 1));
  await page.waitForTimeout(500);
  expect(kinds()).toEqual(['manifest-invalid']);
  await writeFile(file, valid);
  await expect.poll(kinds).toEqual(['manifest-invalid', 'manifest-edited']);
  expect(notices[1]!.message).toBe('manifest.json is valid again, and the same as the one served.');
  await expect(page.getByTestId('notice')).toBeHidden();
  // A file that is not JSON, then a valid edit, served at once.
  await writeFile(file, '{');
  await expect.poll(kinds).toEqual(['manifest-invalid', 'manifest-edited', 'manifest-invalid']);
  // Said as svc validate says it: where, and what JSON lacks there.
  expect(notices[2]!.message).toMatch(/manifest\.json:1:2 is not valid JSON: /);
  await writeFile(file, JSON.stringify({ ...manifest, version: '1.0.1' }));
  await expect.poll(kinds).toEqual(['manifest-invalid', 'manifest-edited', 'manifest-invalid', 'manifest-edited']);
  expect(platform.manifest?.version).toBe('1.0.1');
});
