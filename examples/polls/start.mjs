// npm start: Team Polls in the simulated messenger, with its backend, on loopback. Builds the page for the
// backend's address, starts the backend and the local platform (svc-sdk-dev), prints the messenger's URL.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');

/** The newest modification time under `path` (a file or a folder), in ms. */
const newest = (path) => {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
};
// The SDK is built only when its sources changed since the last build: a start with nothing changed takes seconds.
const built = [
  'packages/svc-sdk-dev/dist/index.js',
  'packages/svc-sdk-dev/dist/dev-ui.js',
  'dist/index.js',
  'dist/server.js',
].map((f) => statSync(join(root, f), { throwIfNoEntry: false })?.mtimeMs ?? 0);
const sources = Math.max(
  newest(join(root, 'src')),
  newest(join(root, 'tsup.config.ts')),
  newest(join(root, 'package.json')),
  newest(join(root, 'packages/svc-sdk-dev/package.json')),
);
const started = performance.now();
const took = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
if (Math.min(...built) < sources) {
  // The JavaScript alone: the type declarations are most of a full build's time, and running needs none of them
  // (`npm run build` and `npm test` make both).
  console.error('npm start: building svc-sdk (a fresh clone, or its sources changed since the last build)...');
  // The old JavaScript goes (its chunks are named anew by each build); the type declarations of an earlier full
  // build stay, so that what type-checks against the built svc-sdk (the examples, an editor) still finds them.
  for (const dist of ['dist', 'packages/svc-sdk-dev/dist']) {
    if (!existsSync(join(root, dist))) continue;
    const files = readdirSync(join(root, dist), { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    for (const file of files.filter((f) => !/\.d\.c?ts$/.test(f.name)))
      await rm(join(file.parentPath ?? file.path, file.name), { force: true });
  }
  execSync('npx tsup --silent', { cwd: root, stdio: 'inherit', env: { ...process.env, SVC_BUILD_JS_ONLY: '1' } });
  console.error(`npm start: svc-sdk built in ${took(started)}.`);
}
const { build } = await import('esbuild');
const { APP_OPEN_FRAGMENT, formatDevEvent, startDevPlatform } = await import('svc-sdk-dev');
const { buildPollsApp } = await import('./build.mjs');
// The backend is TypeScript: bundled for Node, svc-sdk left to the package.
await build({
  entryPoints: [join(here, 'server/createPollsBackend.ts')],
  outfile: join(here, 'dist/backend.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  packages: 'external',
  logLevel: 'warning',
});
const { createPollsBackend } = await import(pathToFileURL(join(here, 'dist/backend.mjs')).href);
console.error('npm start: building Team Polls and starting the platform...');

const port = Number(process.env.PORT ?? 4300);
const backendPort = port + 2;
const backendOrigin = `http://127.0.0.1:${backendPort}`;
await buildPollsApp({ api: backendOrigin });
// The state (people, rooms, grants, cards, deliveries) lives in this file between runs (`npm start -- --state
// <file>` names another); --reset starts afresh.
const stateFlag = process.argv.indexOf('--state');
const statePath =
  stateFlag > 0 && process.argv[stateFlag + 1] ? process.argv[stateFlag + 1] : join(here, '.svc-dev.json');
if (process.argv.includes('--reset')) await rm(statePath, { force: true });
const platform = await startDevPlatform({
  dir: here,
  port,
  packagePort: port + 1,
  webhooks: `${backendOrigin}/svc/webhooks`,
  allow: [backendOrigin],
  retryScale: 0.05,
  statePath,
  // One line per launch, webhook attempt, server API call and blocked request, as `svc dev` prints them.
  onEvent: (event) => console.error(formatDevEvent(event)),
  onNotice: (notice) => console.error(`svc dev: ${notice.message}`),
});
const backend = await createPollsBackend({
  apiBase: platform.baseUrl,
  authUrl: platform.authUrl,
  realm: platform.realm,
  audience: platform.audience,
  miniAppId: platform.miniAppId,
  signingSecret: platform.signingSecret,
  // Follows "Rotate secret": the new secret and, during the overlap, the previous one.
  signingSecrets: () => platform.signingSecrets,
  appOrigin: platform.appOrigin,
  port: backendPort,
});
// With #app (APP_OPEN_FRAGMENT) the messenger opens the app at start, as `svc dev`'s URL does.
console.log(`${platform.url}${APP_OPEN_FRAGMENT}`);
console.error(`Team Polls: backend at ${backend.origin}; ready in ${took(started)}. Open the URL above; Ctrl-C stops.`);
// The MCP endpoint and what to paste into an agent (svc-sdk mcp examples/polls finds this platform too).
if (platform.mcpConfigs) console.error(platform.mcpConfigs);
const stop = async () => {
  await backend.close();
  await platform.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
