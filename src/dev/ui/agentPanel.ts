import type { HostEndpoint } from '../../host';
import { isSvcError } from '../../protocol/SvcError';
import type { DevConfig } from '../devContract';
import { redactSecrets } from '../redactSecrets';
import { copyButton, fill, h } from './dom';
import { prettyJson } from './callLog';
import { schemaForm } from './schemaForm';

interface ActionDecl {
  name: string;
  title: string;
  description: string;
  input_schema: Record<string, unknown>;
  confirm: string;
  annotations?: { destructive?: boolean };
}

/**
 * The agent panel: each declared action with a form from its `input_schema` (JSON for what a form cannot express),
 * invoked as an agent or as the person through the host's rules (confirm floor included); progress and elicit show
 * live (elicit as a sheet), then the whole result or error with a copy button. With the app closed, it is opened
 * first (in the current room), then invoked: the host waits for the app's handlers.
 */
export function agentPanel(
  actions: ActionDecl[],
  host: () => Promise<HostEndpoint | undefined>,
  endpoint?: DevConfig['mcp'],
) {
  const progress = new Map<string, HTMLElement>();
  const outputs: HTMLElement[] = [];
  const element = h('div', { 'data-testid': 'agent-panel' });
  const agentId = h('input', { value: 'agent-1', 'data-testid': 'agent-id', size: 10 });
  // Calls from MCP clients (svc dev's /mcp endpoint), newest first, beside the panel's own invocations.
  const noCall = () =>
    h(
      'p',
      { class: 'note' },
      endpoint
        ? 'No MCP call yet: connect an MCP client to the endpoint above and ask it to use a tool.'
        : 'No MCP call yet: this platform serves no MCP endpoint (started with mcp: false).',
    );
  const mcpList = h('div', { 'data-testid': 'mcp-calls' }, noCall());
  let mcpCount = 0;
  // The endpoint and what to paste into Claude Code (the command carries the token, so it is copied, not shown).
  const endpointRow = endpoint
    ? h(
        'div',
        { class: 'row', 'data-testid': 'mcp-endpoint' },
        h('code', { class: 'grow' }, endpoint.url),
        copyButton(endpoint.url, 'Copy the MCP endpoint'),
        copyButton(
          `claude mcp add --transport http svc ${endpoint.url} --header "${endpoint.header}"`,
          'Copy the Claude Code command',
          'Copy for Claude Code',
        ),
      )
    : null;
  const shown = (kind: string, text: string) =>
    h(
      'div',
      { class: 'json' },
      h(
        'div',
        { class: 'row' },
        h('strong', { class: `grow ${kind}` }, kind === 'ok' ? 'Result' : 'Error'),
        copyButton(text),
      ),
      h('pre', { class: kind }, text),
    );
  fill(
    element,
    h('label', { class: 'row' }, 'Agent id', agentId),
    h('h3', {}, 'MCP calls'),
    endpointRow,
    mcpList,
    actions.length ? null : h('p', { class: 'note' }, 'The manifest declares no actions.'),
    ...actions.map((action) => {
      const form = schemaForm(action.input_schema, `input-${action.name}`);
      const out = h('div', { 'data-testid': `result-${action.name}` });
      const live = h('div', { class: 'note', 'data-testid': `progress-${action.name}` });
      progress.set(action.name, live);
      outputs.push(out, live);
      const run = async (by: 'agent' | 'user') => {
        let input: unknown;
        try {
          input = form.read();
        } catch (error) {
          return fill(out, h('span', { class: 'err' }, (error as Error).message));
        }
        fill(live);
        fill(out, h('span', { class: 'pending' }, 'running…'));
        const current = await host();
        if (!current)
          return fill(
            out,
            h('span', { class: 'err' }, 'The app could not be opened: see the notice above the timeline.'),
          );
        try {
          const context = by === 'agent' ? { invoked_by: by, agent_id: agentId.value } : { invoked_by: by };
          const result = await current.invokeAction(action.name, input, context as { invoked_by: 'agent' | 'user' });
          fill(out, shown('ok', prettyJson(result)));
        } catch (error) {
          const text = isSvcError(error)
            ? prettyJson({ code: error.code, message: error.message, retriable: error.retriable, method: error.method })
            : String(error);
          fill(out, shown('err', text));
        }
      };
      return h(
        'div',
        { class: 'action', 'data-testid': `action-${action.name}` },
        h('strong', {}, action.title),
        h(
          'div',
          { class: 'note' },
          `${action.name} · confirm: ${action.confirm}${action.annotations?.destructive ? ' · destructive' : ''}`,
        ),
        h('p', { class: 'note' }, action.description),
        form.element,
        h(
          'div',
          { class: 'row' },
          h(
            'button',
            { class: 'primary', 'data-testid': `invoke-agent-${action.name}`, onclick: () => run('agent') },
            'Invoke as agent',
          ),
          h('button', { 'data-testid': `invoke-user-${action.name}`, onclick: () => run('user') }, 'Invoke as person'),
        ),
        live,
        out,
      );
    }),
  );
  return {
    element,
    progress(action: string, message: string) {
      // The page never shows a usable token, whoever invoked the action.
      progress.get(action)?.append(h('div', {}, `▸ ${redactSecrets(message)}`));
    },
    /** Empties the results, the progress and the list of MCP calls (a reset to a fresh state). */
    clear() {
      for (const out of outputs) fill(out);
      mcpCount = 0;
      fill(mcpList, noCall());
    },
    /**
     * Lists an MCP client's call; the returned functions add its progress and its outcome (each as the agent got it,
     * tokens and secrets redacted).
     */
    showMcp(call: { name: string; agent_id: string; shown_input: unknown }) {
      if (!mcpCount++) fill(mcpList);
      const live = h('div', { class: 'note' });
      const out = h('div', {}, h('pre', { class: 'pending' }, 'running…'));
      mcpList.prepend(
        h(
          'div',
          { class: 'action', 'data-testid': 'mcp-call', 'data-action': call.name },
          h('strong', {}, `${call.name} · MCP · ${call.agent_id}`),
          h('pre', { class: 'note' }, prettyJson(call.shown_input)),
          live,
          out,
        ),
      );
      return {
        progress: (message: string) => live.append(h('div', {}, `▸ ${message}`)),
        done(text: string, ok: boolean) {
          fill(out, shown(ok ? 'ok' : 'err', text));
        },
      };
    },
  };
}
