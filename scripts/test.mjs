// npm test: everything CI checks, in order, each step a command of its own so a failure names its step.
// Set-up is part of it (the build), so `npm install && npm test` passes on a fresh machine. It ends with one line,
// `N passed, N failed`, that adds up the tests of every runner.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const steps = [
  ['build', 'npm run build --silent -- --silent'],
  ['lint and format (Biome)', 'npx biome check .'],
  ['type-check', 'npx tsc --noEmit -p .'],
  ['svc.d.ts is current', 'node scripts/types.mjs --check'],
  ['unit and integration tests', 'npx vitest run'],
  ['size budget', 'node scripts/size.mjs --check'],
  ...(existsSync('scripts/examples.mjs') ? [['examples (Vitest and Jest)', 'node scripts/examples.mjs']] : []),
  ['the mock under Jest (jsdom)', 'npx jest -c test/jsdom/jest.config.cjs'],
  ...(existsSync('scripts/browser.mjs') ? [['browser suite (Chromium)', 'node scripts/browser.mjs']] : []),
  // Playwright specs need Chromium: required in CI, skipped loudly (by the browser suite above) elsewhere.
  ...(existsSync(process.env.CHROMIUM_PATH || '/usr/bin/chromium') || process.env.CI === 'true'
    ? [['Playwright specs (Chromium)', 'npx playwright test']]
    : []),
];

// Closing lines of the runners used: Vitest ("Tests  3 passed | 1 failed (4)"), Jest ("Tests: 1 failed, 3
// passed, 4 total") and the browser suite ("3 passed, 1 failed").
function count(output) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes, which start with ESC
  const text = output.replace(/\x1b\[[0-9;]*m/g, '');
  let passed = 0;
  let failed = 0;
  for (const line of text.split('\n')) {
    // Playwright's list reporter closes with "  3 passed (2.1s)" and, on failure, "  1 failed".
    if (/^\s+\d+ (passed|failed) \(|^\s+\d+ (passed|failed)$/.test(line)) {
      const n = Number(/(\d+)/.exec(line)[1]);
      if (/passed/.test(line)) passed += n;
      else failed += n;
      continue;
    }
    if (!/^\s*Tests:?\s|^\d+ passed, \d+ failed/.test(line)) continue;
    passed += Number(/(\d+) passed/.exec(line)?.[1] ?? 0);
    failed += Number(/(\d+) failed/.exec(line)?.[1] ?? 0);
  }
  return { passed, failed };
}

const run = (command) =>
  new Promise((resolve) => {
    let output = '';
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (process.stdout.write(d), (output += d)));
    child.stderr.on('data', (d) => (process.stderr.write(d), (output += d)));
    child.on('close', (status) => resolve({ status, output }));
  });

const total = { passed: 0, failed: 0 };
for (const [name, command] of steps) {
  console.log(`\n== ${name}: ${command}`);
  const { status, output } = await run(command);
  const { passed, failed } = count(output);
  total.passed += passed;
  total.failed += failed;
  if (status !== 0) {
    console.error(`\nnpm test: step "${name}" failed (exit ${status}).`);
    console.log(`${total.passed} passed, ${Math.max(total.failed, 1)} failed`);
    process.exit(status || 1);
  }
}
console.log('\nnpm test: all steps passed.');
console.log(`${total.passed} passed, ${total.failed} failed`);
