import { batch, type Signal, signal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { HostEndpoint } from '../../host/core';
import type { Manifest } from '../../manifest';
import { createInputValidator } from '../../manifest/createInputValidator';
import { isSvcError } from '../../protocol/SvcError';
import { agentError } from './agentError';
import type { DevConfig } from '../devContract';
import { redactSecrets } from '../redactSecrets';
import { CopyButton, scrollBox } from './CopyButton';
import { createSchemaForm, fieldMessages, refusedFields, type SchemaForm } from './createSchemaForm';
import { clipped, SHOWN_CHARACTERS } from './clipped';
import { prettyJson } from './redactTokens';

type ActionDecl = NonNullable<Manifest['actions']>[number];

/** What an invocation shows: running, refused before it ran, or its result or error (JSON, with copy). */
type Outcome = { kind: 'pending' } | { kind: 'refused'; text: string } | { kind: 'ok' | 'err'; text: string };

interface ActionView {
  action: ActionDecl;
  form: SchemaForm;
  progress: Signal<string[]>;
  outcome: Signal<Outcome | undefined>;
  /** Whether its card is open, when the panel folds them (more than {@link FOLD_AFTER} actions). */
  open: Signal<boolean>;
}

/** Past this many actions the cards are folded to a line each (a form is built when its card opens). */
const FOLD_AFTER = 12;
/** Past this many actions the panel has a filter. */
const FILTER_AFTER = 5;

interface McpRow {
  id: number;
  name: string;
  agent: string;
  /** The arguments as shown (redacted, cut), formatted when the row is first drawn. */
  input(): string;
  progress: Signal<string[]>;
  outcome: Signal<Outcome>;
}

/** The agent panel's model: each action's form and outcome, and the MCP calls, kept while the tab is not shown. */
export interface AgentPanelModel {
  readonly actions: ActionView[];
  /** The latest MCP calls, newest first: at most {@link MCP_ROWS}. */
  readonly mcpCalls: Signal<McpRow[]>;
  /** How many earlier MCP calls left the list (the terminal printed each). */
  readonly mcpEarlier: Signal<number>;
  readonly agentId: Signal<string>;
  /** The filter's text: the actions whose name, title or description hold it are listed. */
  readonly filter: Signal<string>;
  readonly endpoint: DevConfig['mcp'];
  /** Invokes an action from its form, as an agent or as the person. */
  run(view: ActionView, by: 'agent' | 'user'): Promise<void>;
  /** An invocation's progress message (tokens redacted). */
  progress(action: string, message: string): void;
  /** Empties the results, the progress and the list of MCP calls (a reset to a fresh state). */
  clear(): void;
  /** Lists an MCP client's call; the returned functions add its progress and its outcome (as the agent got it). */
  showMcp(call: { name: string; agent_id: string; shown_input: unknown }): {
    progress(message: string): void;
    done(text: string, ok: boolean): void;
  };
}

// As an agent is told it over MCP: the app's own sentence, without the function names the host's side put before it.
const errorText = (error: unknown) => (isSvcError(error) ? prettyJson(agentError(error)) : String(error));

/**
 * The agent panel's model: each declared action with a form from its `input_schema`, invoked as an agent or as the
 * person through the host's rules (confirm floor included). With the app closed, `host()` opens it first (in the
 * current room): the host waits for the app's handlers.
 */
export function createAgentPanel(
  actions: readonly ActionDecl[],
  host: () => Promise<HostEndpoint | undefined>,
  endpoint: DevConfig['mcp'],
): AgentPanelModel {
  const views: ActionView[] = actions.map((action) => ({
    action,
    form: createSchemaForm(action.input_schema, `input-${action.name}`, outcomeId(action.name)),
    progress: signal([]),
    outcome: signal(undefined),
    open: signal(false),
  }));
  const agentId = signal('agent-1');
  const filter = signal('');
  const mcp = mcpRows();
  const run = async ({ action, form, progress, outcome }: ActionView, by: 'agent' | 'user') => {
    let input: unknown;
    form.invalid.value = false;
    form.messages.value = {};
    try {
      input = form.read();
    } catch (error) {
      outcome.value = { kind: 'refused', text: (error as Error).message };
      return;
    }
    progress.value = [];
    outcome.value = { kind: 'pending' };
    const current = await host();
    if (!current) {
      outcome.value = { kind: 'refused', text: 'The app could not be opened: see the notice above the timeline.' };
      return;
    }
    try {
      const context = by === 'agent' ? { invoked_by: by, agent_id: agentId.value } : { invoked_by: by };
      outcome.value = { kind: 'ok', text: prettyJson(await current.invokeAction(action.name, input, context)) };
    } catch (error) {
      outcome.value = { kind: 'err', text: errorText(error) };
      // The host's refusal names the fields by their path: the same check, here, says which to mark.
      if (isSvcError(error) && error.code === 'ERR_ACTION_INVALID_INPUT') {
        const issues = createInputValidator(action.input_schema)(input);
        form.invalid.value = refusedFields(issues.map((i) => i.path));
        form.messages.value = fieldMessages(issues);
      }
    }
  };
  return {
    actions: views,
    mcpCalls: mcp.rows,
    mcpEarlier: mcp.earlier,
    agentId,
    filter,
    endpoint,
    run,
    progress(action, message) {
      // The page never shows a usable token, whoever invoked the action.
      const view = views.find((v) => v.action.name === action);
      if (!view) return;
      view.progress.value = [...view.progress.value, redactSecrets(message)];
      // A folded card opens to show what its invocation says.
      view.open.value = true;
    },
    clear() {
      for (const view of views) {
        view.progress.value = [];
        view.outcome.value = undefined;
      }
      mcp.clear();
    },
    showMcp: mcp.show,
  };
}

/**
 * The MCP calls' rows, newest first: the latest {@link MCP_ROWS}, and how many earlier ones left the list. Rows and
 * their changes reach the list together, at the next frame and while calls keep coming at most every
 * {@link ROWS_EVERY} ms: an agent's calls in a row share one render and one layout of the panel, not two per call
 * each in the way of the next call.
 */
function mcpRows() {
  const rows = signal<McpRow[]>([]);
  const earlier = signal(0);
  const together = renderedTogether();
  let ids = 0;
  return {
    rows,
    earlier,
    show(call: { name: string; agent_id: string; shown_input: unknown }) {
      let input: string | undefined;
      const row: McpRow = {
        id: ++ids,
        // An unknown tool's name is the agent's, of any length.
        name: clipped(call.name, NAME_CHARACTERS),
        agent: call.agent_id,
        // Formatted when drawn, not when the call arrives (it is on its way to the app first), and only for the rows
        // the list keeps: an agent's burst of refused calls, each answered at once, formats twenty at most.
        input: () => (input ??= clipped(prettyJson(call.shown_input), SHOWN_CHARACTERS)),
        progress: signal([]),
        outcome: signal({ kind: 'pending' }),
      };
      together(() => {
        // The latest calls only: each new row is laid out above the actions, so the browser's work per frame would
        // otherwise grow with the session.
        const kept = [row, ...rows.value];
        if (kept.length > MCP_ROWS) earlier.value += kept.length - MCP_ROWS;
        rows.value = kept.slice(0, MCP_ROWS);
      });
      return {
        progress: (message: string) =>
          together(() => {
            row.progress.value = [...row.progress.value, message];
          }),
        done: (text: string, ok: boolean) =>
          together(() => {
            row.outcome.value = { kind: ok ? 'ok' : 'err', text };
          }),
      };
    },
    /** Empties the list, after the rows queued before it (which would otherwise come back). */
    clear() {
      together(() => {
        rows.value = [];
        earlier.value = 0;
      });
    },
  };
}

/** The id of the element an action's refusal or error is in: the refused field is described by it. */
const outcomeId = (action: string) => `outcome-${action}`;

/** An outcome: `running…`, a refusal, or the whole result or error with a copy button. */
function OutcomeView({
  outcome,
  pre,
  id,
  of,
}: {
  outcome: Outcome | undefined;
  pre?: boolean;
  id?: string;
  /** What it is the outcome of, which names its copy button apart from the others. */
  of?: string;
}) {
  if (!outcome) return null;
  if (outcome.kind === 'pending')
    return pre ? <pre class="pending">running…</pre> : <span class="pending">running…</span>;
  if (outcome.kind === 'refused')
    return (
      <span class="err" id={id}>
        {outcome.text}
      </span>
    );
  return (
    <div class="json">
      <div class="row">
        <strong class={`grow ${outcome.kind}`}>{outcome.kind === 'ok' ? 'Result' : 'Error'}</strong>
        <CopyButton
          text={outcome.text}
          label={of ? `Copy the ${outcome.kind === 'ok' ? 'result' : 'error'} of ${of}` : 'Copy'}
        />
      </div>
      <pre
        class={outcome.kind}
        id={outcome.kind === 'err' ? id : undefined}
        {...scrollBox(outcome.text, `${outcome.kind === 'ok' ? 'Result' : 'Error'}${of ? ` of ${of}` : ''}`)}
      >
        {outcome.text}
      </pre>
    </div>
  );
}

/** What a screen reader hears of an outcome: a sentence (an error's code and message), not its JSON. */
function spoken(outcome: Outcome | undefined, of: string): { status: string; alert: string } {
  if (!outcome || outcome.kind === 'pending') return { status: '', alert: '' };
  if (outcome.kind === 'ok') return { status: `${of}: done; its result is below.`, alert: '' };
  if (outcome.kind === 'refused') return { status: '', alert: outcome.text };
  try {
    const { code, message } = JSON.parse(outcome.text) as { code?: unknown; message?: unknown };
    if (typeof code === 'string') return { status: '', alert: `${of} failed: ${code}: ${String(message)}` };
  } catch {
    // Not an error object: said as it is.
  }
  return { status: '', alert: `${of} failed: ${outcome.text}` };
}

/**
 * The outcome read out as it comes, with focus still on the button: two regions that stay on the page (a region
 * added with its text, or one whose kind changes with it, is not read reliably), a status for a result and an alert
 * for a refusal or an error, each a sentence.
 */
function Spoken({ outcome, of }: { outcome: Outcome | undefined; of: string }) {
  const { status, alert } = spoken(outcome, of);
  return (
    <>
      <span class="visually-hidden" role="status">
        {status}
      </span>
      <span class="visually-hidden" role="alert">
        {alert}
      </span>
    </>
  );
}

const Progress = ({ lines }: { lines: string[] }) => (
  <>
    {lines.map((line, i) => (
      <div key={i}>{`▸ ${line}`}</div>
    ))}
  </>
);

/** The line that names an action: its name, its confirm floor, whether it is destructive. */
const actionLine = (action: ActionDecl) =>
  `${action.name} · confirm: ${action.confirm}${action.annotations?.destructive ? ' · destructive' : ''}`;

/**
 * One declared action, folded to its title and name when the panel has many: the card opens (and its form is built)
 * when the person opens it, or when an invocation of it shows progress.
 */
function FoldedAction({ view, panel }: { view: ActionView; panel: AgentPanelModel }) {
  const { action } = view;
  return (
    <details
      class="action"
      data-testid={`action-${action.name}`}
      open={view.open.value}
      onToggle={(e) => (view.open.value = (e.currentTarget as HTMLDetailsElement).open)}
    >
      {/* A heading in its summary, as an open card's: heading navigation goes through the folded actions too. */}
      <summary>
        <h3 class="action-title folded" dir="auto">
          {action.title}
        </h3>
        <span class="note">{` ${actionLine(action)}`}</span>
      </summary>
      {view.open.value ? <ActionBody view={view} panel={panel} /> : null}
    </details>
  );
}

/** One declared action: its form, the two ways to invoke it, its progress and outcome. */
function ActionForm({ view, panel }: { view: ActionView; panel: AgentPanelModel }) {
  const { action } = view;
  return (
    <div class="action" data-testid={`action-${action.name}`}>
      {/* A heading each, so a screen reader goes from one action to the next. */}
      <h3 class="action-title" dir="auto">
        {action.title}
      </h3>
      <div class="note">{actionLine(action)}</div>
      <ActionBody view={view} panel={panel} />
    </div>
  );
}

/** An action's description, form, buttons, progress and outcome. */
function ActionBody({ view, panel }: { view: ActionView; panel: AgentPanelModel }) {
  const { action, form } = view;
  const formRef = useRef<HTMLFormElement>(null);
  // A refusal takes the focus to the first field it is about, as the elicit sheet does (a11y47: it stayed on Invoke).
  const refused = form.invalid.value;
  useLayoutEffect(() => {
    if (refused) formRef.current?.querySelector<HTMLElement>('[aria-invalid=true]')?.focus();
  }, [refused]);
  return (
    <>
      <p class="note" dir="auto">
        {action.description}
      </p>
      {/* A form, so that Enter in a field invokes as the agent, as a form submits (a11y47 F3); the fields are checked
          by the panel's own rules, not the browser's. */}
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          panel.run(view, 'agent');
        }}
      >
        <form.Form />
        <div class="row">
          <button
            type="submit"
            class="primary"
            data-testid={`invoke-agent-${action.name}`}
            aria-label={`Invoke as agent: ${action.title}`}
          >
            Invoke as agent
          </button>
          <button
            type="button"
            data-testid={`invoke-user-${action.name}`}
            aria-label={`Invoke as person: ${action.title}`}
            onClick={() => panel.run(view, 'user')}
          >
            Invoke as person
          </button>
        </div>
      </form>
      {/* Progress is read as a log; the outcome in sentences (Spoken), its JSON shown below for whoever reads it. */}
      <div class="note" role="log" data-testid={`progress-${action.name}`}>
        <Progress lines={view.progress.value} />
      </div>
      <Spoken outcome={view.outcome.value} of={action.title} />
      <div data-testid={`result-${action.name}`}>
        <OutcomeView outcome={view.outcome.value} id={outcomeId(action.name)} of={action.title} />
      </div>
    </>
  );
}

