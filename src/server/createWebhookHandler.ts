import {
  type UnknownWebhookEvent,
  WEBHOOK_EVENTS,
  type WebhookEvent,
  type WebhookEventMap,
  type WebhookEventName,
} from './events';
import { createMemoryIdempotencyStore, type IdempotencyStore } from './IdempotencyStore';
import { handleNode, type NodeMiddleware } from './nodeAdapter';
import { refuseReadRequest } from './rawBody';
import { isSvcSignatureError } from './SvcSignatureError';
import { checkSignatureHeaders, type VerifySignatureOptions } from './verifySignature';
import { type WebhookDelivery, verifyWebhookDelivery } from './verifyWebhook';

/**
 * What a handler learns about the delivery besides the event.
 * @public
 */
export interface DeliveryInfo {
  /** The idempotency key (hex SHA-256 of the raw body, or what the `deliveryKey` option made). */
  key: string;
  /** The signed timestamp, in seconds. */
  timestamp: number;
}

/** One handler per event name, typed by the event. @public */
export type WebhookHandlers = {
  [E in WebhookEventName]?: (event: WebhookEventMap[E], delivery: DeliveryInfo) => unknown;
};

/**
 * Options of {@link createWebhookHandler}.
 * @public
 */
export interface WebhookHandlerOptions extends Omit<VerifySignatureOptions, 'now'> {
  /** Handlers by event name. */
  on: WebhookHandlers;
  /**
   * A known event that `on` has no handler for (you subscribed to more than you handle). Default: acknowledged (200)
   * and ignored, quietly.
   */
  onUnhandled?: (event: WebhookEvent, delivery: DeliveryInfo) => unknown;
  /** An event name this SDK does not know (a newer platform). Default: acknowledged (200) and ignored. */
  onUnknown?: (event: UnknownWebhookEvent, delivery: DeliveryInfo) => unknown;
  /** Told of every failure (bad signature, a handler that threw), for logs and metrics. Never sees a secret. */
  onError?: (error: unknown, delivery?: DeliveryInfo) => void;
  /** Where processed deliveries are recorded. Default in memory (one instance only). */
  store?: IdempotencyStore;
  /**
   * The idempotency key of a verified delivery. Default: the hex SHA-256 of the raw body, since a retry resends the
   * same bytes (how svc dev retries; the platform states only that handlers must be idempotent). Where a retry may
   * be written anew, key on the event's own fields:
   * `(e) => [e.event, e.tenant_id, 'app_user_id' in e ? e.app_user_id : '', e.occurred_at].join(':')`
   * (`app.revoked` names no person). One that throws, or returns no text, is answered `500` (the platform retries).
   */
  deliveryKey?: (event: WebhookEvent | UnknownWebhookEvent, body: Uint8Array) => string | Promise<string>;
  /** How long a claim holds while its handler runs, in ms. Default 60 000. */
  leaseMs?: number;
  /** How long a processed delivery is remembered, in ms. Default 48 h (the platform retries for 24 h). */
  doneTtlMs?: number;
  /**
   * Answer `202` after this many ms when the handler is still running, and let it finish in the background: the
   * platform wants an answer within 5 s. Default 4 000. Set `Infinity` to always wait.
   */
  ackAfterMs?: number;
  /**
   * Ms the idempotency store may take to answer the claim before the delivery is answered `503` with `Retry-After`
   * (the store is unreachable: the platform retries, nothing runs). Counted from the request's arrival, within the
   * platform's 5 s budget. Default 2 000.
   */
  storeTimeoutMs?: number;
  /**
   * Keeps the runtime alive for work finishing after the answer. On Workers, where the context is each request's,
   * pass it with the request instead (`.handle(request, { waitUntil })`).
   */
  waitUntil?: (work: Promise<unknown>) => void;
  /**
   * The largest body read, in bytes; a larger one is answered `413` unread. Default 1 MiB: the platform's events
   * are a few hundred bytes.
   */
  maxBodyBytes?: number;
  /**
   * Ms the body may take to arrive, from the request's arrival; a body that stops is answered `408`, within the
   * platform's 5 s. Default 3 000.
   */
  bodyTimeoutMs?: number;
  /** Now, in seconds (tests). */
  now?: () => number;
}

/**
 * What one request brings to the handler's `.handle`: on Cloudflare Workers, `ctx.waitUntil` of that request (the
 * handler, and its store, are made once per isolate; the context is each request's).
 * @public
 */
export interface WebhookRequestOptions {
  /** Keeps the runtime alive for work finishing after this request's answer; over the handler's own `waitUntil`. */
  waitUntil?: (work: Promise<unknown>) => void;
}

/**
 * A webhook endpoint: a Fetch handler `(request) => Promise<Response>`, with `.node` for Node `http` and Express, and
 * `.handle` for a request that brings options of its own (Workers' `ctx.waitUntil`).
 * @public
 */
