import { randomUUID } from 'node:crypto';
import type { DevEvent } from '../DevEvent';
import type { DevStreamEvents, McpPageBody, McpRouteHandlers, McpSent } from '../devContract';
import type { OpenPage } from '../PageChannel';
import { redactSecrets } from '../redactSecrets';
import { printable } from '../../manifest/printable';

/** One tool call to run in the messenger page. @internal */
export interface RelayCall {
  name: string;
  input: unknown;
  /** The agent id the host puts in the invocation's context (and the token's `act.sub`). */
  agentId: string;
  /**
   * Whether calling it again after it stopped halfway is harmless (the action is read-only or idempotent): only then
   * is a call cut off by a closing page retriable.
   */
  safeToRepeat?: boolean;
  /** Aborted when the MCP client cancels the call (or its stream closes). */
  signal: AbortSignal;
  /** Sends a progress message to the MCP client (a no-op when it sent no progress token). */
  progress(message: string): void;
  /**
   * Asks the MCP client instead of the person (`--elicit agent`); resolves `{ value }` (null when it declined), or
   * undefined when the client cannot answer this one, and the page's sheet asks the person instead.
   */
  elicit?(request: { prompt: string; schema: Record<string, unknown> }): Promise<{ value: unknown } | undefined>;
}

/** How a call ended: the handler's output, or an error to report as an `isError` result. @internal */
export type RelayOutcome =
  | { ok: true; value: unknown }
  | { ok: false; code: string; message: string; retriable: boolean };

/** What the relay needs from the platform. @internal */
export interface RelayOptions {
  /** The messenger page's event stream the calls go to (the newest open page), or undefined when none is open. */
  page(): OpenPage | undefined;
  /** Resolves when a call may look for its page: at once, unless a page is reloading (or `signal` aborts first). */
  pageReady?(signal?: AbortSignal): Promise<void>;
  /** Whether svc dev itself reloads `page` (for an edited manifest), rather than a person closing it. */
  reloadedBySvcDev?(page: OpenPage): boolean;
  /** The messenger's address without its launch token, named in errors. */
  pageOrigin: string;
  /** How long the person may take to answer a confirmation or elicit sheet before the agent is told to retry. */
  personTimeout: number;
  /** Interval of keepalive progress while a call waits (MCP clients time out after 60 s without progress). */
  keepalive: number;
  /** Exact secrets (tokens, the signing secrets) redacted, with anything token-shaped, from what the agent is sent. */
  secrets(): readonly string[];
  /** Told how each call ended, for the terminal. */
  onEnded?(event: Extract<DevEvent, { type: 'mcp' }>): void;
}

interface Running {
  id: string;
  call: RelayCall;
  page: OpenPage;
  finish(outcome: RelayOutcome): void;
  /** A sheet waits for the person (`confirming`: to confirm the call, so its handler has not run), or no longer. */
  waiting(on: boolean, confirming?: boolean): void;
  /** Whether the person is asked to confirm the call now: its handler has not run. */
  confirming(): boolean;
}

/** A control request body from the page about one running call. */
type PageBody = McpPageBody;

const fail = (code: string, message: string, retriable = false): Extract<RelayOutcome, { ok: false }> => ({
  ok: false,
  code,
  message,
  retriable,
});

/**
 * A text of the app's words for the agent (an error message, progress, an elicitation's prompt): its secrets
 * redacted, and what would hide in it or reorder it on the screen that shows it (a control character, a
 * bidirectional control, a zero-width or tag character) written as its `\u` escape, its lines kept, as the manifest's
 * text may not hold them at all. A result is data, and stays as the app returned it (redacted).
 */
const appWords = (text: string, secrets: readonly string[]) => printable(redactSecrets(text, secrets), { lines: true });

/**
 * An elicitation's schema for the agent: redacted, and its titles, descriptions and `enumNames` (the labels of its
 * choices) are the app's words; what the answer is compared with (`enum`, `const`, `default`, `pattern`) stays.
 */
const appSchema = (schema: object, secrets: readonly string[]): Record<string, unknown> =>
  JSON.parse(JSON.stringify(redactSecrets(schema, secrets)), (key, value: unknown) => {
    if ((key === 'title' || key === 'description') && typeof value === 'string')
      return printable(value, { lines: true });
    if (key === 'enumNames' && Array.isArray(value))
      return value.map((name) => (typeof name === 'string' ? printable(name, { lines: true }) : name));
    return value;
  });

