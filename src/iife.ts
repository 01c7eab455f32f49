// The script-tag build (svc.global.js): defines globalThis.svc, plus globalThis.svcSdk for the error helpers.
import { createSvc, isSvcError, SvcError, svc } from './index';

const g = globalThis as any;
g.svc ??= svc;
g.svcSdk = { createSvc, isSvcError, SvcError };
