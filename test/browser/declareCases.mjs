// What the bridge cases (bridgeCases.mjs) are written with: `test` declares a case, which bridge.spec.ts registers
// with @playwright/test; `waitFor` and `sleep` poll and pause within one.
import assert from 'node:assert/strict';

export { assert };
export const tests = [];
/** Declares a test; `fn(t)` gets the fixture helpers (see bridgeCases.mjs). */
export const test = (name, fn, timeout = 25_000) => tests.push({ name, fn, timeout });

export const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** Polls `probe` until it returns a truthy value; throws after `timeout` ms with `what` in the message. */
export async function waitFor(probe, what, timeout = 8_000) {
  const end = Date.now() + timeout;
  for (;;) {
    let last;
    try {
      last = await probe();
    } catch (e) {
      last = undefined;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${e.message}`);
    }
    if (last) return last;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
