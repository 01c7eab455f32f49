// A small bounded test harness for the browser suite: every test gets a fresh browser context and a time limit,
// and the results end in one line `N passed, N failed`.
import assert from 'node:assert/strict';

export { assert };
export const tests = [];
/** Declares a test; `fn(t)` gets the fixture helpers (see suite.mjs). */
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

function withTimeout(promise, ms, _name) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, fail) => (timer = setTimeout(() => fail(new Error(`test timed out after ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** Runs every declared test (or those whose name contains `filter`) in order; returns the counts. */
export async function runTests({ makeContext, filter }) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const t of tests) {
    if (filter && !t.name.includes(filter)) {
      skipped++;
      continue;
    }
    const started = Date.now();
    const ctx = await makeContext();
    try {
      await withTimeout(t.fn(ctx.helpers), t.timeout, t.name);
      passed++;
      console.log(`  ok    ${t.name} (${Date.now() - started} ms)`);
    } catch (e) {
      failed++;
      console.log(
        `  FAIL  ${t.name} (${Date.now() - started} ms)\n        ${String(e?.stack ?? e)
          .split('\n')
          .slice(0, 6)
          .join('\n        ')}`,
      );
    } finally {
      await ctx.close().catch(() => {});
    }
  }
  return { passed, failed, skipped };
}
