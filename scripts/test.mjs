// npm test: everything CI checks, in order, each step a command of its own so a failure names its step.
// Set-up is part of it (the build), so `npm install && npm test` passes on a fresh machine.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const steps = [
  ['build', 'npx tsup --silent'],
  ['type-check', 'npx tsc --noEmit -p .'],
  ['svc.d.ts is current', 'node scripts/types.mjs --check'],
  ['unit and integration tests', 'npx vitest run'],
  ['size budget', 'node scripts/size.mjs --check'],
  ...(existsSync('scripts/examples.mjs') ? [['examples (Vitest and Jest)', 'node scripts/examples.mjs']] : []),
  ...(existsSync('scripts/browser.mjs') ? [['browser suite (Chromium)', 'node scripts/browser.mjs']] : []),
];

for (const [name, command] of steps) {
  console.log(`\n== ${name}: ${command}`);
  const { status } = spawnSync(command, { shell: true, stdio: 'inherit' });
  if (status !== 0) {
    console.error(`\nnpm test: step "${name}" failed (exit ${status}).`);
    process.exit(status || 1);
  }
}
console.log('\nnpm test: all steps passed.');
