import { createRateLimiter, type RateLimiter } from './createRateLimiter';
import { fetchErrorCode } from './fetchErrorCode';
import { signRequest } from './signRequest';
import { SvcApiError } from './SvcApiError';
import type { AgentDelegation, Card, Installation } from './serverTypes';

/**
 * Options of {@link createServerClient}.
 * @public
 */
export interface ServerClientOptions {
  /** The server API base, ending in `/v1`. */
  baseUrl: string;
  miniAppId: string;
  /** The signing secret (from a secret manager). */
  secret: string;
  /** A `fetch` to use (tests, proxies). Default the global one. */
  fetch?: typeof fetch;
  /** Ms one attempt may take. Default 10 000. */
  timeoutMs?: number;
  /**
   * Retries of 429 and 503: at most `max` (default 3) within `budgetMs` in all (default 30 000), a retry's attempt cut
   * to what is left of it.
   */
  retry?: { max?: number; budgetMs?: number; baseDelayMs?: number; maxDelayMs?: number };
  /**
   * Retry a POST whose outcome is unknown (the connection failed after it was sent). Default false: the platform
   * may have acted on it, and a card posted twice shows twice.
   */
  retryUnknownOutcome?: boolean;
  /** Paces requests (600/min, burst 60). Default an in-process bucket; `createRedisRateLimiter` for several instances; `false` for none. */
  rateLimiter?: RateLimiter | false;
  /** Told each time a 429 makes the client wait. */
  onRateLimited?: (info: { retryAfter: number; path: string }) => void;
}

/** Options of one call. @public */
export interface CallOptions {
  /** Ends the whole call, retries and waits included: `AbortSignal.timeout(ms)` bounds it in time. */
  signal?: AbortSignal;
  /** Ms each attempt of this call may take (default the client's `timeoutMs`); retries may follow within the budget. */
  timeoutMs?: number;
}

/**
 * The server API, one typed method per endpoint, every request signed.
 * @public
 */
export interface ServerClient {
  /** Posts a card into a room (`201 {event_id}`). An encrypted room answers 409 `room-encrypted`. */
  postCard(
    roomId: string,
    input: { app_user_id: string; card: Card },
    options?: CallOptions,
  ): Promise<{ event_id: string }>;
  /**
   * Notifies a person (needs their `notifications` grant, else 403 `scope-not-granted`). Resolves the
   * `notification_id` of the `201` answer; any other 2xx (a platform that answers 200 or 204 without a body)
   * resolves `{}`.
   */
  notify(
    appUserId: string,
    input: { title: string; body: string; deep_link: string },
    options?: CallOptions,
  ): Promise<{ notification_id?: string }>;
  /** Reads the installation state, to check a notification will land before sending it. */
  getInstallation(appUserId: string, options?: CallOptions): Promise<Installation>;
  /** Verifies an agent's token (one carrying `act`), to apply a lower limit to agent-initiated actions. */
  verifyAgent(token: string, options?: CallOptions): Promise<AgentDelegation>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A redirect answered to a signed request: baseUrl names something other than the server API (a proxy, http for
 * https). Not retried: every attempt would be answered the same. Where it points is said by origin and path only (a
 * query may carry a token).
 */
function redirected(response: Response, instance: string): SvcApiError {
  const location = response.headers.get('location');
  let to = '';
  try {
    const target = location ? new URL(location, response.url || undefined) : undefined;
    if (target) to = ` to ${target.origin}${target.pathname}`;
  } catch {
    to = '';
  }
  return new SvcApiError({
    status: response.status,
    problem: 'redirect',
    title: 'Redirected',
    detail: `the server answered a redirect${to}, which a signed request does not follow: set baseUrl (SVC_API_BASE) to the server API's own URL${to ? ' (the one it points to, if that is the platform)' : ''}.`,
    instance,
    retriable: false,
  });
}

function need(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${field} must be a non-empty string.`);
  return value;
}

/**
 * The body of a 2xx answer, parsed. Its headers came, so the platform acted: a body that stops (the time is up, the
 * connection drops) or is not JSON is an {@link SvcApiError} like any other failure, saying so, never the bare
 * `TimeoutError` or `SyntaxError` underneath.
 */
async function readAnswer<T>(
  response: Response,
  at: { method: string; instance: string; origin: string; timedOut(): boolean },
): Promise<T> {
  const failed = (problem: string, title: string, detail: string, cause: unknown) =>
    new SvcApiError({
      status: response.status,
      problem,
      title,
      detail,
      instance: at.instance,
      // A read can be sent again; a POST was acted on (its 2xx came), so sending it again would act twice.
      retriable: at.method === 'GET',
      cause,
    });
  let text: string;
  try {
    text = await response.text();
  } catch (cause) {
    const how = at.timedOut() ? 'did not end in time' : `was cut off (${fetchErrorCode(cause) ?? 'connection lost'})`;
    const then = at.method === 'GET' ? 'retry.' : 'the platform acted on it: do not send it again.';
    throw failed(
      at.timedOut() ? 'timeout' : 'network',
      'Answer cut off',
      `${at.origin} answered ${response.status}, but the answer's body ${how}; ${then}`,
      cause,
    );
  }
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch (cause) {
    throw failed(
      'invalid-answer',
      'Answer not JSON',
      `${at.origin} answered ${response.status} with a body that is not JSON: check that baseUrl (SVC_API_BASE) names the platform's server API.`,
      cause,
    );
  }
}

