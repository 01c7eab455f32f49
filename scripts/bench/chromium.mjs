// The Chromium half of the benchmark: the pages of scripts/bench/engines.mjs, with the peers (penpal, comlink) beside
// svc and the raw port.
import { benchEngine, LIBS } from './engines.mjs';

/** Round trips and time to ready in Chromium for every library of the bench. */
export async function benchChromium({ rounds = 2, samples = 5000 } = {}) {
  const rows = await benchEngine('chromium', { rounds, samples, libs: LIBS });
  if (rows.skipped) throw new Error(`bench: Chromium cannot start: ${rows.skipped}`);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchChromium({ rounds: 1, samples: 2000 }));
