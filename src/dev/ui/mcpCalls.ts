import type { HostAnswers, HostEndpoint } from '../../host';
import { isSvcError, SvcError } from '../../protocol/SvcError';
import type { McpInvoke, McpPageBody } from '../devContract';
import { control } from './api';

/** Where the page shows an MCP call: the agent panel's list, and the call log's mark. */
export interface McpCallView {
  /** Adds the call to the agent panel; the returned functions update its row. */
  show(call: McpInvoke): { progress(message: string): void; done(text: string, ok: boolean): void };
  /** Marks the bridge calls the app makes from now on (undefined: stop marking). */
  mark(label: string | undefined): void;
}

interface Current {
  call: McpInvoke;
  controller: AbortController;
  row: ReturnType<McpCallView['show']>;
}

/**
 * Runs the MCP calls the platform relays in the app, exactly as the agent panel's "Invoke as agent" does (the host's
 * rules: input check, confirm floor, `confirmed` set by the host), and answers them through the control API:
 * progress, "waiting for the person" while a sheet is open, elicit (to the agent when the platform says so), the
 * result or the SvcError. A cancel aborts the invocation's signal, which closes its sheets.
 */
export function mcpCalls(host: () => Promise<HostEndpoint | undefined>, view: McpCallView) {
  let current: Current | undefined;
  const post = (path: 'progress' | 'result' | 'elicit', body: McpPageBody) =>
    control(`POST /__svc/mcp/${path}`, { id: current?.call.id, ...body });
  const waiting = (on: boolean) => post('progress', { waiting: on }).catch(() => {});

  return {
    /** Runs one relayed call. */
    async invoke(call: McpInvoke): Promise<void> {
      const controller = new AbortController();
      const row = view.show(call);
      current = { call, controller, row };
      view.mark(`MCP · ${call.agent_id}`);
      let answer: Record<string, unknown>;
      try {
        const endpoint = await host();
        if (!endpoint)
          throw new SvcError(
            'ERR_HOST_UNREACHABLE',
            'The app could not be opened in svc dev (not installed, the person left the tenant, or the version was revoked): see the notice in the messenger, then call again.',
            true,
          );
        const result = await endpoint.invokeAction(
          call.name,
          call.input,
          { invoked_by: 'agent', agent_id: call.agent_id },
          { signal: controller.signal },
        );
        answer = { result };
        row.done(JSON.stringify(result ?? null), true);
      } catch (error) {
        const e = isSvcError(error)
          ? { code: error.code, message: error.message, retriable: error.retriable }
          : { code: 'ERR_INTERNAL', message: String(error), retriable: false };
        answer = { error: e };
        row.done(`${e.code}: ${e.message}`, false);
      }
      view.mark(undefined);
      if (!controller.signal.aborted) await post('result', answer).catch(() => {});
      if (current?.call.id === call.id) current = undefined;
    },
    /** The platform cancelled a call (the agent cancelled it, or the person took too long). */
    cancel(id: string) {
      if (current?.call.id === id) current.controller.abort();
    },
    /** The app's progress message during a relayed call. */
    progress(message: string) {
      if (!current) return;
      current.row.progress(message);
      post('progress', { message }).catch(() => {});
    },
    /** The person's answers, telling the platform while a sheet waits for the person during a relayed call. */
    answers(base: HostAnswers): HostAnswers {
      return {
        ...base,
        confirmAction: async (request) => {
          if (!current || request.context.agent_id !== current.call.agent_id) return base.confirmAction!(request);
          void waiting(true);
          try {
            return await base.confirmAction!(request);
          } finally {
            void waiting(false);
          }
        },
        elicit: async (request) => {
          if (!current) return base.elicit!(request);
          if (current.call.elicit === 'agent') {
            const asked = await post('elicit', { prompt: request.prompt, schema: request.schema }).catch(
              () => undefined,
            );
            const reply = asked as { answered?: boolean; value?: unknown } | undefined;
            if (reply?.answered) return reply.value;
          }
          void waiting(true);
          try {
            return await base.elicit!(request);
          } finally {
            void waiting(false);
          }
        },
      };
    },
  };
}
