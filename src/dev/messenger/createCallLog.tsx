import { type Signal, signal } from '@preact/signals';
import { tapCalls } from '../../host/core';
import { LIMITS } from '../limits';
import type { Transport } from '../../rpc/Transport';
import { JsonBlock } from './CopyButton';
import { prettyJson } from './redactTokens';

/** The most of a call's params the filter reads (an app's texts may be megabytes). */
const SEARCHED_CHARACTERS = 10_000;

const searchTexts = new WeakMap<LoggedCall, string>();

/**
 * What the filter looks in, made once per state of a call and only when a filter is typed: its method, whom it was
 * made for, its params' first 10,000 characters as JSON and its error's code. Redacting and indenting each of 500
 * rows' params (a progress message of megabytes) on every render held the Calls tab a second.
 */
function searchText(call: LoggedCall): string {
  let text = searchTexts.get(call);
  if (text === undefined) {
    const params = JSON.stringify(call.params ?? null).slice(0, SEARCHED_CHARACTERS);
    text = `${call.method} ${call.via ?? ''} ${params} ${call.error ? call.error.code : ''}`.toLowerCase();
    searchTexts.set(call, text);
  }
  return text;
}

/** One bridge call, as the log shows it. */
export interface LoggedCall {
  method: string;
  params: unknown;
  at: number;
  ms?: number;
  result?: unknown;
  error?: { code: string; message: string };
  /** Who the call was made for, when not the person (an MCP agent's call). */
  via?: string;
}

/** A row of the log: a call (its own signal, so an answer renders that row alone) or a marker. */
type Entry = { id: number; mark: string } | { id: number; call: Signal<LoggedCall>; open: Signal<boolean> };

/** The call log: the model the {@link CallLog} component shows, and what the host and the page tell it. */
export interface CallLogModel {
  /** Wraps the channel to the app so each request is paired with its answer. */
  tap(transport: Transport): Transport;
  /** A marker row: a launch, a reload. */
  mark(text: string): void;
  /** Marks the calls made from now on as made for someone else (an MCP agent); undefined stops marking. */
  markVia(label: string | undefined): void;
  /** Told of every message from the app (the first one is its hello). */
  onHeard(fn: () => void): void;
  readonly entries: Signal<Entry[]>;
  /** Rows dropped from the end to keep the latest {@link LIMITS.callLogRows}. */
  readonly earlier: Signal<number>;
  readonly filter: Signal<string>;
  /** Empties the log (its count of earlier rows too). */
  clear(): void;
}

/** The call log's model: rows newest first, the filter's text. */
export function createCallLog(): CallLogModel {
  const entries = signal<Entry[]>([]);
  const earlier = signal(0);
  let ids = 0;
  let heard: (() => void) | undefined;
  let via: string | undefined;
  const prepend = (entry: Entry) => {
    const kept = [entry, ...entries.value];
    if (kept.length > LIMITS.callLogRows) earlier.value += kept.splice(LIMITS.callLogRows).length;
    entries.value = kept;
  };
  const tap = (transport: Transport): Transport => {
    const tapped = tapCalls<Signal<LoggedCall>>(transport, {
      start(method, params, request) {
        const call = signal<LoggedCall>({
          method,
          params,
          at: Date.now(),
          ...(request ? {} : { ms: 0 }),
          ...(via ? { via } : {}),
        });
        prepend({ id: ++ids, call, open: signal(false) });
        return call;
      },
      settle(call, answer) {
        call.value = { ...call.value, ms: Date.now() - call.value.at, ...answer };
      },
    });
    return {
      ...tapped,
      listen(receive) {
        tapped.listen((message) => {
          heard?.();
          receive(message);
        });
      },
    };
  };
  return {
    tap,
    mark: (text) => prepend({ id: ++ids, mark: text }),
    markVia: (label) => {
      via = label;
    },
    onHeard: (fn) => {
      heard = fn;
    },
    entries,
    earlier,
    filter: signal(''),
    clear: () => {
      entries.value = [];
      earlier.value = 0;
    },
  };
}

/**
 * The call log, like a browser's network panel: every call the app made on the bridge with its time, method,
 * status and duration; a row opens to its params and its answer or SvcError as indented JSON, each with a copy
 * button; a marker at each launch and reload; a filter and a clear button. Anything shaped like a token is
 * redacted. Each row renders on its own: a new call never rebuilds the table or loses the scroll.
 */
export function CallLog({ log }: { log: CallLogModel }) {
  const text = log.filter.value.trim().toLowerCase();
  return (
    <div data-testid="call-log">
      <div class="row">
        <input
          type="search"
          class="grow"
          placeholder="Filter by method or text"
          aria-label="Filter calls"
          data-testid="call-filter"
          value={log.filter.value}
          onInput={(e) => (log.filter.value = (e.currentTarget as HTMLInputElement).value)}
        />
        <button type="button" data-testid="call-clear" onClick={() => log.clear()}>
          Clear
        </button>
      </div>
      <table class="log">
        <thead>
          <tr>
            {['Time', 'Method', 'Status', 'Duration'].map((t) => (
              <th key={t} scope="col">
                {t}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {log.entries.value.map((entry) =>
            'mark' in entry ? (
              <tr key={entry.id} class="mark" data-testid="call-mark">
                <td colSpan={4}>{`▸ ${entry.mark}`}</td>
              </tr>
            ) : (
              <CallRows key={entry.id} call={entry.call} open={entry.open} filter={text} />
            ),
          )}
          {log.earlier.value ? (
            <tr class="mark" data-testid="call-earlier">
              <td
                colSpan={4}
              >{`${log.earlier.value} earlier calls not shown: the latest ${LIMITS.callLogRows} are kept.`}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

/** A call's row, and its details row (shown while the call is opened). */
function CallRows({ call, open, filter }: { call: Signal<LoggedCall>; open: Signal<boolean>; filter: string }) {
  const c = call.value;
  const out = !!filter && !searchText(c).includes(filter);
  const settled = c.ms !== undefined;
  return (
    <>
      <tr data-testid="call-row" data-method={c.method} hidden={out}>
        <td class="note">{new Date(c.at).toLocaleTimeString()}</td>
        <td>
          <button
            type="button"
            class="link"
            aria-expanded={open.value ? 'true' : 'false'}
            onClick={() => (open.value = !open.value)}
          >
            {c.method}
          </button>
          {c.via ? (
            <div class="note" data-testid="call-via">
              {c.via}
            </div>
          ) : null}
        </td>
        <td class={settled ? (c.error ? 'err' : 'ok') : 'pending'}>{settled ? (c.error?.code ?? 'ok') : 'pending'}</td>
        <td>{settled ? `${c.ms} ms` : '…'}</td>
      </tr>
      <tr class="more" hidden={out || !open.value}>
        <td colSpan={4}>{open.value ? <CallDetails call={c} /> : null}</td>
      </tr>
    </>
  );
}

function CallDetails({ call }: { call: LoggedCall }) {
  const block = (title: string, value: unknown) => (
    <JsonBlock title={title} text={prettyJson(value)} testid={`call-${title.toLowerCase()}`} />
  );
  return (
    <>
      {block('Params', call.params)}
      {call.error ? (
        block('Error', call.error)
      ) : call.ms === undefined ? (
        <p class="note">No answer yet.</p>
      ) : (
        block('Result', call.result)
      )}
    </>
  );
}
