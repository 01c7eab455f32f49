// Evaluated before every other module of the page (main.ts imports it first): the page's CSP has no
// 'unsafe-eval', and zod would otherwise probe for it with `new Function` (a CSP error in the console on every
// load). Any host page under a strict CSP that bundles the manifest validator needs the same.
import { config } from 'zod';

config({ jitless: true });
