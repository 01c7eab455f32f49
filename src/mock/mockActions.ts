import type { HostEndpoint } from '../host/createHost';
import { createInputValidator, type InputValidator } from '../manifest';
import type { SvcActions } from '../protocol/Svc';
import { SvcError } from '../protocol/SvcError';
import type { ActionContext } from '../protocol/types';
import type { MockState } from './MockState';

/**
 * Who invokes an action through the mock: the person, or an agent (with its id). `confirmed` is not given: the
 * mock sets it from the confirmation floor and `answers.confirmAction`.
 * @public
 */
export interface MockInvokeContext {
  /** An AI agent or the person. */
  invoked_by: 'agent' | 'user';
  /** The agent's id, when an agent invokes. */
  agent_id?: string;
}

/** The host's side of the app's actions, as the mock plays it. */
export interface MockActions {
  invoke(name: string, input: unknown, context?: MockInvokeContext): Promise<unknown>;
  /** Names of declared actions without a handler, and of handlers for undeclared actions. */
  problems(): { missing: string[]; undeclared: string[] };
}

const issuesText = (issues: { message: string }[]) => issues.map((i) => i.message).join('; ');

/**
 * Wraps `svc.actions.handle` to learn which handlers the app registered (the client does not tell the host), and
 * builds the mock's `invokeAction`: declared, input valid, handler registered, confirmation floor, then the call.
 */
export function mockActions(s: MockState, host: HostEndpoint, actions: SvcActions): MockActions {
  const declared = new Map((s.manifest.actions ?? []).map((a) => [a.name, a]));
  const inputs = new Map<string, InputValidator>();
  const outputs = new Map<string, InputValidator | null>();
  const registered = new Map<string, unknown>();
  let queue: Promise<unknown> = Promise.resolve();

  const handle = actions.handle.bind(actions);
  actions.handle = (name, handler) => {
    const remove = handle(name, handler);
    registered.set(name, handler);
    return () => {
      if (registered.get(name) === handler) registered.delete(name);
      remove();
    };
  };

  const run = async (name: string, input: unknown, context: MockInvokeContext): Promise<unknown> => {
    const fail = (code: string, why: string) => new SvcError(code, `invokeAction('${name}'): ${why}`);
    const action = declared.get(name);
    if (!action)
      throw fail(
        'ERR_ACTION_NOT_DECLARED',
        `no action of that name in the manifest (declared: ${[...declared.keys()].join(', ') || 'none'}).`,
      );
    let validate = inputs.get(name);
    if (!validate) inputs.set(name, (validate = createInputValidator(action.input_schema)));
    const issues = validate(input);
    // Rejected before anything else, as a host would: a malformed input never reaches the person or the handler.
    if (issues.length)
      throw fail('ERR_ACTION_INVALID_INPUT', `the input does not fit input_schema: ${issuesText(issues)}.`);
    if (!registered.has(name))
      throw fail(
        'ERR_ACTION_NO_HANDLER',
        `the app registered no handler; call svc.actions.handle('${name}', handler).`,
      );

    const floor = action.confirm == 'always' || (action.confirm == 'if_destructive' && action.annotations.destructive);
    let confirmed = false;
    if (floor || s.options.confirmActions == 'always') {
      const request = { name, input, context: { ...context } };
      confirmed = (await s.ask('confirmAction', 'actions.invoke', request)) === true;
      if (!confirmed) throw fail('ERR_PERMISSION_DENIED', 'the person refused to confirm it; the handler did not run.');
    }

    const full: ActionContext = { ...context, confirmed };
    s.acting = full;
    let output: unknown;
    try {
      output = await host.invokeAction(name, input, full);
    } finally {
      s.acting = undefined;
    }
    if (action.output_schema) {
      let check = outputs.get(name);
      if (check === undefined) {
        try {
          check = createInputValidator(action.output_schema);
        } catch {
          check = null; // output_schema is free-form in the manifest; one we cannot compile is not checked
        }
        outputs.set(name, check);
      }
      const bad = check?.(output) ?? [];
      if (bad.length)
        throw fail('ERR_ACTION_FAILED', `the handler's output does not fit output_schema: ${issuesText(bad)}.`);
    }
    return output;
  };

  return {
    invoke(name, input, context = { invoked_by: 'user' }) {
      // One invocation at a time, as the client runs them, so a token minted meanwhile names the right agent.
      const result = queue.then(() => run(name, input, context));
      queue = result.catch(() => {});
      return result;
    },
    problems: () => ({
      missing: [...declared.keys()].filter((n) => !registered.has(n)),
      undeclared: [...registered.keys()].filter((n) => !declared.has(n)),
    }),
  };
}
