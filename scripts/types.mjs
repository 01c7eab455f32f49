// Regenerates types/svc.d.ts with api-extractor from dist/index.d.ts (run `npm run build` first), and
// types/svc.d.cts, the same declarations for the `require` condition: under "type": "module" a `.d.ts` declares an
// ES module, so TypeScript refused `require('svc-sdk')`'s types in a CommonJS file (`"module": "node16"`).
// `--check` (npm test, CI) fails when a committed file differs from what the code produces, or on any warning,
// so the published contract can never drift from the code.
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const file = resolve(root, 'types/svc.d.ts');
const cjsFile = resolve(root, 'types/svc.d.cts');
const check = process.argv.includes('--check');
const read = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};
const before = read(file);
const cjsBefore = read(cjsFile);

const result = Extractor.invoke(ExtractorConfig.loadFileAndPrepare(resolve(root, 'api-extractor.json')), {
  localBuild: true,
  showVerboseMessages: false,
});
const after = readFileSync(file, 'utf8');
writeFileSync(cjsFile, after);
const problems = [];
if (!result.succeeded || result.warningCount > 0)
  problems.push(`api-extractor reported ${result.errorCount} errors and ${result.warningCount} warnings`);
if (check && (before !== after || cjsBefore !== after))
  problems.push('types/svc.d.ts or types/svc.d.cts was stale; both have been regenerated: review and commit them');
if (problems.length) {
  for (const p of problems) console.error(`types: ${p}.`);
  process.exit(1);
}
console.log(
  `types: types/svc.d.ts and types/svc.d.cts are ${check ? 'current' : 'written'} (${after.split('\n').length} lines).`,
);
