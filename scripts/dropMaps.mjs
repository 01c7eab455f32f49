// Removes from dist/, once the third-party notices have been read from them (`postbuild`, after
// scripts/thirdPartyNotices.mjs), the source maps no install needs:
// - the bin's, built without the sources' text (tsup.config.ts): they would only name files no install has, neither
//   ours (svc-sdk publishes no src/) nor @babel/parser's (it ships lib/ alone), and weighed 0.5 MB;
// - the CommonJS build's: the same code as the ESM build, unminified, whose maps (the sources' text with them) are
//   kept; the CommonJS twins doubled that, 0.9 MB of the install's 16 MB budget, for what a stack trace already shows
//   readably in the .cjs file itself.
// A map is the bin's when it names sources but carries none of their text.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const dist = resolve(import.meta.dirname, '..', 'dist');
const dropped = { bin: 0, cjs: 0 };
for (const mapFile of readdirSync(dist).filter((name) => name.endsWith('.map'))) {
  const map = JSON.parse(readFileSync(join(dist, mapFile), 'utf8'));
  const cjs = mapFile.endsWith('.cjs.map');
  // A file that only re-exports has a map with no sources (and so none of their text): it is not the bin's.
  if (!cjs && (map.sourcesContent || map.sources.length === 0)) continue;
  const built = join(dist, mapFile.replace(/\.map$/, ''));
  const text = readFileSync(built, 'utf8');
  writeFileSync(built, text.replace(/\n\/\/# sourceMappingURL=\S+\.map\s*$/, '\n'));
  rmSync(join(dist, mapFile));
  dropped[cjs ? 'cjs' : 'bin'] += 1;
}
console.log(
  `maps: dropped the bin's ${dropped.bin} source maps (no sources' text) and the CommonJS build's ${dropped.cjs} from dist/.`,
);
