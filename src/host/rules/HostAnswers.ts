import type { PermissionScope } from '../../protocol/scopes';
import type { OutgoingMessage, PickOptions, SvcFile } from '../../protocol/types';

/** A value, or a promise of it: an answer may come at once (a test) or after a person clicked (a UI). */
type Maybe<T> = T | Promise<T>;

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
 * The person's answers to every prompt of the platform, as one typed interface: a test answers from code
 * (`svc-sdk/mock`), the dev platform from its page, a real web host from its own UI.
 *
 * @remarks
 * Each member is asked only when a rule says the person decides, and only after the call passed every other
 * check (arguments, declared scope, granted scope). A prompt the host gives no answer for rejects the app's call
 * with `ERR_UNSUPPORTED` naming the missing member: a host never approves on the person's behalf.
 * @public
 */
export interface HostAnswers {
  /** The permission sheet for a declared scope in state `prompt`; shows the manifest's `purpose`. */
  permission?(request: { scope: PermissionScope; manifestScope: string; purpose: string }): Maybe<'granted' | 'denied'>;
  /** The confirmation of every `svc.message.send()`; false rejects it `ERR_PERMISSION_DENIED`. */
  send?(message: OutgoingMessage): Maybe<boolean>;
  /** The confirmation of an action invocation the confirm floor or the host's policy requires. */
  confirmAction?(request: ActionConfirmRequest): Maybe<boolean>;
  /** `svc.ui.confirm()`. */
  confirm?(request: { title: string; body: string }): Maybe<boolean>;
  /** `svc.actions.elicit()`: a value that fits `schema`, or `null` when the person refused or cancelled. */
  elicit?(request: { prompt: string; schema: Record<string, unknown>; action: string; signal?: AbortSignal }): unknown;
  /** The file picker over the files the host offers for these options; `null` when the person cancelled. */
  pick?(request: { options: PickOptions; offered: SvcFile[] }): Maybe<SvcFile[] | null>;
  /** The share sheet; false when the person dismissed it (`ERR_CANCELLED`). */
  share?(request: { title: string; url: string }): Maybe<boolean>;
  /** The `external-oauth` sign-in; false when the person cancelled (`ERR_PERMISSION_DENIED`). */
  signIn?(): Maybe<boolean>;
}

/** The name of one answer. @public */
export type AnswerName = keyof HostAnswers;
