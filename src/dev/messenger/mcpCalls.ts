import { agentError } from './agentError';
import { clipped, SHOWN_CHARACTERS } from './clipped';
import type { HostAnswers, HostEndpoint } from '../../host/core';
import { APP_LEFT } from '../../host/appLeft';
import type { Manifest } from '../../manifest';
import { SvcError } from '../../protocol/SvcError';
import type { McpInvoke, McpPageBody, McpRefused, McpSent } from '../devContract';
import { findMalformedValue } from '../../manifest/findMalformedValue';
import { redactSecrets } from '../redactSecrets';
import { safeToRepeat } from '../safeToRepeat';
import { formatJsonPath } from '../../manifest/ManifestIssue';
import { AnswerRefused, answerRelayed } from './api';
import { prettyJson } from './redactTokens';

/** Where the page shows an MCP call: the agent panel's list, and the call log's mark. */
export interface McpCallView {
  /** Adds the call to the agent panel; the returned functions update its row. */
  show(call: Pick<McpInvoke, 'name' | 'agent_id' | 'shown_input'>): {
    progress(message: string): void;
    done(text: string, ok: boolean): void;
  };
  /** Marks the bridge calls the app makes from now on (undefined: stop marking). */
  mark(label: string | undefined): void;
}

interface Current {
  call: McpInvoke;
  controller: AbortController;
  row: ReturnType<McpCallView['show']>;
  /** Set when the call ended for the agent before the app answered: the page's channel to svc dev closed. */
  cut?: boolean;
}

/**
 * Runs a relayed call in the app through the host's rules (input check, confirm floor, `confirmed` set by the host):
 * its result, or the error the agent is told.
 */
async function runInApp(
  host: () => Promise<HostEndpoint | undefined>,
  call: McpInvoke,
  signal: AbortSignal,
  repeatable: (name: string) => boolean,
): Promise<McpPageBody> {
  try {
    const endpoint = await host();
    if (!endpoint)
      throw new SvcError(
        'ERR_HOST_UNREACHABLE',
        'The app could not be opened in svc dev (not installed, the person left the tenant, or the version was revoked): see the notice in the messenger, then call again.',
        true,
      );
    const context = { invoked_by: 'agent', agent_id: call.agent_id } as const;
    const result = await endpoint.invokeAction(call.name, call.input, context, { signal });
    // The result travels as JSON, which has no Infinity or NaN (they would arrive as null, breaking the tool's own
    // outputSchema) and no lone surrogate: said to the agent as the handler's failure, with where it is.
    const malformed = findMalformedValue(result);
    if (malformed) {
      const where = formatJsonPath(malformed.path);
      throw new SvcError(
        'ERR_ACTION_FAILED',
        malformed.kind === 'number'
          ? `the handler's output cannot be sent as JSON: ${where} is not a finite number (JSON has no Infinity or NaN, and would send null): return a finite number, or null.`
          : `the handler's output cannot be sent as JSON: ${where} ${malformed.problem}: return well-formed Unicode text.`,
      );
    }
    return { result };
  } catch (error) {
    const told = agentError(error);
    // The app closed or reloaded while its handler ran: it stopped wherever it was, so an action that is neither
    // read-only nor idempotent may have done part of its work, and calling it again could do it twice. One that left
    // before the call reached it (and did not come back) ran nothing: said as the host says it.
    if (told.code === 'ERR_DISCONNECTED' && told.message !== APP_LEFT)
      return {
        error: repeatable(call.name)
          ? { code: told.code, message: 'the app closed or reloaded before it answered: call again.', retriable: true }
          : {
              code: told.code,
              message:
                'the person closed or reloaded the app before it answered. The action may have done part of its work: check what it did before you call it again.',
              retriable: false,
            },
      };
    return { error: told };
  }
}

/**
 * Ends a call svc dev ended (the page lost it, the agent cancelled, the person did not answer): the app is told to
 * stop, and the row says what the agent was told (not what the app answered to the stop).
 */
