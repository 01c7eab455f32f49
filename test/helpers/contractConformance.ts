// Vitest setup: every server API answer svc dev gives and every webhook it sends, in the tests of the platform and
// the CLI, is checked against schema/server-api.openapi.json as it passes through fetch (nothing is changed: the
// original fetch does the work). A mismatch fails the test it happened in (or the next one, for a late webhook).
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { checkServerApiAnswer, checkWebhook } from './serverApiContract';

const original = globalThis.fetch;
const issues: string[] = [];
const counts = { answers: 0, webhooks: 0 };
let active = false;

const loopback = (url: URL) => url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';

globalThis.fetch = async (input, init) => {
  if (!active) return original(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const signed = headers.has('x-svc-signature');
  if (signed && method === 'POST' && !url.pathname.startsWith('/v1/') && typeof init?.body === 'string') {
    counts.webhooks++;
    issues.push(...checkWebhook(headers, init.body));
  }
  const response = await original(input, init);
  if (signed && loopback(url) && url.pathname.startsWith('/v1/')) {
    const text = await response.clone().text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    counts.answers++;
    issues.push(
      ...checkServerApiAnswer({ method, path: url.pathname, status: response.status, headers: response.headers, body }),
    );
  }
  return response;
};

beforeEach(() => {
  // The tests of svc-sdk/server run it against stand-in servers on purpose: only svc dev's answers are checked.
  active = /[\\/]test[\\/](dev|cli)[\\/]/.test(expect.getState().testPath ?? '');
});

afterEach(() => {
  if (issues.length) throw new Error(`svc dev broke its contract:\n${issues.splice(0).join('\n')}`);
});

afterAll(() => {
  if (counts.answers || counts.webhooks)
    console.log(
      `contract conformance: ${counts.answers} server API answers and ${counts.webhooks} webhooks of svc dev matched schema/server-api.openapi.json`,
    );
});