/** The MCP endpoint and what to paste into Claude Code (the command carries the token, so it is copied, not shown). */
function McpEndpoint({ endpoint }: { endpoint: NonNullable<DevConfig['mcp']> }) {
  return (
    <div class="row" data-testid="mcp-endpoint">
      <code class="grow">{endpoint.url}</code>
      <CopyButton text={endpoint.url} label="Copy the MCP endpoint" />
      <CopyButton
        text={`claude mcp add --transport http ${endpoint.name} ${endpoint.url} --header "${endpoint.header}"`}
        label="Copy for Claude Code: its claude mcp add command"
        caption="Copy for Claude Code"
      />
    </div>
  );
}

/**
 * One MCP call's row. It reads its own signals, so its progress and outcome re-render it alone, and @preact/signals
 * skips it when the list renders again with the same row (a new call renders one row, not every row before it: a
 * long session stays as fast as a new one).
 */
function McpCallRow({ row }: { row: McpRow }) {
  return (
    <div class="action" data-testid="mcp-call" data-action={row.name}>
      <strong>{`${row.name} · MCP · ${row.agent}`}</strong>
      <pre class="note">{row.input()}</pre>
      <div class="note">
        <Progress lines={row.progress.value} />
      </div>
      <div>
        <OutcomeView outcome={row.outcome.value} pre />
      </div>
    </div>
  );
}