function cutOff(entry: Current, told: string): void {
  entry.cut = true;
  entry.controller.abort();
  entry.row.done(told, false);
}

/** What the row says of a call whose page lost svc dev (the agent gets svc dev's own sentence, with the same code). */
const DISCONNECTED =
  'ERR_DISCONNECTED: the connection to svc dev closed during the call (svc dev stopped or restarted), so the agent was told the call ended; the app was told to stop.';

/**
 * What an answer svc dev could not take becomes, so that the agent is answered all the same: a result the channel
 * cannot carry is an error saying it was too large and what to do, and an answer svc dev refused is an error with its
 * sentence, both non-retriable (the same call would give the same answer). A channel that is gone is the page's to
 * show: svc dev ends the call itself.
 */
const unsent =
  (post: (path: 'result', body: McpPageBody) => Promise<unknown>) =>
  (error: unknown): Promise<unknown> | undefined => {
    const message =
      error instanceof AnswerRefused
        ? `svc dev could not take the app's answer: ${error.message}`
        : error instanceof RangeError
          ? `the result cannot be sent: ${error.message}`
          : undefined;
    if (message === undefined) return undefined;
    return post('result', { error: { code: 'ERR_INTERNAL', message, retriable: false } }).catch(() => undefined);
  };

/**
 * Runs the MCP calls the platform relays in the app, exactly as the agent panel's "Invoke as agent" does (the host's
 * rules: input check, confirm floor, `confirmed` set by the host), and answers them on the page's channel:
 * progress, "waiting for the person" while a sheet is open, elicit (to the agent when the platform says so), the
 * result or the SvcError. A cancel aborts the invocation's signal, which closes its sheets.
 */
export function mcpCalls(
  host: () => Promise<HostEndpoint | undefined>,
  view: McpCallView,
  actions: NonNullable<Manifest['actions']>,
) {
  const repeatable = (name: string) => safeToRepeat(actions.find((a) => a.name === name));
  let current: Current | undefined;
  // Progress and the result one at a time, in the order the app gave them: a progress message sent without waiting
  // could otherwise reach the platform after the result, which ends the call, and the agent would never get it. An
  // elicitation waits for the agent, so it goes at once.
  let sending: Promise<unknown> = Promise.resolve();
  const post = (path: 'progress' | 'result' | 'elicit', body: McpPageBody) => {
    const id = current?.call.id;
    // No call runs (it ended: cancelled, timed out or answered): there is nobody to tell.
    if (id === undefined) return Promise.resolve(undefined);
    const send = () => answerRelayed(`POST /__svc/mcp/${path}`, { id, ...body });
    if (path === 'elicit') return send();
    const sent = sending.then(send);
    sending = sent.catch(() => {});
    return sent;
  };
  const waiting = (on: boolean, confirming = false) =>
    post('progress', on && confirming ? { waiting: on, confirming } : { waiting: on }).catch(() => {});

  return {
    /** Runs one relayed call. */
    async invoke(call: McpInvoke): Promise<void> {
      const controller = new AbortController();
      // The app is given the call first; the row and the call log's mark follow in the same task (before any call of
      // the app's can arrive), so their rendering is off the agent's path, as it is on the way back.
      const answering = runInApp(host, call, controller.signal, repeatable);
      const row = view.show(call);
      const entry: Current = { call, controller, row };
      current = entry;
      view.mark(`MCP · ${call.agent_id}`);
      const answer = await answering;
      const reply = controller.signal.aborted ? undefined : post('result', answer).catch(unsent(post));
      view.mark(undefined);
      // Its row already says how it ended for the agent.
      if (entry.cut) return;
      // The row shows what the agent got (the platform redacts tokens and secrets), or what the page had.
      const shown = ((await reply) ?? answer) as McpSent;
      if ('error' in shown) row.done(`${shown.error.code}: ${shown.error.message}`, false);
      // Cut as the page cuts an app's texts (the agent gets it whole): twenty results of a megabyte each froze the page
      // when their tab opened.
      else row.done(clipped(prettyJson(shown.result ?? null), SHOWN_CHARACTERS), true);
      if (current?.call.id === call.id) current = undefined;
    },
    /** A call svc dev refused before it reached the page: listed with its error, as the agent got it. */
    refused: (call: McpRefused) => view.show(call).done(`${call.code}: ${call.message}`, false),
    /**
     * The page's channel to svc dev closed (svc dev stopped or restarted, or the connection broke): svc dev ends the
     * running call for the agent then, so the app is told to stop, and the row says what the agent got, not what the
     * app answered later.
     */
    disconnected() {
      if (current) cutOff(current, DISCONNECTED);
      current = undefined;
    },
    /** The platform ended a call (the agent cancelled it, or the person took too long), telling the agent `told`. */
    cancel(id: string, told?: { code: string; message: string }) {
      if (current?.call.id !== id) return;
      if (!told) return current.controller.abort();
      cutOff(current, `${told.code}: ${told.message}`);
      current = undefined;
    },
    /** The app's progress message during a relayed call; false when no relayed call runs (the panel's own). */
    progress(message: string): boolean {
      if (!current) return false;
      const { row } = current;
      post('progress', { message }).then(
        (sent) => row.progress((sent as { message?: string }).message ?? message),
        () => row.progress(redactSecrets(message)),
      );
      return true;
    },
    /** The person's answers, telling the platform while a sheet waits for the person during a relayed call. */
    answers: (base: HostAnswers) => relayedAnswers(base, { current: () => current, waiting, post }),
  };
}

