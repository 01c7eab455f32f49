import { signRequest } from '../../server/signRequest';
import type { DevDelivery } from '../protocol';

/** Options of {@link createWebhookSender}. @internal */
export interface WebhookSenderOptions {
  /** The backend's webhook URL (`--webhooks`). */
  url: string;
  miniAppId: string;
  /** The current signing secret (read at each attempt, so a rotation applies at once). */
  secret(): string;
  /** Multiplies every backoff delay: 1 is real time (1 s, 2 s, 4 s…), 0.01 compresses it for development. */
  retryScale?: number;
  /** Attempts in all before a delivery is marked failed. Default 6. */
  maxAttempts?: number;
  /** The answer budget per attempt in ms. Default 5 000 (the interface's). */
  timeoutMs?: number;
  /** Called after each attempt (save + stream the delivery). */
  changed(delivery: DevDelivery): void;
}

/**
 * Sends signed webhooks to the backend, retrying failures (non-2xx, network error, over 5 s) with exponential
 * backoff, and keeping every attempt in the delivery log.
 * @internal
 */
export function createWebhookSender(options: WebhookSenderOptions) {
  const scale = options.retryScale ?? 1;
  const maxAttempts = options.maxAttempts ?? 6;
  const timeoutMs = options.timeoutMs ?? 5000;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let closed = false;

  async function attempt(delivery: DevDelivery): Promise<void> {
    const body = JSON.stringify(delivery.payload);
    const started = Date.now();
    const record: DevDelivery['attempts'][number] = { at: new Date(started).toISOString(), duration_ms: 0 };
    try {
      const headers = { ...(await signRequest({ body, secret: options.secret(), miniAppId: options.miniAppId })) };
      const sent: Record<string, string> = {
        'Content-Type': 'application/json',
        ...headers,
        'X-Svc-Delivery-Id': delivery.id,
      };
      const response = await fetch(options.url, {
        method: 'POST',
        headers: sent,
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      // What the inspector shows: the headers as sent, the signature cut to its prefix (enough to tell two apart).
      delivery.headers = Object.fromEntries(
        Object.entries(sent).map(([k, v]) => [k, /signature/i.test(k) ? `${v.slice(0, 12)}…[redacted]` : v]),
      );
      record.status = response.status;
      record.response_body = (await response.text()).slice(0, 2000);
    } catch (error) {
      record.error = (error as Error).name === 'TimeoutError' ? 'timeout' : (error as Error).message;
    }
    record.duration_ms = Date.now() - started;
    delivery.attempts.push(record);
    const ok = record.status !== undefined && record.status >= 200 && record.status < 300;
    if (ok) {
      delivery.state = 'delivered';
      delete delivery.next_attempt_at;
    } else if (delivery.attempts.length >= maxAttempts || closed) {
      delivery.state = 'failed';
      delete delivery.next_attempt_at;
    } else {
      const delay = 1000 * 2 ** (delivery.attempts.length - 1) * scale;
      delivery.next_attempt_at = new Date(Date.now() + delay).toISOString();
      const timer = setTimeout(() => {
        timers.delete(timer);
        void attempt(delivery);
      }, delay);
      timers.add(timer);
    }
    options.changed(delivery);
  }

  return {
    /** Creates a delivery (`resendOf`: the one it sends again), sends it, and returns it (its state changes as attempts happen). */
    send(event: string, payload: Record<string, unknown>, resendOf?: string): DevDelivery {
      const delivery: DevDelivery = {
        id: crypto.randomUUID(),
        event,
        payload,
        url: options.url,
        state: 'pending',
        attempts: [],
        ...(resendOf ? { resend_of: resendOf } : {}),
      };
      void attempt(delivery);
      return delivery;
    },
    /** Stops pending retries. */
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** A running webhook sender. @internal */
export type WebhookSender = ReturnType<typeof createWebhookSender>;
