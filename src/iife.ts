// The script-tag build (svc.global.js): defines globalThis.svc and nothing else, since `svc` is the only
// non-standard global a mini app receives. An SvcError is recognised by `error.name == 'SvcError'` (README).
import { svc } from './index';

(globalThis as { svc?: typeof svc }).svc ??= svc;
