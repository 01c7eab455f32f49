import { defineConfig } from 'tsup';

// `npm run build` empties dist/ first: the configs below build at the same time, so none of them cleans.
// Each folder under src/ is one entry, and imports go one way: protocol <- rpc <- client | host <- mock,
// protocol <- manifest <- package <- cli, server <- dev (README, "One contract").
const entries = {
  global: 'src/global.ts',
  host: 'src/host/index.ts',
  'host-core': 'src/host/core.ts',
  mock: 'src/mock/index.ts',
  manifest: 'src/manifest/index.ts',
  package: 'src/package/index.ts',
  server: 'src/server/index.ts',
  dev: 'src/dev/index.ts',
};

// `npm start` on a fresh clone builds the JavaScript alone (SVC_BUILD_JS_ONLY=1): the type declarations take most of
// a build's time, and running the example needs none of them. `npm run build` always makes both.
const dts = process.env.SVC_BUILD_JS_ONLY !== '1';

export default defineConfig([
  {
    // The client on its own and in one file: a browser loading the ESM entry fetches one module, not a waterfall of
    // shared chunks (time to ready). `global` imports it by name (external below), so the page has one svc.
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts,
    sourcemap: true,
    target: 'es2022',
    treeshake: true,
    splitting: false,
  },
  {
    entry: entries,
    external: ['svc-sdk'],
    format: ['esm', 'cjs'],
    dts,
    sourcemap: true,
    target: 'es2022',
    treeshake: true,
    splitting: true,
    // import.meta.url in the CommonJS build too (svc-sdk/dev finds its page script beside itself).
    shims: true,
  },
  {
    // The simulated messenger's page script: one browser module with everything it needs bundled in.
    entry: { 'dev-ui': 'src/dev/ui/main.tsx' },
    format: ['esm'],
    // One file (the platform serves dev-ui.js alone): main.ts's dynamic import stays inside it.
    splitting: false,
    platform: 'browser',
    target: 'es2022',
    noExternal: [/.*/],
    sourcemap: true,
  },
  {
    // The script-tag build: defines globalThis.svc, shipped inside the signed package (the CSP forbids remote code).
    // The same target as the ESM entry: the client needs ES2022 at run time anyway (Object.hasOwn, throwIfAborted),
    // and lowering its class fields and `??=` for an older one cost the script tag about 100 bytes brotli for no browser.
    entry: { 'svc.global': 'src/iife.ts' },
    format: ['iife'],
    outExtension: () => ({ js: '.js' }),
    minify: true,
    target: 'es2022',
    sourcemap: true,
  },
  {
    // The native WebView adapter, injected by the native host.
    entry: { 'native-adapter': 'src/native/adapter.ts' },
    format: ['iife'],
    outExtension: () => ({ js: '.js' }),
    minify: true,
    target: 'es2020',
    sourcemap: true,
  },
  {
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    sourcemap: true,
  },
]);
