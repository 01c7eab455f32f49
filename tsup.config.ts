import { readFile, writeFile } from 'node:fs/promises';
import { defineConfig, type Options } from 'tsup';
import devPackage from './packages/svc-sdk-dev/package.json' with { type: 'json' };

// `npm run build` empties dist/ and packages/svc-sdk-dev/dist/ first: the configs below build at the same time, so
// none of them cleans. Each folder under src/ is one entry, and imports go one way: protocol <- rpc <- client |
// host <- mock, protocol <- manifest <- package <- cli, server <- dev (README, "One contract").
// Two packages come out (docs/decisions.md, "Two packages"): svc-sdk (dist/) is what a mini app and its backend
// install; svc-sdk-dev (packages/svc-sdk-dev/dist/) is the dev platform, the MCP bridge and the CLI's heavy commands,
// built from the same sources (src/dev, src/cli), which stay where they are.
const DEV_DIST = 'packages/svc-sdk-dev/dist';
// svc-sdk-dev's dependencies stay imports (npm installs them with it); tsup would bundle them otherwise, since the
// root package.json lists them as devDependencies.
const devExternal = Object.keys(devPackage.dependencies);
/** What svc-sdk-dev's bin bundles of them (the library, `startDevPlatform`, imports them all). */
const BUNDLED_IN_BIN = [
  'hono',
  '@hono/node-server',
  'zod',
  'jose',
  '@cfworker/json-schema',
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/node',
  'range-parser',
  'p-limit',
];
const entries = {
  global: 'src/global.ts',
  host: 'src/host/index.ts',
  'host-core': 'src/host/core.ts',
  mock: 'src/mock/index.ts',
  manifest: 'src/manifest/index.ts',
  package: 'src/package/index.ts',
  server: 'src/server/index.ts',
};

// `npm start` on a fresh clone builds the JavaScript alone (SVC_BUILD_JS_ONLY=1): the type declarations take most of
// a build's time, and running the example needs none of them. `npm run build` always makes both.
const dts = process.env.SVC_BUILD_JS_ONLY !== '1';

/**
 * Leaves each built file one source-map comment. With `treeshake`, tsup 8.5 runs the chunk through Rollup, whose
 * output already ends with `//# sourceMappingURL=`, and then appends its own: every library file pointed at its map
 * twice. The two are the same line, so the first goes; the map itself is right (its mappings lead to src/).
 */
const oneSourceMapComment: NonNullable<Options['plugins']>[number] = {
  name: 'one-source-map-comment',
  async buildEnd({ writtenFiles }) {
    for (const { name } of writtenFiles) {
      if (!/\.c?js$/.test(name)) continue;
      const code = await readFile(name, 'utf8');
      const once = code.replace(/\n(\/\/# sourceMappingURL=[^\n]*)\n\1$/, '\n$1');
      if (once !== code) await writeFile(name, once);
    }
  },
};

/** What every library entry shares: ESM and CommonJS with declarations, for the same target. */
const library = {
  format: ['esm', 'cjs'],
  dts,
  sourcemap: true,
  target: 'es2022',
  // Rollup tree-shakes each file with the others as externals, and kept esbuild's bare `import './chunk-….js'` lines
  // (an external may have side effects). package.json says the chunks have none, so bundlers dropped those lines
  // anyway, and esbuild (Vite's dependency optimizer too) warned about each one to everyone who bundled svc-sdk/host.
  treeshake: { moduleSideEffects: (id: string, external: boolean) => !(external && /^\.\/chunk-/.test(id)) },
  plugins: [oneSourceMapComment],
} satisfies Options;

/** What every classic script shares (the script tag, the native adapter): one minified file, `.js`. */
const script = {
  format: ['iife'],
  outExtension: () => ({ js: '.js' }),
  minify: true,
  sourcemap: true,
} satisfies Options;

export default defineConfig([
  {
    // The client on its own and in one file: a browser loading the ESM entry fetches one module, not a waterfall of
    // shared chunks (time to ready). `global` imports it by name (external below), so the page has one svc.
    entry: { index: 'src/index.ts' },
    ...library,
    splitting: false,
  },
  {
    entry: entries,
    external: ['svc-sdk'],
    ...library,
    splitting: true,
  },
  {
    // svc-sdk-dev's library: what `svc-sdk/dev` exported before the split (startDevPlatform and its types).
    entry: { index: 'src/dev/index.ts' },
    outDir: DEV_DIST,
    external: devExternal,
    ...library,
    splitting: true,
    // import.meta.url in the CommonJS build too (svc-sdk-dev finds its page script beside itself).
    shims: true,
  },
  {
    // The simulated messenger's page script: one browser module with everything it needs bundled in.
    entry: { 'dev-ui': 'src/dev/messenger/main.tsx' },
    outDir: DEV_DIST,
    format: ['esm'],
    // One file (the platform serves dev-ui.js alone): main.tsx's dynamic import stays inside it.
    splitting: false,
    platform: 'browser',
    target: 'es2022',
    noExternal: [/.*/],
    // Minified: the browser parses a third of the bytes before the page is ready (the source map keeps it readable).
    minify: true,
    sourcemap: true,
  },
  {
    // The script-tag build: defines globalThis.svc, shipped inside the signed package (the CSP forbids remote code).
    // The same target as the ESM entry: the client needs ES2022 at run time anyway (Object.hasOwn, throwIfAborted),
    // and lowering its class fields and `??=` for an older one cost the script tag about 100 bytes brotli for no browser.
    entry: { 'svc.global': 'src/iife.ts' },
    ...script,
    target: 'es2022',
  },
  {
    // The native WebView adapter, injected by the native host.
    entry: { 'native-adapter': 'src/native/adapter.ts' },
    ...script,
    target: 'es2020',
  },
  {
    // svc-sdk's bin: the light commands, with @babel/parser bundled in (validate names the line and column where a
    // JSON file breaks); svc-sdk-dev is loaded at run time for the others, when it is installed.
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    external: ['svc-sdk-dev'],
    noExternal: ['@babel/parser'],
    banner: { js: '#!/usr/bin/env node' },
    // Its map without the sources' text (with @babel/parser's it weighed 1.6 MB, a tenth of the install budget): it is
    // read for the third-party notices, then left out of dist/ (scripts/dropMaps.mjs), as it would name only files
    // no install has.
    sourcemap: true,
    esbuildOptions(options) {
      options.sourcesContent = false;
    },
  },
  {
    // svc-sdk-dev's bin (`svc-sdk-dev`, every command) and the command line svc-sdk's bin hands the others to
    // (`svc-sdk-dev/cli`).
    entry: { cli: 'src/cli/devMain.ts', 'run-cli': 'src/cli/runCli.ts' },
    outDir: DEV_DIST,
    // The platform's dependencies bundled in (time to `svc dev`'s URL): Node resolves and reads one file instead of
    // about 200 (zod alone is 100), and only what the CLI uses is parsed. The MCP server SDK too, in its own lazy
    // chunk, so it shares that zod and hono instead of loading a second copy on the first /mcp request. The rest
    // (the MCP client of `svc mcp`, check's parser and globs, pack's wbn) stays imports: each is loaded by its command.
    external: devExternal.filter((name) => !BUNDLED_IN_BIN.includes(name)),
    noExternal: BUNDLED_IN_BIN,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    sourcemap: true,
  },
]);
