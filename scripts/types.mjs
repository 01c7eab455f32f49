// Regenerates types/svc.d.ts with api-extractor from dist/index.d.ts (run `npm run build` first).
// `--check` (npm test, CI) fails when the committed file differs from what the code produces, or on any warning,
// so the published contract can never drift from the code.
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const file = resolve(root, 'types/svc.d.ts');
const check = process.argv.includes('--check');
const before = readFileSync(file, 'utf8');

const result = Extractor.invoke(ExtractorConfig.loadFileAndPrepare(resolve(root, 'api-extractor.json')), {
  localBuild: true,
  showVerboseMessages: false,
});
const after = readFileSync(file, 'utf8');
const problems = [];
if (!result.succeeded || result.warningCount > 0)
  problems.push(`api-extractor reported ${result.errorCount} errors and ${result.warningCount} warnings`);
if (check && before !== after) problems.push('types/svc.d.ts was stale; it has been regenerated: review and commit it');
if (problems.length) {
  for (const p of problems) console.error(`types: ${p}.`);
  process.exit(1);
}
console.log(`types: types/svc.d.ts is ${check ? 'current' : 'written'} (${after.split('\n').length} lines).`);
