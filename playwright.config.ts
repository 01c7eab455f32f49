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
  // In CI a failed spec runs once more, and the report names it flaky: two messenger specs lose a click on a sheet
  // about once in 50 runs under load (the closing note of issue 25 names them), which must not fail a submission
  // while they are found. A spec that fails twice still fails.
  retries: process.env.CI === 'true' ? 1 : 0,
  reporter: process.env.PW_REPORTER ?? 'list',
  use: {
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
});
