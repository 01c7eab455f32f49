import type { HostEndpoint } from '../host/types';
import type { Manifest } from '../manifest';
import type { MethodName } from '../protocol/methods';
import type { PermissionScope } from '../protocol/scopes';
// By the package's name, not its path: the declarations then name svc-sdk's own Svc, which `npx svc types` augments
// (declare module 'svc-sdk'), so host.svc.actions.handle() is typed by the manifest as the app's svc is.
import type { ActionInput, ActionName, ActionOutput, Svc } from 'svc-sdk';
import type { Identity, PermissionState, Theme } from '../protocol/types';
import type { StorageStore as MockStore } from '../host/rules/createMemoryStorage';
import type { InvokeContext as MockInvokeContext } from '../host/rules/actionRules';
import type { MockSavedFile, MockSentMessage } from './MockState';
import type { MockCall, MockFault, MockUi } from './types';

/**
 * A host for tests: the real client (`svc`) connected over an in-memory channel to a host that follows the
 * interface's rules, with prompts answered by the test and everything recorded.
 * @public
 */
export interface MockHost {
  /** A `Svc` connected to this host through the real client. */
  readonly svc: Svc;
  /** The validated manifest. */
  readonly manifest: Manifest;
  /** The full identity the host knows (what `identity.get` hands out depends on granted scopes). */
  readonly identity: Identity;
  /** Every bridge call the host saw, in order, with its outcome once it has one. */
  readonly calls: MockCall[];
  /** What the host's UI showed. */
  readonly ui: MockUi;
  /** Messages sent with `svc.message.send()` (confirmed ones only). */
  readonly sent: MockSentMessage[];
  /** Files saved with `svc.files.save()`. */
  readonly saved: MockSavedFile[];
  /** `svc.actions.progress()` messages, with the action they belong to. */
  readonly progress: { action: string; message: string }[];
  /** The `answers.*` names that were needed but not given, in order (also when the app swallowed the error). */
  readonly unanswered: string[];
  /** `svc.storage` of this host. */
  readonly storage: MockStore;
  /** The underlying `createHost()` endpoint, for what the mock does not wrap. */
  readonly endpoint: HostEndpoint;

  /** Calls to one operation, e.g. `host.callsTo('storage.set')`. */
  callsTo(method: MethodName): MockCall[];
  /** The current state of a scope (undeclared scopes read `denied`). */
  permission(scope: PermissionScope): PermissionState;
  /** Changes a declared scope's state, as the person would in settings. */
  setPermission(scope: PermissionScope, state: PermissionState): void;
  /** `external-oauth`: signs the person in or out without a prompt. */
  setSignedIn(signedIn: boolean): void;
  /** Changes the theme and resolves once the app's `onThemeChange` callbacks have run. */
  setTheme(theme: Theme): Promise<void>;
  /**
   * Invokes a declared action as the person (default) or an agent would, and resolves to the handler's output.
   * Checks the input against `input_schema`, applies the confirmation floor, sets `ActionContext.confirmed`.
   * Aborting `options.signal` cancels it (`ERR_CANCELLED`; the handler's `context.signal` aborts). With the file
   * `svc types` writes, the name must be a declared action's, the input and the output are typed (cast a
   * deliberately wrong input: `input as never`).
   */
  invokeAction<N extends ActionName>(
    name: N,
    input: ActionInput<N>,
    context?: MockInvokeContext,
    options?: { signal?: AbortSignal },
  ): Promise<ActionOutput<N>>;
  /**
   * Throws naming every declared action without a handler (and every handler for an undeclared action), as of the
   * last announcement that arrived: call it after `await host.flush()`, since the app's `svc.actions.handle` reaches
   * the host as a message.
   */
  assertActionsHandled(): void;
  /** Makes the next calls to `method` reject, answer late, or never answer. */
  fail(method: MethodName, fault: MockFault & { code: string }): void;
  /** Makes the next calls to `method` answer `ms` late. */
  delay(method: MethodName, ms: number, options?: { times?: number }): void;
  /** Makes the next calls to `method` never answer (the client's timeout fires). */
  hang(method: MethodName, options?: { times?: number }): void;
  /** Removes injected faults, of one method or all. */
  clearFaults(method?: MethodName): void;
  /**
   * Resolves once every message already sent has been handled (fire-and-forget calls' effects included) and the app's
   * code that the answers resumed has sent what it sends next. It counts the messages in transit; it never waits on a
   * person's answer, an injected `delay` or `hang`, or a clock, so it works under fake timers.
   */
  flush(): Promise<void>;
  /** Clears the records (calls, UI, sent, saved, progress, unanswered) and the faults; state is kept. */
  reset(): void;
  /** Closes the channel: pending calls reject `ERR_DISCONNECTED`. */
  close(): void;
}
