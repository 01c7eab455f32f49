import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // test/jsdom runs under Jest (its own config), as a Jest user runs the mock.
    exclude: ['**/node_modules/**', 'test/browser/**', 'test/jsdom/**', 'examples/**'],
    environment: 'node',
    // svc dev's server API answers and webhooks are checked against the published contract as they pass.
    setupFiles: ['test/helpers/contractConformance.ts'],
    // No timing assertions live in tests (benchmarks do that); this only stops a hung test early.
    testTimeout: 20_000,
  },
});
