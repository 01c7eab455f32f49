// The app as mini apps ship it: its code and the svc client in one bundle (the bench bundles this file with esbuild,
// minified, `svc-sdk` being the build under test; scripts/bench/engines.mjs), loaded by app-bundled.html. The same
// first call as app-esm.html's.
import { svc } from 'svc-sdk';
import { measure } from './measure.js';
import { runFirstCall } from './readySteps.js';

await runFirstCall(() => svc.storage.get('k'), measure);
