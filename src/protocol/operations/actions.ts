// biome-ignore-all lint/suspicious/noExplicitAny: an action no declaration types takes whatever its handler says it takes
import { notificationParams } from '../notificationParams';
import { any, type Check, isPlain, obj, text } from '../shape';
import type { ActionHandler, ElicitRequest } from '../types';
import { ask, defineOperations, notification, prompt } from './define';

const schema: Check<Record<string, unknown>> = (v, path) =>
  isPlain(v) ? undefined : `${path} must be a JSON Schema object`;

/**
 * The input type of each declared action, by name. Empty in the SDK: `svc types` generates a declaration file that
 * fills it from the manifest's `input_schema`s, and then `svc.actions.handle()` accepts only declared names and types
 * each handler's input.
 * @example
 * ```ts
 * // svc-actions.d.ts, written by `npx svc types`
 * declare module 'svc-sdk' {
 *   interface SvcActionInputs {
 *     create_poll: { question: string; options: string[] };
 *   }
 * }
 * ```
 * @public
 */
// biome-ignore lint/suspicious/noEmptyInterface: an empty interface is what module augmentation fills in
export interface SvcActionInputs {}

/** A declared action's name: any string until `svc types` declares them, then only those. @public */
export type ActionName = keyof SvcActionInputs extends never ? string : keyof SvcActionInputs & string;

/** The input of action `N`: from {@link SvcActionInputs} when declared, else `any` (untyped). @public */
export type ActionInput<N extends string> = N extends keyof SvcActionInputs ? SvcActionInputs[N] : any;

/**
 * The output of each action that declares an `output_schema`, by name: empty until `npx svc types` fills it, as
 * {@link SvcActionInputs}. A handler's result must then be of this type.
 * @public
 */
// biome-ignore lint/suspicious/noEmptyInterface: an empty interface is what module augmentation fills in
export interface SvcActionOutputs {}

/** The output of action `N`: from {@link SvcActionOutputs} when declared, else `unknown` (anything JSON). @public */
export type ActionOutput<N extends string> = N extends keyof SvcActionOutputs ? SvcActionOutputs[N] : unknown;

/**
 * `svc.actions`: the agent-callable actions the manifest declares.
 * @public
 */
export interface SvcActions {
  /**
   * Registers the handler of a declared action. The host invokes it with the checked input and an
   * {@link ActionContext}; its result, or its thrown error, goes back to the host. One invocation runs at a time,
   * so `elicit()` and `progress()` always bind to it.
   * @returns A function that removes the handler.
   */
  handle<N extends ActionName>(name: N, handler: ActionHandler<ActionInput<N>, ActionOutput<N>>): () => void;
  /** Asks the person for more input during the running invocation; `null` when they refused or cancelled. */
  elicit(request: ElicitRequest): Promise<unknown>;
  /** Reports progress of the running invocation to the person or agent. */
  progress(message: string): void;
}

/**
 * The operations of `svc.actions` (`handle` is the client's own). Both belong to the running invocation: the
 * client adds its id, and the host refuses them when it is not running.
 */
export const actions = defineOperations<SvcActions, 'handle'>()({
  // The answer must fit the schema the app asked with; a rule checks it. The answer is the result.
  elicit: prompt({
    args: 'object',
    params: obj({ invocation: text, prompt: text, schema }),
    result: any,
    effect: false,
    bound: true,
    asks: ask<
      'elicit',
      { prompt: string; schema: Record<string, unknown>; action: string; signal?: AbortSignal },
      unknown
    >('elicit', 'rule'),
  }),
  progress: notification({ args: ['message'], params: notificationParams['actions.progress'], bound: true }),
});
