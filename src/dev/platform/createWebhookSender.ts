import { redactSecrets } from '../redactSecrets';
import pLimit from 'p-limit';
import { postOnce, shownUrl, undeliveredWhy } from '../../server/postOnce';
import { signRequest } from '../../server/signRequest';
import type { DevDelivery } from '../devContract';
import { LIMITS } from '../limits';
import { webhookBody } from '../webhookBody';

/** Options of {@link createWebhookSender}. @internal */
export interface WebhookSenderOptions {
  /** The backend's webhook URL (`--webhooks`). */
  url: string;
  miniAppId: string;
  /**
   * The secrets valid now, newest first (read at each attempt, so a rotation applies at once). Only the first, the
   * current one, signs: `X-Svc-Signature` carries exactly one `v0=` signature, and during a rotation's overlap it is
   * the backend that holds both secrets (docs/decisions.md).
   */
  secrets(): string[];
  /** Multiplies every backoff delay: 1 is real time (1 s, 2 s, 4 s…), 0.01 compresses it for development. */
  retryScale?: number;
  /** Attempts in all before a delivery is marked failed. Default 6. */
  maxAttempts?: number;
  /** The answer budget per attempt in ms. Default 5 000 (the platform's). */
  timeoutMs?: number;
  /**
   * Keeps a new delivery in the state and returns the object the state holds, which the attempts then change (so
   * every change is saved).
   */
  add?(delivery: DevDelivery): DevDelivery;
  /** Called after each attempt (save + stream the delivery). */
  changed(delivery: DevDelivery): void;
}

/**
 * Sends signed webhooks to the backend, a few attempts at a time, retrying failures (non-2xx, network error, over
 * 5 s) with exponential backoff, and keeping every attempt in the delivery log.
 * @internal
 */
export function createWebhookSender(options: WebhookSenderOptions) {
  const scale = options.retryScale ?? 1;
  const maxAttempts = options.maxAttempts ?? 6;
  const timeoutMs = options.timeoutMs ?? 5000;
  const url = new URL(options.url);
  // What the deliveries record and the messenger shows: no password of the URL's.
  const shown = shownUrl(url);
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let closed = false;
  // Aborts the attempts in flight when the platform stops: Ctrl-C does not wait out a backend's 5 s.
  const stopping = new AbortController();
  // A few attempts at a time, the rest in the order they became due (LIMITS.webhookAttemptsInFlight).
  const inFlight = pLimit(LIMITS.webhookAttemptsInFlight);
  const queue = (delivery: DevDelivery) => void inFlight(() => attempt(delivery));

  async function attempt(delivery: DevDelivery): Promise<void> {
    const body = webhookBody(delivery.payload);
    const started = Date.now();
    const record: DevDelivery['attempts'][number] = { at: new Date(started).toISOString(), duration_ms: 0 };
    try {
      const timestamp = Math.floor(Date.now() / 1000);
      const [secret = ''] = options.secrets();
      const headers = await signRequest({ body, secret, miniAppId: options.miniAppId, timestamp });
      const sent: Record<string, string> = {
        'Content-Type': 'application/json',
        ...headers,
        'X-Svc-Delivery-Id': delivery.id,
      };
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([timeout, stopping.signal]);
      const response = await postOnce(url, sent, body, signal).catch((error: unknown) => {
        throw new Error(timeout.aborted ? 'timeout' : undeliveredWhy(error, url));
      });
      // What the inspector shows: the headers as sent, the signature cut to its prefix (enough to tell two apart).
      delivery.headers = Object.fromEntries(
        Object.entries(sent).map(([k, v]) => [k, /signature/i.test(k) ? `${v.slice(0, 12)}…[redacted]` : v]),
      );
      record.status = response.status;
      // A backend's answer may echo what it was sent or holds (a token, the signing secret in a debug message): the
      // state, the page and the state file keep it redacted.
      record.response_body = redactSecrets(response.text, options.secrets()).slice(0, 2000);
    } catch (error) {
      record.error = (error as Error).message;
    }
    record.duration_ms = Date.now() - started;
    if (stopping.signal.aborted && record.status === undefined) {
      // Cut short by the stop, not answered: no attempt to count. It stays pending, sent again at the next start.
      delivery.next_attempt_at = new Date().toISOString();
      options.changed(delivery);
      return;
    }
    delivery.attempts.push(record);
    const ok = record.status !== undefined && record.status >= 200 && record.status < 300;
    if (ok) {
      delivery.state = 'delivered';
      delete delivery.next_attempt_at;
    } else if (delivery.attempts.length >= maxAttempts) {
      delivery.state = 'failed';
      delete delivery.next_attempt_at;
    } else if (closed) {
      // Stopped: it stays pending, and the next start with the same state sends it again.
      delivery.next_attempt_at = new Date().toISOString();
    } else {
      const delay = 1000 * 2 ** (delivery.attempts.length - 1) * scale;
      delivery.next_attempt_at = new Date(Date.now() + delay).toISOString();
      const timer = setTimeout(() => {
        timers.delete(timer);
        queue(delivery);
      }, delay);
      timers.add(timer);
    }
    options.changed(delivery);
  }

  return {
    /** The URL as the deliveries record it (without a password it carries). */
    url: shown,
    /** Creates a delivery (`resendOf`: the one it sends again), sends it, and returns it (its state changes as attempts happen). */
    send(event: string, payload: Record<string, unknown>, resendOf?: string): DevDelivery {
      const created: DevDelivery = {
        id: crypto.randomUUID(),
        event,
        payload,
        url: shown,
        state: 'pending',
        attempts: [],
        ...(resendOf ? { resend_of: resendOf } : {}),
      };
      const delivery = options.add ? options.add(created) : created;
      queue(delivery);
      return delivery;
    },
    /** Sends a delivery left pending by a stopped platform, at its planned time (at once when that has passed). */
    resume(delivery: DevDelivery) {
      const due = delivery.next_attempt_at ? Date.parse(delivery.next_attempt_at) - Date.now() : 0;
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          queue(delivery);
        },
        Math.min(Math.max(0, Number.isFinite(due) ? due : 0), 60_000),
      );
      timers.add(timer);
    },
    /** Stops pending retries. */
    close() {
      closed = true;
      stopping.abort();
      // Attempts still waiting their turn are not made: their deliveries stay pending for the next start.
      inFlight.clearQueue();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** A running webhook sender. @internal */
export type WebhookSender = ReturnType<typeof createWebhookSender>;
