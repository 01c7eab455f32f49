// Time to ready alone, engine by engine: `node scripts/bench/ready.mjs [engine...] [--rounds N]` (default: chromium,
// firefox and webkit, 5 rounds). The engine part of `npm run bench` (scripts/bench/engines.mjs) with few samples,
// since only the first answered call matters here; `SVC_DIST=<dir>` measures another build (e.g. main's dist/
// against this branch's, run in turn on the same machine: the ratios move with the machine's load).
import { benchEngine } from './engines.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const rounds = at >= 0 ? Number(args[at + 1]) : 5;
const engines = args.filter((a, i) => !a.startsWith('--') && i !== at + 1);
const ms = (x) => (x === undefined || Number.isNaN(x) ? '-' : x.toFixed(2));
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
    const s = r.steps;
    const vs = r.lib === 'raw' ? '      ' : `${r.readyRatio.toFixed(2)}x`;
    console.log(
      `  ${r.lib.padEnd(11)} ${ms(r.ready / 1000).padStart(7)} ${vs}  load ${ms(s.load)} (SDK file requested ${ms(s.requested)}, fetched ${ms(s.fetched)}), call ${ms(s.call)}, hello there ${ms(s.there)}, host ${ms(s.host)}, back ${ms(s.back)}, answer ${ms(s.answer)}`,
    );
  }
}