/**
 * Creates the server API client.
 *
 * @remarks
 * Failures reject with an error for which `isSvcApiError(e)` is true. 429 waits `Retry-After` seconds and 503
 * retries with jittered exponential backoff, a bounded number of times within a total time budget; a network
 * failure is retried for reads, and for a POST only with `retryUnknownOutcome`.
 * @example
 * ```ts
 * const api = createServerClient({ baseUrl: process.env.SVC_API!, miniAppId, secret: process.env.SVC_SIGNING_SECRET! });
 * const { event_id } = await api.postCard(roomId, { app_user_id, card: { title: 'Lunch?', body: 'Vote now' } });
 * ```
 * @public
 */
export function createServerClient(options: ServerClientOptions): ServerClient {
  const base = need(options.baseUrl, 'createServerClient(): baseUrl').replace(/\/+$/, '');
  // The base address carries the version segment: without it every path misses (404 from the platform).
  if (!/^https?:\/\/[^/]+(\/.*)?\/v1$/.test(base))
    throw new TypeError(
      `createServerClient(): baseUrl must be an http(s) URL ending in /v1, the server API's base (SVC_API_BASE, such as http://127.0.0.1:4310/v1), not '${base}'.`,
    );
  const miniAppId = need(options.miniAppId, 'createServerClient(): miniAppId');
  const secret = need(options.secret, 'createServerClient(): secret');
  const doFetch = options.fetch ?? globalThis.fetch;
  const limiter = options.rateLimiter === false ? undefined : (options.rateLimiter ?? createRateLimiter());
  const max = options.retry?.max ?? 3;
  const budgetMs = options.retry?.budgetMs ?? 30_000;
  const baseDelay = options.retry?.baseDelayMs ?? 500;
  const maxDelay = options.retry?.maxDelayMs ?? 5_000;
  const { pathname: basePath, origin } = new URL(base);

  async function request<T>(
    method: 'GET' | 'POST',
    path: string,
    payload: unknown,
    call: CallOptions = {},
  ): Promise<T> {
    const instance = basePath + path;
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const deadline = Date.now() + budgetMs;
    for (let attempt = 0; ; attempt++) {
      // The wait for a slot is within the call's budget: a 429's Retry-After holds every call of the limiter (every
      // replica's, when shared), and an unrelated call must not wait out a minute of it unseen.
      if (limiter) await takeSlot(limiter, call.signal, deadline, instance, budgetMs);
      const headers = await signRequest({ body, secret, miniAppId });
      const perAttempt = call.timeoutMs ?? options.timeoutMs ?? 10_000;
      // A retry ends with the budget: the call takes at most the budget, or its first attempt's timeout if longer
      // (one started near the budget's end had its whole timeout, 31 s in all for a platform that never answered).
      const limit = attempt === 0 ? perAttempt : Math.max(1, Math.min(perAttempt, deadline - Date.now()));
      const timeout = AbortSignal.timeout(limit);
      const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
      let response: Response;
      try {
        response = await doFetch(base + path, {
          method,
          headers,
          body: method === 'GET' ? undefined : body,
          signal,
          // Not followed: a signed request goes to the URL it was signed for. 'manual', not 'error', which Cloudflare
          // Workers refuse with a TypeError before anything is sent (every call failed there as a network failure).
          redirect: 'manual',
        });
      } catch (cause) {
        const aborted = call.signal?.aborted;
        const timedOut = !aborted && timeout.aborted;
        const code = fetchErrorCode(cause);
        // Refused or not found: no connection was made, so nothing was sent and a POST is as safe to retry as a GET.
        const unsent = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
        const after =
          method === 'POST' && !unsent
            ? 'the platform may or may not have acted on it.'
            : 'nothing was done; retry later.';
        const error = new SvcApiError({
          status: 0,
          problem: aborted ? 'aborted' : timedOut ? 'timeout' : 'network',
          title: aborted ? 'Aborted' : timedOut ? 'Timed out' : 'Network failure',
          detail: aborted
            ? 'the caller aborted the request.'
            : timedOut
              ? `no answer from ${origin} within ${limit} ms (${limit < perAttempt ? `what was left of the call's ${budgetMs} ms retry budget` : 'timeoutMs'}); ${after}`
              : `the connection to ${origin} failed${code ? ` (${code})` : ''}: check that baseUrl (SVC_API_BASE) names the running platform; ${after}`,
          instance,
          retriable: !aborted,
          cause,
        });
        const safe = method === 'GET' || (unsent && !timedOut) || options.retryUnknownOutcome;
        if (aborted || !safe || attempt >= max) throw error;
        const wait = backoff(attempt);
        if (Date.now() + wait > deadline) throw error;
        await sleep(wait);
        continue;
      }
      if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
        await response.body?.cancel();
        throw redirected(response, instance);
      }
      if (response.ok) return readAnswer<T>(response, { method, instance, origin, timedOut: () => timeout.aborted });
      const error = await SvcApiError.fromResponse(response, instance);
      // The platform's Retry-After holds for every request of this vendor: the limiter makes all of them wait (at
      // most 5 minutes, so a wild value cannot stall every replica for hours).
      if (error.status === 429 && error.retryAfter) await limiter?.block?.(Math.min(error.retryAfter, 300) * 1000);
      if (!error.retriable || attempt >= max) throw error;
      const wait =
        error.status === 429
          ? (error.retryAfter ?? 1) * 1000
          : Math.max(backoff(attempt), (error.retryAfter ?? 0) * 1000);
      if (Date.now() + wait > deadline) throw error;
      if (error.status === 429) options.onRateLimited?.({ retryAfter: wait / 1000, path: instance });
      await sleep(wait);
    }
  }

  // Exponential from baseDelay, capped, with jitter between half and all of it (so instances do not retry in step).
  function backoff(attempt: number): number {
    const delay = Math.min(maxDelay, baseDelay * 2 ** attempt);
    return delay / 2 + Math.random() * (delay / 2);
  }

  // Methods are async so bad arguments reject like every other failure, rather than throwing at the call.
  const seg = (value: string, field: string) => encodeURIComponent(need(value, field));
  return {
    postCard: async (roomId, input, call) =>
      request(
        'POST',
        `/rooms/${seg(roomId, 'postCard(): roomId')}/cards`,
        {
          mini_app_id: miniAppId,
          app_user_id: need(input?.app_user_id, 'postCard(): app_user_id'),
          card: input.card,
        },
        call,
      ),
    notify: async (appUserId, input, call) => {
      const answer = await request<{ notification_id?: unknown } | undefined>(
        'POST',
        `/users/${seg(appUserId, 'notify(): appUserId')}/notifications`,
        {
          mini_app_id: miniAppId,
          title: need(input?.title, 'notify(): title'),
          body: need(input.body, 'notify(): body'),
          deep_link: need(input.deep_link, 'notify(): deep_link'),
        },
        call,
      );
      const id = answer?.notification_id;
      return typeof id === 'string' ? { notification_id: id } : {};
    },
    getInstallation: async (appUserId, call) =>
      request(
        'GET',
        `/apps/${encodeURIComponent(miniAppId)}/installations/${seg(appUserId, 'getInstallation(): appUserId')}`,
        undefined,
        call,
      ),
    verifyAgent: async (token, call) =>
      request('POST', '/agents/verify', { token: need(token, 'verifyAgent(): token') }, call),
  };
}

/**
 * Takes a rate-limit slot for a call, within what is left of its budget (until `deadline`); one not given by then,
 * or one the caller aborted, fails unsent.
 */
async function takeSlot(
  limiter: RateLimiter,
  signal: AbortSignal | undefined,
  deadline: number,
  instance: string,
  budgetMs: number,
): Promise<void> {
  const budget = AbortSignal.timeout(Math.max(0, deadline - Date.now()));
  try {
    await limiter.take(signal ? AbortSignal.any([signal, budget]) : budget);
  } catch (cause) {
    if (signal?.aborted)
      throw new SvcApiError({
        status: 0,
        problem: 'aborted',
        title: 'Aborted',
        detail: 'the caller aborted the request while it waited for the rate limit; it was not sent.',
        instance,
        retriable: false,
        cause,
      });
    if (!budget.aborted) throw cause; // the limiter's own failure names its fix
    throw new SvcApiError({
      status: 0,
      problem: 'timeout',
      title: 'Timeout',
      detail: `no rate-limit slot within the call's ${budgetMs} ms budget (a 429's Retry-After holds every call of this client, and of every replica sharing its limiter): it was not sent; send it again later, or give the call a larger retry.budgetMs.`,
      instance,
      retriable: true,
      cause,
    });
  }
}
