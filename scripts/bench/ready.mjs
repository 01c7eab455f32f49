// Time to ready alone, engine by engine: `node scripts/bench/ready.mjs [engine...] [--rounds N]` (default: chromium,
// firefox and webkit, 5 rounds). The engine part of `npm run bench` (scripts/bench/engines.mjs) with few samples,
// since only the first answered call matters here; `SVC_DIST=<dir>` measures another build (e.g. main's dist/
// against this branch's, run in turn on the same machine: the ratios move with the machine's load).
import { benchEngine, stepsText } from './engines.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const rounds = at >= 0 ? Number(args[at + 1]) : 5;
const engines = args.filter((a, i) => !a.startsWith('--') && i !== at + 1);
for (const engine of engines.length ? engines : ['chromium', 'firefox', 'webkit']) {
  const result = await benchEngine(engine, { rounds, samples: 200 });
  if (result.skipped) {
    console.log(`${engine}: SKIPPED (${result.skipped})`);
    continue;
  }
  console.log(
    `${engine}: time to ready, medians in ms over ${rounds} rounds (ratio: median of per-round ratios to raw)`,
  );
  for (const r of result) {
    const vs = r.lib === 'raw' ? '      ' : `${r.readyRatio.toFixed(2)}x`;
    console.log(`  ${r.lib.padEnd(11)} ${(r.ready / 1000).toFixed(2).padStart(7)} ${vs}  ${stepsText(r.steps, 2)}`);
  }
}
