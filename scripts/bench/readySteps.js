// Time to ready by step, read in a bench app page (app.html, app-esm.html, app-iife.html, app-bundled.js) after its
// first answered call. load: the page's scripts fetched and run up to the first call; call: the first call's
// synchronous part (the SDK's work before the hello leaves); hello: from the call to the welcome's arrival
// (`window.__tWelcome`, marked by a capturing listener); answer: from the welcome to the first answer; requested,
// answered, fetched: when the SDK's file was asked for, when its first byte came and when its last did (resource
// timing; the raw page and the bundled app have no such file). The epoch times let the bench split the hello step
// against the host page's own marks.
export function readySteps(tCall, tSent, end) {
  const file = performance.getEntriesByType('resource').find((r) => r.name.includes('/dist/'));
  return {
    load: tCall - window.__t0,
    call: tSent - tCall,
    helloAt: performance.timeOrigin + tSent,
    welcomeAt: performance.timeOrigin + window.__tWelcome,
    hello: window.__tWelcome - tCall,
    answer: end - window.__tWelcome,
    requested: (file?.requestStart ?? NaN) - window.__t0,
    answered: (file?.responseStart ?? NaN) - window.__t0,
    fetched: (file?.responseEnd ?? NaN) - window.__t0,
  };
}

/**
 * Every bench app page's run: the first call timed by step, then `measure`'s round trips, the result left in
 * `window.__result` for engines.mjs. `measure` is passed in rather than imported, so that a page's modules are all
 * asked for at once (an import here would be fetched only after this file). A page whose first call starts before
 * this runs (app.html's raw page says hello itself) passes that call's `tCall` and `tSent`.
 */
export async function runFirstCall(call, measure, marks = {}) {
  const tCall = marks.tCall ?? performance.now();
  const answered = call();
  const tSent = marks.tSent ?? performance.now();
  const answer = await answered;
  const end = performance.now();
  const ready = (end - window.__t0) * 1000;
  const samples = Number(new URLSearchParams(location.search).get('samples') || 5000);
  const m = await measure(call, { warmup: 1000, samples, batches: 50 });
  window.__result = { ...m, ready, steps: readySteps(tCall, tSent, end), answer, isolated: crossOriginIsolated };
}
