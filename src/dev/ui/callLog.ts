import { tapCalls } from '../../host/tapCalls';
import type { Transport } from '../../rpc/Transport';
import { fill, h, redactTokens } from './dom';

/** One bridge call, as the log shows it. */
export interface LoggedCall {
  method: string;
  params: unknown;
  at: number;
  ms?: number;
  result?: unknown;
  error?: { code: string; message: string };
  /** Who the call was made for when not the person in the page, e.g. `MCP · claude-code`. */
  via?: string;
}

/**
 * The call log, like a browser's network panel: every call the app made on the bridge, with its params, its
 * answer or SvcError, and its time; anything shaped like a token is shown redacted.
 */
export function createCallLog() {
  const calls: LoggedCall[] = [];
  const body = h('tbody', {});
  const element = h('table', { class: 'log', 'data-testid': 'call-log' }, body);
  let via: string | undefined;

  const render = () => {
    fill(
      body,
      ...calls
        .slice()
        .reverse()
        .map((c) =>
          h(
            'tr',
            { 'data-testid': 'call-row', 'data-method': c.method },
            h(
              'td',
              {},
              h('strong', {}, c.method),
              c.via ? h('div', { class: 'note', 'data-testid': 'call-via' }, c.via) : null,
              h('div', { class: 'note' }, c.ms === undefined ? '…' : `${c.ms} ms`),
            ),
            h('td', {}, h('pre', {}, JSON.stringify(redactTokens(c.params)))),
            h(
              'td',
              { class: c.error ? 'err' : c.ms === undefined ? 'pending' : 'ok' },
              h(
                'pre',
                {},
                c.error
                  ? `${c.error.code}: ${c.error.message}`
                  : c.ms === undefined
                    ? 'pending'
                    : JSON.stringify(redactTokens(c.result)),
              ),
            ),
          ),
        ),
    );
  };

  /** Wraps the channel to the app so each request is paired with its answer. */
  const tap = (transport: Transport): Transport =>
    tapCalls<LoggedCall>(transport, {
      start(method, params, request) {
        const call: LoggedCall = {
          method,
          params,
          at: Date.now(),
          ...(request ? {} : { ms: 0 }),
          ...(via ? { via } : {}),
        };
        calls.push(call);
        render();
        return call;
      },
      settle(call, answer) {
        call.ms = Date.now() - call.at;
        Object.assign(call, answer);
        render();
      },
    });

  return {
    element,
    tap,
    /** Marks the calls made from now on as made for someone else (an MCP agent); undefined stops marking. */
    mark(label: string | undefined) {
      via = label;
    },
  };
}
