// npm test: everything CI checks, in order, each step a command of its own so a failure names its step.
// Set-up is part of it (the build), so `npm install && npm test` passes on a fresh machine. Each step passes or
// fails by its exit code; the test counts come from the runners' JSON reports (Vitest and Jest's JSON reporters,
// Playwright's JSON reporter, the report files of scripts/examples.mjs), never from their
// human-readable output. It ends with one line, `N passed, N failed`, adding up every runner. The runners print a dot
// a test (failures in full, and each step's time): a CI log short enough to be read whole where only its head is
// kept.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { engineMissing } from '../test/browser/engines/launchEngine.mjs';
import { describeProcessTree, descendantsOf } from './processTree.mjs';

const reports = resolve('.tmp/test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const at = (name) => join(reports, name);

// Vitest's and Jest's JSON reports share these fields.
const jestLike = (json) => ({ passed: json.numPassedTests ?? 0, failed: json.numFailedTests ?? 0 });
const playwright = (json) => ({
  passed: (json.stats?.expected ?? 0) + (json.stats?.flaky ?? 0),
  failed: json.stats?.unexpected ?? 0,
});
// Each browser engine runs when it is installed; in CI every one must run (a missing one then fails its step).
const ci = process.env.CI === 'true';
const missing = Object.fromEntries(
  ['chromium', 'firefox', 'webkit'].map((e) => [e, ci ? undefined : engineMissing(e)]),
);

/** [name, command, environment, reports to read: file name prefix and how to count it]. */
const steps = [
  ['build (svc-sdk and svc-sdk-dev)', 'npm run build --silent -- --silent'],
  ['lint and format (Biome)', 'npx biome check .'],
  ['type-check', 'npx tsc --noEmit -p .'],
  ['no dead code (knip: unused files, exports, dependencies)', 'npx knip --no-progress'],
  ['svc.d.ts is current', 'node scripts/types.mjs --check'],
  // Every rule of Redocly's strict set is an error: a warning fails the step too.
  ['the server API contract lints clean (Redocly, recommended-strict)', 'npm run lint:contract --silent'],
  [
    'unit and integration tests',
    `npx vitest run --no-color --reporter=dot --reporter=./scripts/stallWatch.mjs --reporter=json --outputFile.json=${at('vitest.json')}`,
    {},
    ['vitest.json', jestLike],
  ],
  ['size budget', 'node scripts/size.mjs --check'],
  ['examples (Vitest and Jest)', 'node scripts/examples.mjs', { SVC_TEST_REPORTS: reports }, ['examples-', jestLike]],
  [
    'the mock under Jest (jsdom)',
    `npx jest -c test/jsdom/jest.config.cjs --json --outputFile=${at('jest-jsdom.json')}`,
    {},
    ['jest-jsdom.json', jestLike],
  ],
  // The browser suites: the same case lists in Chromium (@playwright/test, with the messenger's end-to-end specs),
  // Firefox ESR (puppeteer-core over WebDriver BiDi) and WebKitGTK (WebKitWebDriver), and the native WebView bridge
  // in WebKitGTK.
  ...(missing.chromium
    ? []
    : [
        [
          'browser suites in Chromium (Playwright)',
          'npx playwright test --reporter=dot,json',
          { PLAYWRIGHT_JSON_OUTPUT_NAME: at('playwright.json') },
          ['playwright.json', playwright],
        ],
      ]),
  ...['firefox', 'webkit']
    .filter((engine) => !missing[engine])
    .map((engine) => [
      `browser cases in ${engine === 'firefox' ? 'Firefox ESR' : 'WebKitGTK'}`,
      `npx vitest run -c vitest.engines.config.ts --no-color --reporter=dot --reporter=./scripts/stallWatch.mjs --reporter=json --outputFile.json=${at(`engine-${engine}.json`)}`,
      { SVC_ENGINE: engine },
      [`engine-${engine}.json`, jestLike],
    ]),
  ...(missing.native
    ? []
    : [
        [
          'native WebView bridge in WebKitGTK (PyGObject host)',
          `npx vitest run -c vitest.native.config.ts --no-color --reporter=dot --reporter=./scripts/stallWatch.mjs --reporter=json --outputFile.json=${at('native.json')}`,
          {},
          ['native.json', jestLike],
        ],
      ]),
];

for (const [engine, why] of Object.entries(missing)) {
  if (!why) continue;
  const line = '!'.repeat(78);
  console.log(
    `${line}\n!!  SKIPPED: the browser suites will not run in ${engine}: ${why}.\n!!  Cross-origin, hostile-frame and native-bridge behaviour is NOT verified in ${engine} here (CI runs it).\n${line}`,
  );
}

/** Adds up the reports whose file names start with `prefix`; a missing report counts as one failure. */
function read(prefix, count) {
  const files = readdirSync(reports).filter((f) => f.startsWith(prefix));
  if (!files.length) return { passed: 0, failed: 1, missing: true };
  return files
    .map((f) => count(JSON.parse(readFileSync(join(reports, f), 'utf8'))))
    .reduce((a, b) => ({ passed: a.passed + b.passed, failed: a.failed + b.failed }));
}

// A step that runs this long is stuck (the slowest takes a few minutes on a machine of two cores): it is stopped and
// fails, naming the processes it left, well within CI's own limit, which would end the run with nothing said.
const stepLimitMinutes = Number(process.env.SVC_STEP_LIMIT_MINUTES ?? 25);

const run = (name, command, env) =>
  new Promise((done) => {
    const child = spawn(command, { shell: true, stdio: 'inherit', env: { ...process.env, ...env } });
    const limit = setTimeout(async () => {
      const tree = await describeProcessTree(child.pid);
      console.error(
        `\nnpm test: step "${name}" ran past ${stepLimitMinutes} minutes; stopped. Its processes:\n${tree}`,
      );
      for (const { pid } of descendantsOf(child.pid)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
      child.kill('SIGKILL');
    }, stepLimitMinutes * 60_000);
    child.on('close', (status) => {
      clearTimeout(limit);
      done(status ?? 1);
    });
  });

const total = { passed: 0, failed: 0 };
for (const [name, command, env = {}, report] of steps) {
  console.log(`\n== ${name}: ${command}`);
  const started = Date.now();
  const status = await run(name, command, env);
  console.log(`-- ${name}: ${Math.round((Date.now() - started) / 1000)} s`);
  if (report) {
    const { passed, failed, missing } = read(...report);
    if (missing) console.error(`npm test: step "${name}" wrote no report (${report[0]}).`);
    total.passed += passed;
    total.failed += failed;
  }
  if (status !== 0) {
    console.error(`\nnpm test: step "${name}" failed (exit ${status}).`);
    console.log(`${total.passed} passed, ${Math.max(total.failed, 1)} failed`);
    process.exit(status || 1);
  }
}
console.log('\nnpm test: all steps passed.');
console.log(`${total.passed} passed, ${total.failed} failed`);
