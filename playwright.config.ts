import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './scripts/chromiumArgs.mjs';

// The browser suites: Debian's Chromium (browser downloads are not possible here), headless, pages on loopback.
// CHROMIUM_PATH overrides the executable.
export default defineConfig({
  testDir: 'test',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
  timeout: 30_000,
  reporter: process.env.PW_REPORTER ?? 'list',
  use: {
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
});