/**
 * The outcome of the page's answer, as the agent may see it: every token-shaped value and each of `secrets` redacted
 * wherever it sits; a result too deeply nested to serialise is an error that says so (never a stack overflow).
 */
function pageOutcome(body: PageBody, secrets: readonly string[]): RelayOutcome {
  const error = body.error as { code?: unknown; message?: unknown; retriable?: unknown } | undefined;
  if (error && typeof error === 'object')
    return fail(
      typeof error.code === 'string' ? printable(redactSecrets(error.code, secrets)) : 'ERR_INTERNAL',
      appWords(typeof error.message === 'string' ? error.message : 'the invocation failed.', secrets),
      error.retriable === true,
    );
  try {
    return { ok: true, value: redactSecrets(body.result ?? null, secrets) };
  } catch {
    return fail(
      'ERR_INTERNAL',
      'the result nests too deeply to send (over a few thousand levels): return flatter data from the handler.',
    );
  }
}

// A sheet is open for the call: a confirmation, a question or a permission the app asked for.
const WAITING_FOR_PERSON = 'waiting for the person to answer in svc dev';

/** Sends one event to a page. */
const event = <K extends keyof DevStreamEvents>(page: OpenPage, type: K, data: DevStreamEvents[K]) =>
  page.send(type, JSON.stringify(data));

/** The messenger page's address as advice names it (its launch token is not given to an agent). */
const printedPage = (options: RelayOptions) =>
  `the messenger page svc dev printed (${options.pageOrigin}/ with its launch token)`;

/** What to tell an agent when no page can run its call. */
const openPageAdvice = (options: RelayOptions) => `Open ${printedPage(options)} and call the tool again.`;

/**
 * The error of a call whose page closed while it ran: why (svc dev's reload, or a closed tab), where a call runs now,
 * and whether calling again is safe: the handler stopped wherever it was, so an action that is not read-only or
 * idempotent may have done part of its work.
 */
function cutOff(page: OpenPage, call: RelayCall, options: RelayOptions, confirming: boolean): RelayOutcome {
  const reloaded = options.reloadedBySvcDev?.(page) === true;
  const other = options.page();
  // A person's reload looks like a closed tab here until the page is back, a moment later: both are said.
  const why = reloaded
    ? 'svc dev reloaded the messenger page for the edited manifest.json during the call, and the app stopped.'
    : 'the messenger page closed or reloaded during the call.';
  const where = reloaded
    ? 'The next call runs in the reloaded page.'
    : other && other !== page
      ? 'The next call runs in the other open messenger page.'
      : `If it reloaded, the next call runs in it once it is back; if it closed, open ${printedPage(options)}.`;
  // Cut off while the person was asked to confirm it, the handler never ran: calling again is safe.
  if (confirming)
    return fail(
      'ERR_DISCONNECTED',
      `${why.replace('during the call', 'before the person confirmed the call')} The action did not run. ${where} Then call the tool again.`,
      true,
    );
  const again = call.safeToRepeat
    ? 'Then call the tool again.'
    : 'The action may have done part of its work: check what it did before you call it again.';
  return fail('ERR_DISCONNECTED', `${why} ${where} ${again}`, call.safeToRepeat === true);
}

/**
 * Runs one call in a page: sends the invocation, keeps the agent's client alive with progress, and ends the call
 * (`ended`, once) on its answer, its cancellation, the page closing, or a person who does not answer in time.
 */
