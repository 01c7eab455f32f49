import { defineConfig } from 'vitest/config';

// The native WebView bridge in WebKitGTK (test/native): needs Debian's python3-gi, gir1.2-webkit2-4.1 and xvfb, so it
// runs as its own step of npm test, apart from the unit suite.
export default defineConfig({
  test: {
    include: ['test/native/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
