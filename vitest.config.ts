import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/browser/**', 'examples/**'],
    environment: 'node',
    // No timing assertions live in tests (benchmarks do that); this only stops a hung test early.
    testTimeout: 20_000,
  },
});
