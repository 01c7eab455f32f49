// Watches fetch in this process for svc dev's server API answers and webhooks, and checks each against
// schema/server-api.openapi.json as it passes (the original fetch does the work; nothing is changed). Shared by the
// Vitest setup (test/helpers/contractConformance.ts) and the messenger specs' session (test/dev/pollsSession.ts).
import { checkServerApiAnswer, checkWebhook } from './serverApiContract';

/** What the watch saw: the mismatches, and how many answers and webhooks it checked. */
export interface ContractObserver {
  /** Checks only while true. */
  active: boolean;
  issues: string[];
  counts: { answers: number; webhooks: number };
}

const loopback = (url: URL) => url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
let observer: ContractObserver | undefined;

/** Starts the watch (once per process) and returns it. */
export function observeContract(): ContractObserver {
  if (observer) return observer;
  const watch: ContractObserver = { active: false, issues: [], counts: { answers: 0, webhooks: 0 } };
  observer = watch;
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    if (!watch.active) return original(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const signed = headers.has('x-svc-signature');
    if (signed && method === 'POST' && !url.pathname.startsWith('/v1/') && typeof init?.body === 'string') {
      watch.counts.webhooks++;
      watch.issues.push(...checkWebhook(headers, init.body));
    }
    const response = await original(input, init);
    if (signed && loopback(url) && url.pathname.startsWith('/v1/')) {
      const text = await response.clone().text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      watch.counts.answers++;
      watch.issues.push(
        ...checkServerApiAnswer({
          method,
          path: url.pathname,
          status: response.status,
          headers: response.headers,
          body,
        }),
      );
    }
    return response;
  };
  return watch;
}
