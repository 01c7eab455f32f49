// One measurement, the same in Node and in a browser page: `call()` is one round trip that resolves with its
// answer. Latency: sequential calls, each timed (median and p99 in µs). Throughput: `inFlight` calls at a time.
export async function measure(call, { warmup = 2000, samples = 10000, batches = 100, inFlight = 100 } = {}) {
  for (let i = 0; i < warmup; i++) await call();
  const lat = new Float64Array(samples);
  for (let i = 0; i < samples; i++) {
    const t = performance.now();
    await call();
    lat[i] = performance.now() - t;
  }
  const batch = () => Promise.all(Array.from({ length: inFlight }, call));
  await batch();
  const t0 = performance.now();
  for (let b = 0; b < batches; b++) await batch();
  const seconds = (performance.now() - t0) / 1000;
  return { lat: Array.from(lat), throughput: (batches * inFlight) / seconds };
}

/** Median and p99 in µs of latency samples in ms. */
export function summarise(samples) {
  const s = Float64Array.from(samples).sort();
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))] * 1000;
  return { median: at(0.5), p99: at(0.99) };
}
