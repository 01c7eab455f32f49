// The browser suite (test/browser): Debian's Chromium driven by playwright-core, pages served from loopback.
// Chromium is /usr/bin/chromium or $CHROMIUM_PATH. Without one: a loud SKIPPED and exit 0, except in CI
// (CI=true), where a missing browser is a failure. `node scripts/browser.mjs <text>` runs the tests whose names
// contain <text>. Ends with `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SUITE_LIMIT_MS = 180_000;
// npm test counts from this report (SVC_TEST_REPORTS), not from the closing line.
const report = (counts) => {
  if (process.env.SVC_TEST_REPORTS)
    writeFileSync(join(process.env.SVC_TEST_REPORTS, 'browser.json'), JSON.stringify(counts));
};

if (!existsSync(executablePath)) {
  const why = `no Chromium at ${executablePath} (install Debian's: apt-get install -y chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI === 'true') {
    console.error(`browser suite: FAILED: ${why}. In CI the browser suite is required.`);
    console.log('0 passed, 1 failed');
    report({ passed: 0, failed: 1 });
    process.exit(1);
  }
  const line = '!'.repeat(78);
  console.log(
    `${line}\n!!  SKIPPED: the browser suite did not run: ${why}.\n!!  Cross-origin, hostile-frame and MessagePort behaviour is NOT verified on this machine.\n${line}`,
  );
  console.log('0 passed, 0 failed, 1 skipped');
  report({ passed: 0, failed: 0, skipped: 1 });
  process.exit(0);
}

if (!existsSync(resolve(root, 'dist/host.js')) || !existsSync(resolve(root, 'dist/svc.global.js'))) {
  console.log('browser suite: dist/ is missing; building with tsup');
  if (spawnSync('npx tsup --silent', { shell: true, stdio: 'inherit', cwd: root }).status !== 0) process.exit(1);
}

// A hard bound on the whole suite, whatever hangs (every wait inside has its own timeout too).
const killer = setTimeout(() => {
  console.error(`browser suite: still running after ${SUITE_LIMIT_MS / 1000} s; aborting.`);
  console.log('0 passed, 1 failed');
  report({ passed: 0, failed: 1 });
  process.exit(1);
}, SUITE_LIMIT_MS);
killer.unref();

const started = Date.now();
const { run } = await import('../test/browser/suite.mjs');
let result;
try {
  result = await run({ executablePath, filter: process.argv[2] });
} catch (e) {
  console.error('browser suite: could not run:', e?.stack ?? e);
  result = { passed: 0, failed: 1, skipped: 0 };
}
const { passed, failed, skipped } = result;
report({ passed, failed, skipped });
console.log(`\nbrowser suite: ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
