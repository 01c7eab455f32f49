// An app whose name is as long as the manifest allows, in scripts of both directions: the messenger's room header keeps
// the room's title readable beside the app's button at every window width the four columns show (paths46 F1: at
// 1400 px the title "# General" was squeezed to one letter a line).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../scripts/chromiumArgs.mjs';
import { startDevPlatform } from '../../src/dev';
import { writeAppDir } from './appDir';

test.use({ launchOptions: { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS } });

test("a long app name is cut on its button, and the room's title keeps its width", async ({ page }) => {
  const name = 'Team Polls and Surveys for the Room — Опросы для всех مشروع';
  const dir = await writeAppDir((m) => {
    m.name = name;
    m.short_name = 'Polls';
  });
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>app</title><p>app</p>');
  const platform = await startDevPlatform({ dir, port: 0, mcp: false });
  try {
    await page.goto(platform.url);
    await page.getByTestId('room-general').click();
    // Its whole name stays the button's name for assistive technology; the eye gets it cut.
    await expect(page.getByTestId('open-app')).toHaveText(`Open ${name}`);
    for (const width of [1024, 1280, 1400, 1600]) {
      await page.setViewportSize({ width, height: 800 });
      const layout = await page.evaluate(() => {
        const title = document.querySelector('[data-testid=room-title]')!.getBoundingClientRect();
        const button = document.querySelector('[data-testid=open-app]')!.getBoundingClientRect();
        return {
          titleHeight: Math.round(title.height),
          titleWide: title.width > 80,
          buttonHeight: Math.round(button.height),
        };
      });
      // One line each: the title's 16 px type, the button's text on one line.
      expect(layout.titleWide, `${width} px`).toBe(true);
      expect(layout.titleHeight, `${width} px`).toBeLessThan(30);
      expect(layout.buttonHeight, `${width} px`).toBeLessThan(45);
    }
  } finally {
    await platform.close();
  }
});

test("an action's title and description in a right-to-left script are laid out right to left in the Agent tab", async ({
  page,
}) => {
  const dir = await writeAppDir((m) => {
    const actions = m.actions as { title: string; description: string }[];
    actions[0]!.title = 'عرض الاستطلاعات';
    actions[0]!.description = 'يعرض كل الاستطلاعات المفتوحة في الغرفة الحالية للمستخدم.';
  });
  const platform = await startDevPlatform({ dir, port: 0, mcp: false });
  try {
    await page.goto(platform.url);
    await page.getByTestId('tab-Agent').click();
    const title = page.locator('.action-title', { hasText: 'عرض الاستطلاعات' }).first();
    await expect(title).toBeVisible();
    expect(await title.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    const description = page.locator('p.note', { hasText: 'يعرض كل الاستطلاعات' }).first();
    expect(await description.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  } finally {
    await platform.close();
  }
});
