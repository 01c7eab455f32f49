import { defineConfig } from '@playwright/test';

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
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
