import type { MethodName } from '../../protocol/methods';
import type { Operations } from '../../protocol/operations';
import type { Asks } from '../../protocol/operations/define';

/** A value, or a promise of it: an answer may come at once (a test) or after a person clicked (a UI). */
type AnswerOrPromise<T> = T | Promise<T>;

/**
 * What a host asks its person before an action leaves the app: the request an action confirmation shows.
 * @public
 */
export interface ActionConfirmRequest {
  /** The action's name. */
  name: string;
  /** The action's human title, from the manifest. */
  title: string;
  /** The input, already checked against `input_schema`. */
  input: unknown;
  /** Whether the manifest declares it destructive (`annotations.destructive`). */
  destructive: boolean;
  /** Who invokes it. */
  context: { invoked_by: 'agent' | 'user'; agent_id?: string };
  /** Aborts when the invoker cancels the invocation: close the sheet (the answer is then ignored). */
  signal?: AbortSignal;
}

/**
 * What an answer to an app's prompt is given beside its request.
 * @public
 */
export interface AnswerOptions {
  /**
   * Aborts when the page that asked is gone: it left or reloaded, another page took its place, or the host closed.
   * Close the prompt then: an answer given after it is not acted on (nothing is sent, shared or picked), and the new
   * page asks again if it still wants to.
   */
  signal?: AbortSignal;
}

/** What the operations ask (their `asks` entries), each as the answer a host gives. */
type OperationAnswers = {
  [A in NonNullable<Operations[MethodName]['asks']> as A['answer']]?: (
    request: A extends Asks<string, infer Request, unknown> ? Request : never,
    options?: AnswerOptions,
  ) => AnswerOrPromise<A extends Asks<string, unknown, infer Answer> ? Answer : never>;
};

/**
 * The person's answers to every prompt, as one typed interface: a test answers from code (`svc-sdk/mock`), the dev
 * platform from its page, a real web host from its own UI. Each operation's `asks` entry (the operation modules)
 * adds its member: `permission` (the sheet of `permissions.request` for a declared scope at `prompt`, showing the
 * manifest's `purpose`), `send` (every `message.send`), `confirm` (`ui.confirm`), `elicit` (`actions.elicit`: a
 * value that fits `schema`, or `null` when the person refused), `pick` (the picker over the offered files; `null`
 * when the person cancelled), `share` (the share sheet) and `signIn` (`external-oauth`); `confirmAction` is the
 * confirmation of an action invocation.
 *
 * @remarks
 * Each member is asked only when a rule says the person decides, and only after the call passed every other
 * check (arguments, declared scope, granted scope). A yes-or-no answer (`send`, `share`, `signIn`, `confirm`,
 * `confirmAction`) is a yes only when it is `true`: anything else (false, a `<dialog>`'s `returnValue` such as
 * `'cancel'`, a number) refuses the call with the operation's refusal code (`confirm`'s is the answer, and any other
 * value than true or false is a host bug). A prompt the host gives no answer for rejects the app's call with
 * `ERR_UNSUPPORTED` naming the missing member, and is left out of `svc.supports()`: a host never approves on the
 * person's behalf.
 * @public
 */
export interface HostAnswers {
  /**
   * `svc.permissions.request(scope)` for a declared scope still at `prompt`: show the manifest's `purpose`, answer
   * `'granted'` or `'denied'` (the decision is kept in the grant store; any other value is a host bug).
   */
  permission?: OperationAnswers['permission'];
  /** Every `svc.message.send()`: show the message and its card; only `true` sends it. */
  send?: OperationAnswers['send'];
  /** `svc.ui.confirm({ title, body })`: the person's `true` or `false` is the app's answer. */
  confirm?: OperationAnswers['confirm'];
  /** `svc.ui.share({ title, url })`: the share sheet; only `true` shares (the `ui.share` effect runs). */
  share?: OperationAnswers['share'];
  /** `svc.auth.signIn()` under `external-oauth`: only `true` signs the person in. */
  signIn?: OperationAnswers['signIn'];
  /**
   * `svc.files.pick(options)`: the picker over `offered` (the host's files, filtered by `accept`): the files the person
   * chose, or `null` when they cancelled.
   */
  pick?: OperationAnswers['pick'];
  /**
   * `svc.actions.elicit()` inside an invocation: a value that fits `schema` (checked), or `null` when the person
   * refused.
   */
  elicit?: OperationAnswers['elicit'];
  /** The confirmation of an action invocation the confirm floor or the host's policy requires: only `true` runs it. */
  confirmAction?(request: ActionConfirmRequest): AnswerOrPromise<boolean>;
}

// Every answer an operation asks for is a member above, with its documentation: a new `asks` entry fails to compile
// here, naming it.
type Documented<Missing extends never> = Missing;
type _EveryAnswer = Documented<Exclude<keyof OperationAnswers, keyof HostAnswers>>;

/** The name of one answer. @public */
export type AnswerName = keyof HostAnswers;
