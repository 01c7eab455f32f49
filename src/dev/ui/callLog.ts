import { isFrame, PEER } from '../../protocol/frames';
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
}

/**
 * The call log, like a browser's network panel: every call the app made on the bridge, with its params, its
 * answer or SvcError, and its time; anything shaped like a token is shown redacted.
 */
export function createCallLog() {
  const calls: LoggedCall[] = [];
  const body = h('tbody', {});
  const element = h('table', { class: 'log', 'data-testid': 'call-log' }, body);
  let listener: (() => void) | undefined;

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
    listener?.();
  };

  /** Wraps the channel to the app so each request is paired with its answer by id. */
  const tap = (transport: Transport): Transport => {
    const open = new Map<string, LoggedCall>();
    return {
      send(message) {
        if (isFrame(message) && typeof message.id == 'string' && message.method === undefined) {
          const call = open.get(message.id);
          if (call) {
            open.delete(message.id);
            call.ms = Date.now() - call.at;
            if (message.error) call.error = message.error as LoggedCall['error'];
            else call.result = message.result;
            render();
          }
        }
        return transport.send(message);
      },
      listen(receive) {
        transport.listen((message) => {
          if (
            isFrame(message) &&
            typeof message.method == 'string' &&
            !Object.values<string>(PEER).includes(message.method)
          ) {
            const call: LoggedCall = { method: message.method, params: message.params, at: Date.now() };
            if (typeof message.id == 'string') open.set(message.id, call);
            else call.ms = 0;
            calls.push(call);
            render();
          }
          receive(message);
        });
      },
      close: () => transport.close(),
    };
  };

  return { element, calls, tap, onChange: (fn: () => void) => (listener = fn) };
}
