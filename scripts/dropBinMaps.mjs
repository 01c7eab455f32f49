// Removes the source maps of svc-sdk's bin from dist/ once the third-party notices have been read from them
// (`postbuild`, after scripts/thirdPartyNotices.mjs). The bin's maps are built without the sources' text
// (tsup.config.ts): they would only name files no install has, neither ours (svc-sdk publishes no src/) nor
// @babel/parser's (it ships lib/ alone), and they weigh 0.5 MB of the install's 16 MB budget. A map is the bin's
// when it names sources but carries none of their text; the library's entries keep theirs, sources included.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const dist = resolve(import.meta.dirname, '..', 'dist');
let dropped = 0;
for (const mapFile of readdirSync(dist).filter((name) => name.endsWith('.map'))) {
  const map = JSON.parse(readFileSync(join(dist, mapFile), 'utf8'));
  // A file that only re-exports has a map with no sources (and so none of their text): it is not the bin's.
  if (map.sourcesContent || map.sources.length === 0) continue;
  const built = join(dist, mapFile.replace(/\.map$/, ''));
  const text = readFileSync(built, 'utf8');
  writeFileSync(built, text.replace(/\n\/\/# sourceMappingURL=\S+\.map\s*$/, '\n'));
  rmSync(join(dist, mapFile));
  dropped += 1;
}
console.log(`maps: dropped the bin's ${dropped} source maps (no sources' text) from dist/.`);
