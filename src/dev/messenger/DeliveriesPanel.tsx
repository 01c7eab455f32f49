import { signal } from '@preact/signals';
import { WEBHOOK_EVENTS } from '../../server/events';
import type { DevDelivery, DevState, DevUser } from '../devContract';
import { JsonBlock } from './CopyButton';
import type { Messenger } from './Messenger';
import { scopeInWords } from './scopeInWords';
import { time } from './SettingsPanel';
import { toast } from './toasts';
import { LIMITS } from '../limits';
import { failedNotSentAgain } from '../failedNotSentAgain';

/** Which deliveries are opened, the event filter and the test event: kept while the tab is not shown. */
const opened = new Set<string>();
const shownEvent = signal('');
const testEvent = signal<string>(WEBHOOK_EVENTS[0]);

const OVERLAP_401 =
  'Refused during a secret rotation: this webhook is signed with the new secret only, so your backend may hold only the old secret: give it both (SVC_SIGNING_SECRET and SVC_SIGNING_SECRET_PREVIOUS; createWebhookHandler({ secrets: [current, previous] })).';
const short = (id: string) => id.slice(0, 8);
const json = (value: unknown) => JSON.stringify(value, null, 2);

/** Whether `at` falls in a rotation's overlap (the previous secret still verified then). */
function inOverlap(state: DevState['secret'], at: string): boolean {
  const until = state.previous_valid_until;
  return until !== undefined && Date.parse(at) < Date.parse(until);
}

/** The delivery's summary: event, state, last status, and whom and which scope it is about. */
function Summary({ d, person, duplicate }: { d: DevDelivery; person: DevUser | undefined; duplicate: boolean }) {
  const last = d.attempts.at(-1);
  const about = person
    ? `${person.display_name} (${person.app_user_id}, ${person.tenant_id})`
    : `tenant ${String(d.payload.tenant_id ?? '')}`;
  const scope = d.payload.scope ? ` · ${scopeInWords(String(d.payload.scope))} (${String(d.payload.scope)})` : '';
  return (
    <summary>
      <strong>{d.event}</strong>{' '}
      <span class={d.state === 'delivered' ? 'ok' : d.state === 'failed' ? 'err' : 'pending'}>{d.state}</span>
      {last ? ` · ${last.status ?? last.error}` : ''}
      {duplicate ? (
        <span class="chip" data-testid="duplicate">
          duplicate
        </span>
      ) : null}
      <div class="note">{`${about}${scope} · ${short(d.id)}`}</div>
    </summary>
  );
}

/** Each attempt's status, timing and response body; a 401 during a rotation says what the backend lacks. */
function Attempts({ d, secret }: { d: DevDelivery; secret: DevState['secret'] }) {
  return (
    <>
      <strong>Attempts</strong>
      {d.attempts.map((a, i) => (
        <div key={i} class="attempt" data-testid="attempt">
          <div class={a.status && a.status < 300 ? 'ok' : 'err'}>
            {`#${i + 1} ${time(a.at)} · ${a.status ?? a.error} · ${a.duration_ms} ms`}
          </div>
          {a.response_body ? <pre data-testid="response-body">{a.response_body}</pre> : null}
          {a.status === 401 && inOverlap(secret, a.at) ? (
            <p class="note" data-testid="overlap-401">
              {OVERLAP_401}
            </p>
          ) : null}
        </div>
      ))}
    </>
  );
}

