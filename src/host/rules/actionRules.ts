import type { InputValidator, Manifest } from '../../manifest';
import { SvcError } from '../../protocol/SvcError';
import { json } from '../../protocol/shape';
import { cancelled } from '../cancelled';
import type { ActionContext } from '../../protocol/types';
import type { Ask } from './createAsk';
import type { ActionConfirmRequest } from './HostAnswers';

/**
 * Who invokes an action through a rule-enforcing host: the person, or an agent with its id. `confirmed` is not
 * given: the rules set it, true only when a person approved this call.
 * @public
 */
export type InvokeContext =
  | {
      /** The person, from the host's own UI. */
      invoked_by: 'user';
      agent_id?: never;
    }
  | {
      /** An AI agent. */
      invoked_by: 'agent';
      /** The agent's id: the token's `act.sub` and what the app's handler sees. */
      agent_id: string;
    };

/**
 * A host's policy on action confirmation, which may only make the manifest's floor stricter: `'floor'` follows each
 * action's `confirm`; `'always'` confirms every invocation; a function decides per call (it is asked only when the
 * floor does not already require a confirmation).
 * @public
 */
export type ConfirmPolicy = 'floor' | 'always' | ((request: ActionConfirmRequest) => boolean);

/** Runs the app's handler through the channel, with the final context. */
export type CallApp = (name: string, input: unknown, context: ActionContext) => Promise<unknown>;

const issuesText = (issues: { message: string }[]) => issues.map((i) => i.message).join('; ');

/**
 * Builds the invocation rules: declared, agent named, input valid, handler registered, the confirm floor and
 * policy, then the call, then `output_schema`. Invocations run one at a time, as the client runs them, so a token
 * minted meanwhile names the right agent.
 */
export function actionRules({
  manifest,
  handled,
  appReady,
  policy,
  ask,
  validator,
}: {
  manifest: Manifest;
  /** The action handlers the app announced. */
  handled: ReadonlySet<string>;
  /** Resolves once the app announced a handler of `name`, or waited for long enough. */
  appReady: (name: string) => Promise<void>;
  policy: ConfirmPolicy;
  ask: Ask;
  /** Compiles `input_schema` and `output_schema`. */
  validator: (schema: Record<string, unknown>) => InputValidator;
}) {
  const declared = new Map((manifest.actions ?? []).map((a) => [a.name, a]));
  const inputs = new Map<string, InputValidator>();
  const outputs = new Map<string, InputValidator | null>();
  let queue: Promise<unknown> = Promise.resolve();

  const outputCheck = (name: string, schema: Record<string, unknown>) => {
    if (!outputs.has(name)) {
      let check: InputValidator | null = null;
      try {
        check = validator(schema);
      } catch {
        // output_schema is free-form in the manifest; one we cannot compile is not checked.
      }
      outputs.set(name, check);
    }
    return outputs.get(name);
  };

  const run = async (
    name: string,
    input: unknown,
    context: InvokeContext,
    call: CallApp,
    signal?: AbortSignal,
  ): Promise<unknown> => {
    if (signal?.aborted) throw cancelled(name);
    const fail = (code: string, why: string) => new SvcError(code, `invokeAction('${name}'): ${why}`);
    const action = declared.get(name);
    if (!action)
      throw fail(
        'ERR_ACTION_NOT_DECLARED',
        `no action of that name in the manifest (declared: ${[...declared.keys()].join(', ') || 'none'}).`,
      );
    const by = context?.invoked_by;
    if (by !== 'agent' && by !== 'user')
      throw fail('ERR_INVALID_ARGUMENT', "context.invoked_by must be 'agent' or 'user'.");
    if (by === 'agent' && (typeof context.agent_id !== 'string' || !context.agent_id))
      throw fail('ERR_INVALID_ARGUMENT', 'an agent invocation must name its agent: pass context.agent_id.');
    // A value that is no JSON (undefined, a function, NaN) would reach the schema's validator as none of its types.
    const notJson = json(input, '$');
    if (notJson)
      throw fail(
        'ERR_ACTION_INVALID_INPUT',
        `the input does not fit input_schema: ${notJson} (pass {} for an action without fields).`,
      );
    let validate = inputs.get(name);
    if (!validate) {
      validate = validator(action.input_schema);
      inputs.set(name, validate);
    }
    const issues = validate(input);
    // Rejected before anything else: a malformed input never reaches the person or the handler.
    if (issues.length)
      throw fail('ERR_ACTION_INVALID_INPUT', `the input does not fit input_schema: ${issuesText(issues)}.`);
    if (!handled.has(name)) await appReady(name);
    if (!handled.has(name))
      throw fail(
        'ERR_ACTION_NO_HANDLER',
        `the app registered no handler; call svc.actions.handle('${name}', handler).`,
      );

    const who = by === 'agent' ? { invoked_by: by, agent_id: context.agent_id } : { invoked_by: by };
    const request: ActionConfirmRequest = {
      name,
      title: action.title,
      input,
      destructive: action.annotations.destructive === true,
      context: who,
      signal,
    };
    const floor = action.confirm === 'always' || (action.confirm === 'if_destructive' && request.destructive);
    const stricter = policy === 'always' || (typeof policy === 'function' && policy(request) === true);
    let confirmed = false;
    if (floor || stricter) {
      confirmed = (await ask('confirmAction', 'actions.invoke', request)) === true;
      if (signal?.aborted) throw cancelled(name);
      if (!confirmed) throw fail('ERR_PERMISSION_DENIED', 'the person refused to confirm it; the handler did not run.');
    }

    const output = await call(name, input, { ...who, confirmed });
    const check = action.output_schema && outputCheck(name, action.output_schema);
    let bad = '';
    // The schema's validator throws on a value of none of JSON's types (a handler that returned nothing): said by
    // JSON's rule. Infinity or NaN it reads as a number; the channel to the invoker says what JSON makes of them.
    if (check)
      try {
        bad = issuesText(check(output));
      } catch {
        bad = json(output, '$') ?? 'it is no JSON value';
      }
    if (bad) throw fail('ERR_ACTION_FAILED', `the handler's output does not fit output_schema: ${bad}.`);
    return output;
  };

  return {
    /** The declared actions by name. */
    declared,
    /** Invokes `name` under the rules; `call` reaches the app. */
    invoke(
      name: string,
      input: unknown,
      context: InvokeContext,
      call: CallApp,
      signal?: AbortSignal,
    ): Promise<unknown> {
      const result = queue.then(() => run(name, input, context, call, signal));
      queue = result.catch(() => {});
      return result;
    },
  };
}