function runInPage(
  page: OpenPage,
  call: RelayCall,
  options: RelayOptions,
  ended: (outcome: RelayOutcome) => void,
): Running {
  const id = randomUUID();
  // Aborted when the call ends: it removes every listener and timer the call set.
  const stop = new AbortController();
  let personTimer: NodeJS.Timeout | undefined;
  let waitingForPerson = false;
  // The person is asked to confirm the call: its handler has not run, so a call cut off now did nothing.
  let confirming = false;
  const finish = (outcome: RelayOutcome) => {
    if (stop.signal.aborted) return;
    stop.abort();
    clearTimeout(personTimer);
    ended(outcome);
  };
  const keepalive = setInterval(
    () => call.progress(waitingForPerson ? WAITING_FOR_PERSON : 'still running in svc dev'),
    options.keepalive,
  );
  stop.signal.addEventListener('abort', () => clearInterval(keepalive));
  // Ends the call in the page too, whose row says what the agent got (not the app's answer to the cancellation).
  const endWith = (outcome: Extract<RelayOutcome, { ok: false }>) => {
    event(page, 'mcp-cancel', { id, told: { code: outcome.code, message: outcome.message } });
    finish(outcome);
  };
  const cancel = () => endWith(fail('ERR_CANCELLED', 'the agent cancelled the call; the app was told to stop.'));
  call.signal.addEventListener('abort', cancel, { once: true, signal: stop.signal });
  const closed = () => finish(cutOff(page, call, options, confirming));
  stop.signal.addEventListener('abort', page.onClose(closed));
  const waiting = (on: boolean, beforeRun = false) => {
    waitingForPerson = on;
    confirming = on && beforeRun;
    clearTimeout(personTimer);
    if (!on) return;
    call.progress(WAITING_FOR_PERSON);
    personTimer = setTimeout(() => {
      endWith(
        fail(
          'ERR_TIMEOUT',
          `the person did not answer in svc dev within ${Math.round(options.personTimeout / 1000)} s. Ask them to ` +
            'watch the messenger page and approve, then call the tool again.',
          true,
        ),
      );
    }, options.personTimeout);
  };
  event(page, 'mcp-invoke', {
    id,
    name: call.name,
    input: call.input,
    shown_input: redactSecrets(call.input, options.secrets()),
    agent_id: call.agentId,
    elicit: call.elicit ? 'agent' : 'sheet',
  });
  return { id, call, page, finish, waiting, confirming: () => confirming };
}

/**
 * The three control routes the page answers a running call through: its progress (and whether a sheet waits for the
 * person), its result or error, and an elicitation it asks of the agent. `current` finds the running call of a body.
 */
function pageRoutes(current: (body: PageBody) => Running, options: RelayOptions) {
  return {
    'POST /__svc/mcp/progress': (body: PageBody) => {
      const entry = current(body);
      let message: string | undefined;
      if (typeof body.message === 'string' && body.message) {
        message = appWords(body.message, options.secrets());
        entry.call.progress(message);
      }
      if (typeof body.waiting === 'boolean') entry.waiting(body.waiting, body.confirming === true);
      return { ok: true as const, ...(message === undefined ? {} : { message }) };
    },
    'POST /__svc/mcp/result': (body: PageBody): McpSent => {
      const entry = current(body);
      const outcome = pageOutcome(body, options.secrets());
      entry.finish(outcome);
      return outcome.ok
        ? { result: outcome.value }
        : { error: { code: outcome.code, message: outcome.message, retriable: outcome.retriable } };
    },
    'POST /__svc/mcp/elicit': async (body: PageBody) => {
      const entry = current(body);
      const schema = body.schema;
      if (!entry.call.elicit || typeof body.prompt !== 'string' || typeof schema !== 'object' || schema === null)
        return { answered: false };
      entry.waiting(false);
      const secrets = options.secrets();
      const answer = await entry.call.elicit({
        prompt: appWords(body.prompt, secrets),
        schema: appSchema(schema, secrets),
      });
      return answer ? { answered: true, value: answer.value } : { answered: false };
    },
  } satisfies McpRouteHandlers;
}

/** A call refused before it reached the page: its tool, its agent and its arguments as sent. */
type RefusedCall = { name: string; agentId: string; input: unknown };

/**
 * Tells the terminal and the open page of a call refused before it reached the page, as the agent got it (`message`);
 * the terminal's line adds `more` when given.
 */
function tellRefused(options: RelayOptions, call: RefusedCall, code: string, message: string, more = ''): void {
  const secrets = options.secrets();
  const said = redactSecrets(message, secrets);
  const line = redactSecrets(`${message}${more}`, secrets);
  options.onEnded?.({ type: 'mcp', tool: call.name, agent_id: call.agentId, code, message: line, duration_ms: 0 });
  // The page's list of MCP calls shows it too, where a developer watches the agent (none open: the terminal's).
  const page = options.page();
  if (page)
    event(page, 'mcp-refused', {
      name: call.name,
      shown_input: redactSecrets(call.input, secrets),
      agent_id: call.agentId,
      code,
      message: said,
    });
}

/**
 * How a call running as svc dev stops ends: it stopped wherever it was, as when its page closes, so one that is
 * neither read-only nor idempotent may have done part of its work; one the person was asked to confirm never ran.
 */
function stoppedDuring(running: Running): RelayOutcome {
  if (running.confirming())
    return fail(
      'ERR_DISCONNECTED',
      'svc dev stopped before the person confirmed the call, so the action did not run; once it runs again, call the tool again.',
      true,
    );
  const safe = running.call.safeToRepeat === true;
  const again = safe
    ? 'call the tool again.'
    : 'check what the action did before you call it again: it may have done part of its work.';
  return fail('ERR_DISCONNECTED', `svc dev stopped during the call; once it runs again, ${again}`, safe);
}

