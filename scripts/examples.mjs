// Runs every example's tests against the built package (npm test builds first): Vitest (node and happy-dom
// environments) for each example with tests, and Jest in CommonJS and ESM for those with a jest.config.cjs.
// Exits non-zero on the first failure, naming the example and the runner.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

if (!existsSync('dist/mock.js') || !existsSync('dist/mock.cjs')) {
  console.error('examples: dist/mock.* is missing; run `npx tsup` first (npm test does).');
  process.exit(1);
}

// With SVC_TEST_REPORTS (npm test sets it), each run also writes its JSON report there, for npm test's count.
const reports = process.env.SVC_TEST_REPORTS;
const report = (kind, name) =>
  !reports
    ? ''
    : kind === 'vitest'
      ? ` --reporter=json --outputFile.json=${join(reports, `examples-${name}-vitest.json`)}`
      : ` --json --outputFile=${join(reports, `examples-${name}-jest.json`)}`;
const runs = [];
for (const name of readdirSync('examples').sort()) {
  const dir = join('examples', name);
  if (!existsSync(join(dir, 'test'))) continue;
  runs.push([`${name}: vitest`, `npx vitest run --root ${dir} --reporter=dot${report('vitest', name)}`]);
  if (existsSync(join(dir, 'jest.config.cjs')))
    // --experimental-vm-modules lets Jest load the .mjs tests as ESM; the .cjs tests run as CommonJS alongside.
    runs.push([
      `${name}: jest (cjs + esm)`,
      `node --experimental-vm-modules --no-warnings node_modules/jest/bin/jest.js -c ${dir}/jest.config.cjs${report('jest', name)}`,
    ]);
}

const started = Date.now();
for (const [label, command] of runs) {
  console.log(`\n-- ${label}: ${command}`);
  const { status } = spawnSync(command, { shell: true, stdio: 'inherit' });
  if (status !== 0) {
    console.error(`\nexamples: "${label}" failed (exit ${status}).`);
    process.exit(status || 1);
  }
}
console.log(`\nexamples: ${runs.length} runs passed in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
