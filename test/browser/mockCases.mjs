// svc-sdk/mock inside a browser: the built dist/mock.js, loaded as an ES module by a page served over loopback HTTP,
// and bundled into a Web Worker, runs its rules (storage, permissions, actions, a Web Crypto signed token) with no
// Node APIs. Declared like the bridge cases, so every engine runs them.
import { assert, test } from './declareCases.mjs';

const expected = {
  stored: { a: [1] },
  quota: 'ERR_QUOTA_EXCEEDED',
  first: 'granted',
  again: 'granted',
  prompts: 1,
  undeclared: 'ERR_SCOPE_NOT_DECLARED',
  badInput: 'ERR_ACTION_INVALID_INPUT',
  confirmed: true,
  token: 3,
};

/** Declares the mock's cases for `manifest` (an svc-exchange manifest with a `close_poll` action). */
export function declareMockCases(manifest) {
  const open = async (h) => {
    const page = await h.context.newPage();
    await page.goto(`${h.H}/fixtures/mock.html`);
    const frame = page.mainFrame();
    await frame.waitForFunction(() => window.scenario);
    return frame;
  };

  test('the built mock runs its rules in a page', async (h) => {
    const frame = await open(h);
    const result = await frame.evaluate(
      // The page imported the scenario: a dynamic import written here would be rewritten by the test runner.
      (manifest) => window.scenario({ url: '/dist/mock.js', manifest }),
      manifest,
    );
    assert.deepEqual(result, expected);
    assert.deepEqual(await frame.evaluate(() => window.__errors), []);
  });

  test('the mock runs in a Web Worker (no window, no document), bundled as an app bundles it', async (h) => {
    const frame = await open(h);
    const result = await frame.evaluate(
      (manifest) =>
        new Promise((resolve, reject) => {
          const worker = new Worker(`/fixtures/mockWorker.js?m=${encodeURIComponent(JSON.stringify(manifest))}`, {
            type: 'module',
          });
          worker.onmessage = (e) => resolve(e.data);
          worker.onerror = (e) => reject(new Error(e.message));
        }),
      manifest,
    );
    assert.deepEqual(result, { ok: expected, window: 'undefined' });
  });
}