/**
 * Runs tool calls in the messenger page, one at a time: the page receives each invocation on its event stream
 * (`mcp-invoke`, `mcp-cancel`) and answers through three control routes (`POST /__svc/mcp/progress`, `/result`,
 * `/elicit`). Calls wait in a queue (their position reported as progress); a closed page, a cancelled call and a
 * person who does not answer in time each end the call with an error the agent can act on.
 * @internal
 */
export function createInvocationRelay(options: RelayOptions) {
  let running: Running | undefined;
  let waitingForPage = false;
  const queue: Array<{ call: RelayCall; start(): void; stop(outcome: RelayOutcome): void; told?: number }> = [];
  const openPage = openPageAdvice(options);

  // Each waiting call is told its place when it changes, not again at every other call's coming and going (mcp47 F4).
  const reportQueue = () => {
    for (const [i, entry] of queue.entries()) {
      if (entry.told === i) continue;
      entry.told = i;
      entry.call.progress(`queued in svc dev: ${i + 1} call${i ? 's' : ''} ahead (the app runs one at a time)`);
    }
  };

  const next = () => {
    running = undefined;
    queue.shift()?.start();
    reportQueue();
  };

  const start = async (call: RelayCall, resolve: (outcome: RelayOutcome) => void) => {
    // A call whose turn comes while the page reloads (a person's reload, or svc dev's) waits for it, as a new call
    // does; meanwhile it counts as running, so no later call overtakes it.
    if (!options.page()) {
      waitingForPage = true;
      await options.pageReady?.(call.signal);
      waitingForPage = false;
    }
    if (call.signal.aborted) {
      resolve(fail('ERR_CANCELLED', 'the call was cancelled before it started.'));
      return next();
    }
    const page = options.page();
    // A stream already closed would swallow the invocation and never close again: the call would hang.
    if (!page || page.closed) {
      resolve(fail('ERR_HOST_UNREACHABLE', `no messenger page is open. ${openPage}`, true));
      return next();
    }
    running = runInPage(page, call, options, (outcome) => {
      resolve(outcome);
      next();
    });
  };

  // Starts the call now, or when the calls before it have ended.
  const queued = (call: RelayCall) =>
    new Promise<RelayOutcome>((resolve) => {
      if (!running && !waitingForPage) return void start(call, resolve);
      const entry = { call, start: () => void start(call, resolve), stop: resolve };
      queue.push(entry);
      call.signal.addEventListener(
        'abort',
        () => {
          const at = queue.indexOf(entry);
          if (at < 0) return;
          queue.splice(at, 1);
          resolve(fail('ERR_CANCELLED', 'the call was cancelled while it waited in the queue.'));
          reportQueue();
        },
        { once: true },
      );
      reportQueue();
    });

  const current = (body: PageBody) => {
    if (!running || body.id !== running.id)
      throw new Error('id is not the running MCP call: it ended (cancelled, timed out, or answered).');
    return running;
  };

  return {
    /** Runs one call when its turn comes; never rejects. */
    async run(call: RelayCall): Promise<RelayOutcome> {
      const started = Date.now();
      // A call waits for a reloading page when its turn comes (start), whether it came first or was queued.
      const outcome = await queued(call);
      options.onEnded?.({
        type: 'mcp',
        tool: call.name,
        agent_id: call.agentId,
        ...(outcome.ok ? {} : { code: outcome.code, message: outcome.message }),
        duration_ms: Date.now() - started,
      });
      return outcome;
    },
    /**
     * Tells of a call refused before it reached the page (its arguments, or a tool the app does not have), so the
     * terminal and the open page list every call an agent made, as they list those that ran.
     */
    refused: (call: RefusedCall, code: string, message: string, more?: string) =>
      tellRefused(options, call, code, message, more),
    /** Calls waiting behind the running one. */
    get queued() {
      return queue.length;
    },
    /** The control routes the page answers through. */
    routes: pageRoutes(current, options),
    /** Ends every call (the platform is closing). */
    close() {
      for (const entry of queue.splice(0)) entry.stop(fail('ERR_DISCONNECTED', 'svc dev stopped.', true));
      running?.finish(stoppedDuring(running));
    },
  };
}

/** The relay of a running platform. @internal */
export type InvocationRelay = ReturnType<typeof createInvocationRelay>;
