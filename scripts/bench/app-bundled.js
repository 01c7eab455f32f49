// The app as mini apps ship it: its code and the svc client in one bundle (the bench bundles this file with esbuild,
// minified, `svc-sdk` being the build under test; scripts/bench/engines.mjs), loaded by app-bundled.html. The same
// first call as app-esm.html's.
import { svc } from 'svc-sdk';
import { measure } from './measure.js';
import { readySteps } from './readySteps.js';

const call = () => svc.storage.get('k');
const tCall = performance.now();
const answered = call();
const tSent = performance.now();
const answer = await answered;
const end = performance.now();
const ready = (end - window.__t0) * 1000;
const samples = Number(new URLSearchParams(location.search).get('samples') || 5000);
const m = await measure(call, { warmup: 1000, samples, batches: 50 });
window.__result = { ...m, ready, steps: readySteps(tCall, tSent, end), answer, isolated: crossOriginIsolated };