/**
 * The least time between two renders of the MCP calls' rows while calls keep coming, in ms (four a second; one call
 * after a pause renders at the next frame). `node scripts/bench/mcp.mjs`: a call 0.6-2.0 ms quicker than with a render
 * per frame, which on 2 cores took the CPU the client and the platform needed.
 */
const ROWS_EVERY = 250;

/**
 * Runs updates together (one render) at the next animation frame, and while they keep coming at most every
 * {@link ROWS_EVERY} ms: an agent's calls back to back then share a render between many of them, where a render per
 * frame stood in the way of each next call. In a hidden tab they wait until it is shown, as its painting does.
 */
function renderedTogether(): (update: () => void) => void {
  let queued: Array<() => void> = [];
  let last = -Infinity;
  const run = () =>
    requestAnimationFrame(() => {
      last = performance.now();
      const updates = queued;
      queued = [];
      batch(() => {
        for (const update of updates) update();
      });
    });
  return (update) => {
    if (queued.push(update) > 1) return;
    const wait = last + ROWS_EVERY - performance.now();
    if (wait > 0) setTimeout(run, wait);
    else run();
  };
}

/** The most of a called tool's name a row shows (an agent may call one the app does not have, of any length). */
const NAME_CHARACTERS = 200;

/** How many MCP calls the agent panel lists, newest first. */
const MCP_ROWS = 20;

