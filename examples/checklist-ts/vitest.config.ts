import { defineConfig } from 'vitest/config';

// Vitest for the same tests: the jsdom environment, and Jest-style globals so one test file serves both runners.
export default defineConfig({ test: { environment: 'jsdom', globals: true } });
