import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';

// Entries that exist so far; each folder under src/ is one entry, and imports go one way: protocol <- rpc <- client
// | host <- mock, protocol <- manifest <- cli, server <- dev (README, "One contract").
const entries = Object.fromEntries(
  Object.entries({
    index: 'src/index.ts',
    global: 'src/global.ts',
    host: 'src/host/index.ts',
    mock: 'src/mock/index.ts',
    manifest: 'src/manifest/index.ts',
    server: 'src/server/index.ts',
    dev: 'src/dev/index.ts',
  }).filter(([, file]) => existsSync(file)),
);

export default defineConfig([
  {
    entry: entries,
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    treeshake: true,
    splitting: true,
  },
  {
    // The script-tag build: defines globalThis.svc, shipped inside the signed package (the CSP forbids remote code).
    entry: { 'svc.global': 'src/iife.ts', 'native-adapter': 'src/native/adapter.ts' },
    format: ['iife'],
    outExtension: () => ({ js: '.js' }),
    minify: true,
    target: 'es2020',
    sourcemap: true,
  },
  ...(existsSync('src/cli/main.ts')
    ? [
        {
          entry: { cli: 'src/cli/main.ts' },
          format: ['esm' as const],
          platform: 'node' as const,
          target: 'node20',
          banner: { js: '#!/usr/bin/env node' },
          sourcemap: true,
        },
      ]
    : []),
]);
