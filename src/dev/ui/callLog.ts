import { tapCalls } from '../../host/tapCalls';
import type { Transport } from '../../rpc/Transport';
import { copyButton, fill, h, redactTokens } from './dom';

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

/** JSON for people: indented, `undefined` named as such, tokens redacted; a value too deep to serialise says so. */
export const prettyJson = (value: unknown) => {
  try {
    return value === undefined ? 'undefined' : (JSON.stringify(redactTokens(value), null, 2) ?? 'undefined');
  } catch {
    return '(nested too deeply to show)';
  }
};

/**
 * The call log, like a browser's network panel: every call the app made on the bridge with its time, method,
 * status and duration; a row opens to its params and its answer or SvcError as indented JSON, each with a copy
 * button; a marker at each launch and reload; a filter and a clear button. Anything shaped like a token is
 * redacted. Rows are added and updated one by one: a new call never rebuilds the table or loses the scroll.
 */
export function createCallLog() {
  const calls: LoggedCall[] = [];
  const body = h('tbody', {});
  const filter = h('input', {
    type: 'search',
    class: 'grow',
    placeholder: 'Filter by method or text',
    'aria-label': 'Filter calls',
    'data-testid': 'call-filter',
    oninput: () => applyFilter(),
  });
  const element = h(
    'div',
    { 'data-testid': 'call-log' },
    h(
      'div',
      { class: 'row' },
      filter,
      h(
        'button',
        {
          'data-testid': 'call-clear',
          onclick: () => {
            calls.length = 0;
            fill(body);
          },
        },
        'Clear',
      ),
    ),
    h(
      'table',
      { class: 'log' },
      h('thead', {}, h('tr', {}, ...['Time', 'Method', 'Status', 'Duration'].map((t) => h('th', { scope: 'col' }, t)))),
      body,
    ),
  );
  let heard: (() => void) | undefined;
  let via: string | undefined;

  const applyFilter = () => {
    const text = filter.value.trim().toLowerCase();
    for (const row of body.querySelectorAll<HTMLElement>('tr[data-text]')) {
      const out = !!text && !row.dataset.text!.includes(text);
      // A details row shows only while its call is opened.
      row.hidden = out || (row.classList.contains('more') && row.dataset.open !== 'true');
    }
  };

  const add = (call: LoggedCall) => {
    const status = h('td', { class: 'pending' }, 'pending');
    const duration = h('td', {}, '…');
    const details = h('td', { colspan: 4 });
    const open = h('button', { class: 'link', 'aria-expanded': 'false' }, call.method);
    const row = h(
      'tr',
      { 'data-testid': 'call-row', 'data-method': call.method },
      h('td', { class: 'note' }, new Date(call.at).toLocaleTimeString()),
      h('td', {}, open, call.via ? h('div', { class: 'note', 'data-testid': 'call-via' }, call.via) : null),
      status,
      duration,
    );
    const more = h('tr', { class: 'more', hidden: true }, details);
    const show = () =>
      fill(
        details,
        section('Params', call.params),
        call.error
          ? section('Error', call.error)
          : call.ms === undefined
            ? h('p', { class: 'note' }, 'No answer yet.')
            : section('Result', call.result),
      );
    open.addEventListener('click', () => {
      more.dataset.open = String(more.dataset.open !== 'true');
      more.hidden = more.dataset.open !== 'true';
      open.setAttribute('aria-expanded', more.dataset.open);
      if (!more.hidden) show();
    });
    const update = () => {
      const text =
        `${call.method} ${call.via ?? ''} ${prettyJson(call.params)} ${call.error ? call.error.code : ''}`.toLowerCase();
      row.dataset.text = text;
      more.dataset.text = text;
      if (call.ms === undefined) return;
      status.className = call.error ? 'err' : 'ok';
      status.textContent = call.error ? call.error.code : 'ok';
      duration.textContent = `${call.ms} ms`;
      if (!more.hidden) show();
    };
    update();
    body.prepend(row, more);
    applyFilter();
    return update;
  };

  const updates = new WeakMap<LoggedCall, () => void>();
  /** Wraps the channel to the app so each request is paired with its answer. */
  const tap = (transport: Transport): Transport => {
    const tapped = tapCalls<LoggedCall>(transport, {
      start(method, params, request) {
        const call: LoggedCall = {
          method,
          params,
          at: Date.now(),
          ...(request ? {} : { ms: 0 }),
          ...(via ? { via } : {}),
        };
        calls.push(call);
        updates.set(call, add(call));
        return call;
      },
      settle(call, answer) {
        call.ms = Date.now() - call.at;
        Object.assign(call, answer);
        updates.get(call)?.();
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
    element,
    calls,
    tap,
    /** A marker row: a launch, a reload. */
    mark(text: string) {
      body.prepend(h('tr', { class: 'mark', 'data-testid': 'call-mark' }, h('td', { colspan: 4 }, `▸ ${text}`)));
    },
    /** Marks the calls made from now on as made for someone else (an MCP agent); undefined stops marking. */
    markVia(label: string | undefined) {
      via = label;
    },
    /** Told of every message from the app (the first one is its hello). */
    onHeard: (fn: () => void) => (heard = fn),
  };
}

/** A titled JSON block with a copy button. */
function section(title: string, value: unknown) {
  const text = prettyJson(value);
  return h(
    'div',
    { class: 'json' },
    h('div', { class: 'row' }, h('strong', { class: 'grow' }, title), copyButton(text, `Copy ${title.toLowerCase()}`)),
    h('pre', { 'data-testid': `call-${title.toLowerCase()}` }, text),
  );
}