/** Calls from MCP clients (svc dev's /mcp endpoint), newest first, beside the panel's own invocations. */
function McpCalls({ panel }: { panel: AgentPanelModel }) {
  const rows = panel.mcpCalls.value;
  return (
    <div data-testid="mcp-calls">
      {rows.length ? null : (
        <p class="note">
          {panel.endpoint
            ? 'No MCP call yet: connect an MCP client to the endpoint above and ask it to use a tool.'
            : 'No MCP call yet: this platform serves no MCP endpoint (started with mcp: false).'}
        </p>
      )}
      {rows.map((row) => (
        <McpCallRow key={row.id} row={row} />
      ))}
      {panel.mcpEarlier.value ? (
        <p class="note" data-testid="mcp-earlier">
          {`${panel.mcpEarlier.value} earlier MCP call${panel.mcpEarlier.value === 1 ? '' : 's'} not shown: the terminal svc dev runs in printed each.`}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The agent panel: each declared action with a form from its `input_schema` (JSON for what a form cannot express),
 * invoked as an agent or as the person; progress and elicit show live (elicit as a sheet), then the whole result or
 * error with a copy button; the MCP clients' calls above.
 */
export function AgentPanel({ panel }: { panel: AgentPanelModel }) {
  return (
    <div data-testid="agent-panel">
      <label class="row">
        Agent id
        <input
          data-testid="agent-id"
          size={10}
          value={panel.agentId.value}
          onInput={(e) => (panel.agentId.value = (e.currentTarget as HTMLInputElement).value)}
        />
      </label>
      <h2 class="title">MCP calls</h2>
      {panel.endpoint ? <McpEndpoint endpoint={panel.endpoint} /> : null}
      <McpCalls panel={panel} />
      <h2 class="title">Actions</h2>
      {panel.actions.length ? null : <p class="note">The manifest declares no actions.</p>}
      <Actions panel={panel} />
    </div>
  );
}

/** The declared actions, filtered by the filter's text when there are more than a few, folded when there are many. */
function Actions({ panel }: { panel: AgentPanelModel }) {
  const all = panel.actions;
  const text = panel.filter.value.trim().toLowerCase();
  const shown = text
    ? all.filter(({ action }) =>
        [action.name, action.title, action.description].some((field) => field.toLowerCase().includes(text)),
      )
    : all;
  const Card = all.length > FOLD_AFTER ? FoldedAction : ActionForm;
  return (
    <>
      {all.length > FILTER_AFTER ? (
        <label class="row">
          Filter
          <input
            type="search"
            data-testid="action-filter"
            placeholder="name, title or description"
            value={panel.filter.value}
            onInput={(e) => (panel.filter.value = (e.currentTarget as HTMLInputElement).value)}
          />
          <span class="note" role="status" data-testid="action-count">
            {text ? `${shown.length} of ${all.length} actions` : `${all.length} actions`}
          </span>
        </label>
      ) : null}
      {shown.map((view) => (
        <Card key={view.action.name} view={view} panel={panel} />
      ))}
    </>
  );
}
