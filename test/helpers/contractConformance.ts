// Vitest setup: every server API answer svc dev gives and every webhook it sends, in the tests of the platform and
// the CLI, is checked against schema/server-api.openapi.json as it passes through fetch. A mismatch fails the test
// it happened in (or the next one, for a late webhook).
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { observeContract } from './observeContract';

const watch = observeContract();

beforeEach(() => {
  // The tests of svc-sdk/server run it against stand-in servers on purpose: only svc dev's answers are checked.
  watch.active = /[\\/]test[\\/](dev|cli)[\\/]/.test(expect.getState().testPath ?? '');
});

afterEach(() => {
  if (watch.issues.length) throw new Error(`svc dev broke its contract:\n${watch.issues.splice(0).join('\n')}`);
});

afterAll(() => {
  const { answers, webhooks } = watch.counts;
  if (answers || webhooks)
    console.log(
      `contract conformance: ${answers} server API answers and ${webhooks} webhooks of svc dev matched schema/server-api.openapi.json`,
    );
});
