import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // test/jsdom runs under Jest (its own config), as a Jest user runs the mock.
    // test/native needs Xvfb and WebKitGTK: its own step of npm test (vitest.native.config.ts), one file at a time.
    exclude: ['**/node_modules/**', 'test/browser/**', 'test/jsdom/**', 'test/native/**', 'examples/**'],
    environment: 'node',
    // svc dev's server API answers and webhooks are checked against the published contract as they pass.
    // An absolute path: scripts/examples.mjs runs Vitest with --root examples/<name>, which finds this config too.
    setupFiles: [resolve(import.meta.dirname, 'test/helpers/contractConformance.ts')],
    // No timing assertions live in tests (benchmarks do that); this only stops a hung test early.
    testTimeout: 20_000,
  },
});