/** What the relayed call's answers need: the call running now, and the platform's progress and elicit routes. */
interface Relay {
  current(): Current | undefined;
  /** Tells the platform a sheet waits for the person (`confirming`: to confirm the call, before its handler runs). */
  waiting(on: boolean, confirming?: boolean): Promise<unknown>;
  post(path: 'elicit', body: McpPageBody): Promise<unknown>;
}

/**
 * The person's answers during a relayed call: a sheet tells the platform it waits for the person (its time limit
 * applies) and closes when the call ends; with `--elicit agent` the agent is asked first.
 */
function relayedAnswers(base: HostAnswers, relay: Relay): HostAnswers {
  return {
    ...base,
    // A permission sheet raised during the call waits for the person like a confirmation (the platform's time
    // limit applies) and closes when the call ends; the app is then told so, and nothing is granted or refused.
    permission: async (request) => {
      const during = relay.current();
      if (!during) return base.permission!(request);
      const { signal } = during.controller;
      void relay.waiting(true);
      try {
        const answer = await base.permission!({ ...request, signal } as typeof request);
        if (signal.aborted)
          throw new SvcError(
            'ERR_CANCELLED',
            `the agent's call of ${during.call.name} ended before the person answered; nothing was granted or refused.`,
          );
        return answer;
      } finally {
        if (relay.current() === during) void relay.waiting(false);
      }
    },
    confirmAction: async (request) => {
      const during = relay.current();
      if (!during || request.context.agent_id !== during.call.agent_id) return base.confirmAction!(request);
      void relay.waiting(true, true);
      try {
        return await base.confirmAction!(request);
      } finally {
        void relay.waiting(false);
      }
    },
    elicit: async (request) => {
      const during = relay.current();
      if (!during) return base.elicit!(request);
      if (during.call.elicit === 'agent') {
        const asked = await relay
          .post('elicit', { prompt: request.prompt, schema: request.schema })
          .catch(() => undefined);
        const reply = asked as { answered?: boolean; value?: unknown } | undefined;
        if (reply?.answered) return reply.value;
      }
      void relay.waiting(true);
      try {
        return await base.elicit!(request);
      } finally {
        void relay.waiting(false);
      }
    },
  };
}
