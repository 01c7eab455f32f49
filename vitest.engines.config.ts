import { defineConfig } from 'vitest/config';

// The browser cases in Firefox and WebKit (test/browser/engines.test.ts), one engine per run (SVC_ENGINE), apart from
// the unit suite: they need the engines installed and take a minute each.
export default defineConfig({
  test: {
    include: ['test/browser/engines.test.ts', 'test/browser/messengerEngines.test.ts'],
    fileParallelism: false,
    hookTimeout: 60_000,
  },
});