/** One delivery, opened or closed as the person left it. */
function Delivery({ d, m }: { d: DevDelivery; m: Messenger }) {
  const person = m.store.slices.users.value.find((u) => u.app_user_id === d.payload.app_user_id);
  const duplicate = !!d.attempts.at(-1)?.response_body?.includes('"duplicate":true');
  const toggle = (event: Event) => {
    if ((event.currentTarget as HTMLDetailsElement).open) opened.add(d.id);
    else opened.delete(d.id);
  };
  return (
    <details
      class="action"
      id={`delivery-${d.id}`}
      data-testid="delivery"
      data-event={d.event}
      data-state={d.state}
      open={opened.has(d.id)}
      hidden={!!shownEvent.value && d.event !== shownEvent.value}
      onToggle={toggle}
    >
      <Summary d={d} person={person} duplicate={duplicate} />
      {d.resend_of ? (
        <p class="note" data-testid="resend-of">
          {'Sent again from '}
          <a href={`#delivery-${d.resend_of}`}>{short(d.resend_of)}</a>
          {duplicate ? ': the backend answered that it had handled it already (same body, same idempotency key).' : '.'}
        </p>
      ) : null}
      <div class="note">{`POST ${d.url}`}</div>
      <JsonBlock title="Headers" text={json(d.headers ?? {})} testid="delivery-headers" />
      <JsonBlock title="Payload" text={json(d.payload)} testid="delivery-payload" />
      <Attempts d={d} secret={m.store.slices.secret.value} />
      {d.next_attempt_at ? <div class="pending">{`Next attempt at ${time(d.next_attempt_at)}`}</div> : null}
      <button type="button" data-testid="resend" onClick={() => m.act('POST /__svc/deliveries/resend', { id: d.id })}>
        Send again
      </button>
    </details>
  );
}

/**
 * The filter by event, a test event (the contract's example about the person on screen, sent like any other), and
 * the failed deliveries sent again at once, for a backend that was down longer than the retries last.
 */
function Controls({ m, events, failed }: { m: Messenger; events: string[]; failed: number }) {
  const value = (e: Event) => (e.currentTarget as HTMLSelectElement).value;
  return (
    <>
      <div class="row">
        <label>
          {'Event '}
          <select
            aria-label="Filter by event"
            data-testid="delivery-filter"
            value={shownEvent.value}
            onChange={(e) => (shownEvent.value = value(e))}
          >
            {['', ...events].map((e) => (
              <option key={e} value={e}>
                {e || 'All events'}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div class="row">
        <label>
          {'Test event '}
          <select data-testid="test-event" value={testEvent.value} onChange={(e) => (testEvent.value = value(e))}>
            {WEBHOOK_EVENTS.map((e) => (
              <option key={e} value={e}>
                {e}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          data-testid="send-test-event"
          // Without a webhook URL there is nowhere to send it: the note below says how to give one.
          disabled={!m.config.webhooks}
          onClick={() => {
            const event = testEvent.value;
            // Said, as the delivery's row below is only seen.
            void m.act('POST /__svc/deliveries/test', { event }).then((next) => {
              if (next) toast(`Sent a test ${event} to your backend: its delivery is listed below.`, 'success');
            });
          }}
        >
          Send a test event
        </button>
      </div>
      {failed ? (
        <div class="row">
          <button
            type="button"
            data-testid="resend-failed"
            onClick={() => m.act('POST /__svc/deliveries/resend-failed', {})}
          >
            {`Send the ${failed === 1 ? 'failed one' : `${failed} failed ones`} again`}
          </button>
        </div>
      ) : null}
    </>
  );
}

/**
 * The webhook inspector: each delivery with the person and scope it is about, its target URL, the headers as sent
 * (signature cut to its prefix), the payload, and each attempt's status, timing and response body (a duplicate
 * says so); "send again" makes a new delivery linked to the original, and "Send the failed ones again" does so for
 * each failed one not sent again yet. A filter by event.
 */
export function DeliveriesPanel({ m }: { m: Messenger }) {
  const deliveries = m.store.slices.deliveries.value;
  const events = [...new Set(deliveries.map((d) => d.event))].sort();
  return (
    <div data-testid="deliveries">
      <Controls m={m} events={events} failed={failedNotSentAgain(deliveries).length} />
      <div class="list">
        {deliveries.length ? null : (
          <p class="note">
            {m.config.webhooks
              ? `No webhook yet: the platform sends them to ${m.config.webhooks} as the person installs, grants or revokes.`
              : 'No webhook yet (start svc dev with --webhooks <url>).'}
          </p>
        )}
        {deliveries
          .slice(-LIMITS.deliveriesShown)
          .reverse()
          .map((d) => (
            <Delivery key={d.id} d={d} m={m} />
          ))}
        {deliveries.length > LIMITS.deliveriesShown ? (
          <p class="note" data-testid="deliveries-earlier">
            {`${deliveries.length - LIMITS.deliveriesShown} earlier deliveries not shown: the latest ${LIMITS.deliveriesShown} are.`}
          </p>
        ) : null}
      </div>
    </div>
  );
}