export interface WebhookHandler {
  /** Takes the Fetch `Request`, or a Hono context (`app.post(path, webhooks)`), whose `c.req.raw` it reads. */
  (request: Request | { req: { raw: Request } }): Promise<Response>;
  /**
   * The same, with this request's options. Not a second parameter of the Fetch handler: frameworks pass their own
   * second argument (Next.js checks a route handler's, and refuses one it does not know).
   */
  handle(request: Request, options?: WebhookRequestOptions): Promise<Response>;
  /** Node `http` / Express middleware; reads the raw body itself (mount it before any JSON body parser). */
  node: NodeMiddleware;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** The request a handler was given: the Fetch `Request` itself, or a Hono context's `c.req.raw`. */
function requestOf(input: { req: { raw: Request } }): Request {
  const raw = (input as { req?: { raw?: unknown } } | undefined)?.req?.raw;
  if (raw instanceof Request) return raw;
  throw new TypeError(
    'the webhook handler takes the Fetch Request (Next.js, Workers, Bun, Deno) or a Hono context; use webhooks.node for Express and node:http.',
  );
}

/**
 * The body's bytes, read up to `maxBytes` within `ms`: past either, the answer to send instead (413, 408). A body
 * that says its length is refused unread when that length is too large.
 */
async function readBody(
  request: Request,
  maxBytes: number,
  time: { left: number; budget: number },
): Promise<Uint8Array | Response> {
  const tooLarge = () =>
    json(413, { error: 'body-too-large', message: `the body is over ${maxBytes} bytes, more than any event.` });
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) return tooLarge();
  const reader = request.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, time.left));
  });
  try {
    for (;;) {
      // A connection that drops mid-body rejects the read: answered, not thrown (nobody will read the answer, but
      // onError hears of it once).
      const next = await Promise.race([reader.read(), late]).catch(() => 'cut' as const);
      if (next === 'cut') return json(400, { error: 'body-cut-off', message: 'the body ended before it was whole.' });
      if (next === 'late') {
        void reader.cancel().catch(() => {});
        const message = `the body did not arrive within ${time.budget} ms of the request.`;
        return json(408, { error: 'body-timeout', message });
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > maxBytes) {
        void reader.cancel().catch(() => {});
        return tooLarge();
      }
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/**
 * Builds a webhook endpoint that verifies each delivery, runs its typed handler at most once per delivery, and
 * answers within the platform's 5-second budget.
 *
 * @remarks
 * Answers: 200 when handled (or already handled: a retry), 202 when the handler still runs after `ackAfterMs`,
 * 409 while another instance runs the same delivery (so the platform retries later), 401 on a bad signature,
 * 400 on a payload that is no event, 405/415 on a wrong method or content type, 500 when the handler threw: the
 * claim is released, so the platform's retry runs it again.
 * @example
 * ```ts
 * const handle = createWebhookHandler({
 *   secrets: [process.env.SVC_SIGNING_SECRET!],
 *   on: { 'user.deprovisioned': async (event) => db.deleteUser(event.app_user_id) },
 * });
 * export const POST = handle;                 // Next.js route handler, Hono, Workers, Bun, Deno
 * app.post('/svc/webhooks', handle.node);    // Express or node:http
 * ```
 * @public
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const store = options.store ?? createMemoryIdempotencyStore();
  const leaseMs = options.leaseMs ?? 60_000;
  const doneTtlMs = options.doneTtlMs ?? 48 * 3600_000;
  const ackAfterMs = options.ackAfterMs ?? 4_000;
  const storeTimeoutMs = options.storeTimeoutMs ?? 2_000;
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 3_000;
  const unreachable = (why: string) =>
    json(
      503,
      {
        error: 'store-unavailable',
        message: `the idempotency store is unreachable (${why}); nothing ran: the platform retries the delivery later.`,
      },
      { 'retry-after': '30' },
    );

  async function process(delivery: WebhookDelivery, token: string): Promise<void> {
    const info: DeliveryInfo = { key: delivery.key, timestamp: delivery.timestamp };
    const name = delivery.event.event;
    const handler = Object.hasOwn(options.on, name)
      ? (options.on as Record<string, (e: unknown, d: DeliveryInfo) => unknown>)[name]
      : undefined;
    try {
      if (handler) await handler(delivery.event, info);
      else if ((WEBHOOK_EVENTS as readonly string[]).includes(name))
        await options.onUnhandled?.(delivery.event as WebhookEvent, info);
      else await options.onUnknown?.(delivery.event as UnknownWebhookEvent, info);
    } catch (error) {
      await store.release(delivery.key, token);
      options.onError?.(error, info);
      throw error;
    }
    await store.complete(delivery.key, token, doneTtlMs);
  }

  // A request answered before its body was read (a wrong method, type or signature) has its body cancelled: the
  // Node adapter then drops what the socket still brings, instead of keeping it for a reader that never comes.
  const handle = (request: Request, call?: WebhookRequestOptions): Promise<Response> =>
    answer(request, call).finally(() => {
      if (!request.bodyUsed) void request.body?.cancel().catch(() => {});
    });
  const answer = async (request: Request, call?: WebhookRequestOptions): Promise<Response> => {
    const arrived = Date.now();
    if (request.method !== 'POST') return json(405, { error: 'webhooks are POST requests' }, { allow: 'POST' });
    const type = request.headers.get('content-type') ?? '';
    if (!/^application\/json\b/i.test(type)) return json(415, { error: 'webhooks are application/json' });
    let delivery: WebhookDelivery;
    try {
      const { secrets, tolerance, miniAppId } = options;
      const now = options.now?.();
      const verify = {
        secrets,
        ...(tolerance === undefined ? {} : { tolerance }),
        ...(miniAppId === undefined ? {} : { miniAppId }),
        ...(now === undefined ? {} : { now }),
      };
      // A body a middleware read is the commonest setup error, and its message says how to fix it. Then the
      // headers: an unsigned or stale request is refused before a byte of its body is read.
      refuseReadRequest(request);
      checkSignatureHeaders(request.headers, verify);
      const left = arrived + bodyTimeoutMs - Date.now();
      const body = await readBody(request, maxBodyBytes, { left, budget: bodyTimeoutMs });
      if (body instanceof Response) {
        options.onError?.(new Error(`webhook body refused: ${body.status}`));
        return body;
      }
      delivery = await verifyWebhookDelivery({ body, headers: request.headers }, verify);
      if (options.deliveryKey) {
        const key = await Promise.resolve()
          .then(() => options.deliveryKey!(delivery.event, body))
          .catch((error: unknown) => error as Error);
        if (typeof key !== 'string' || key.trim() === '') {
          const why =
            key instanceof Error
              ? `deliveryKey threw: ${key.message.replace(/\.?$/, '.')}`
              : `deliveryKey returned ${JSON.stringify(key)}: return a text that is not blank, one per delivery.`;
          options.onError?.(key instanceof Error ? key : new TypeError(why));
          return json(500, {
            error: 'delivery-key',
            message: `${why} Nothing ran: the platform retries the delivery.`,
          });
        }
        delivery.key = key;
      }
    } catch (error) {
      options.onError?.(error);
      if (isSvcSignatureError(error)) return json(error.status, { error: error.reason, message: error.message });
      throw error;
    }
    const token = crypto.randomUUID();
    // The claim is raced against the budget: a store that is down (a client queueing commands while it reconnects)
    // must not hold the answer past the platform's 5 s. A claim won after the 503 is given back.
    let storeTimer: ReturnType<typeof setTimeout> | undefined;
    const pending = Promise.resolve().then(() => store.claim(delivery.key, token, leaseMs));
    const claim = await Promise.race([
      pending.catch((error: unknown) => ({ failed: error })),
      new Promise<'timeout'>((resolve) => {
        storeTimer = setTimeout(() => resolve('timeout'), Math.max(0, storeTimeoutMs - (Date.now() - arrived)));
      }),
    ]).finally(() => clearTimeout(storeTimer));
    if (claim === 'timeout' || typeof claim === 'object') {
      const error = claim === 'timeout' ? new Error(`no answer in ${storeTimeoutMs} ms`) : claim.failed;
      if (claim === 'timeout')
        void pending.then(
          (late) => (late === 'claimed' ? store.release(delivery.key, token) : undefined),
          () => {},
        );
      options.onError?.(error, { key: delivery.key, timestamp: delivery.timestamp });
      return unreachable(
        claim === 'timeout' ? `no answer in ${storeTimeoutMs} ms` : (error as Error)?.message || String(error),
      );
    }
    if (claim === 'done') return json(200, { ok: true, duplicate: true });
    if (claim === 'in-progress')
      return json(
        409,
        { error: 'in-progress', message: 'this delivery is being handled; retry later' },
        { 'retry-after': '5' },
      );

    const work = process(delivery, token);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      if (Number.isFinite(ackAfterMs))
        timer = setTimeout(() => resolve('late'), Math.max(0, ackAfterMs - (Date.now() - arrived)));
    });
    try {
      const outcome = await Promise.race([work.then(() => 'done' as const), late]);
      if (outcome === 'late') {
        // Acknowledged before the deadline; a failure after this point was reported through onError and released
        // the claim, and the platform does not retry a 2xx: log it.
        const background = work.catch(() => {});
        (call?.waitUntil ?? options.waitUntil)?.(background);
        return json(202, { ok: true, processing: true });
      }
      return json(200, { ok: true });
    } catch {
      return json(500, { error: 'handler-failed', message: 'the handler failed; the platform will retry' });
    } finally {
      clearTimeout(timer);
    }
  };
  // A Hono route passes its context, not the request: its `c.req.raw` is the request (anything else fails at once).
  const fetchHandler = (input: Request | { req: { raw: Request } }) =>
    handle(input instanceof Request ? input : requestOf(input));
  return Object.assign(fetchHandler, { node: handleNode(fetchHandler, options.onError), handle });
}
