import type { HostHandlers } from '../host/types';
import type { PermissionScope } from '../protocol/scopes';
import type { ActionContext, Identity, OutgoingMessage, PickOptions, Room, SvcFile, Theme } from '../protocol/types';
import type { StorageStore as MockStore } from '../host/rules/createMemoryStorage';

/**
 * How the person answers the host's prompts in a test. Each answer may return its value or a Promise of it.
 *
 * @remarks
 * An answer that is needed but not given rejects the app's call with `ERR_MOCK_UNANSWERED`, whose message names
 * the `answers.*` member to provide: a test never passes because a prompt was silently approved.
 * @public
 */
export interface MockAnswers {
  /** `svc.permissions.request(scope)` of a declared scope in state `prompt`. */
  permission?: (scope: PermissionScope) => 'granted' | 'denied' | Promise<'granted' | 'denied'>;
  /** `svc.ui.confirm()`: true when the person agreed. */
  confirm?: (request: { title: string; body: string }) => boolean | Promise<boolean>;
  /** The per-send confirmation of `svc.message.send()`: false makes the send reject `ERR_PERMISSION_DENIED`. */
  send?: (message: OutgoingMessage) => boolean | Promise<boolean>;
  /** Confirmation of an action invocation whose `confirm` floor (or `confirmActions: 'always'`) asks for one. */
  confirmAction?: (request: {
    name: string;
    input: unknown;
    context: Omit<ActionContext, 'confirmed'>;
  }) => boolean | Promise<boolean>;
  /** `svc.actions.elicit()`: the value the person entered, or `null` when they refused or cancelled. */
  elicit?: (request: { prompt: string; schema: Record<string, unknown>; action: string }) => unknown;
  /** `external-oauth` sign-in sheet: false when the person cancels (`ERR_PERMISSION_DENIED`). */
  signIn?: () => boolean | Promise<boolean>;
  /**
   * `svc.files.pick()`: the files the person picks from those offered (already filtered by `accept`), or `null`
   * to cancel (`ERR_CANCELLED`). Default: the first offered file, or all of them when `multiple` is set.
   */
  pick?: (request: { options: PickOptions; offered: SvcFile[] }) => SvcFile[] | null | Promise<SvcFile[] | null>;
  /** `svc.ui.share()`: false when the person dismisses the sheet (`ERR_CANCELLED`). Default: shared. */
  share?: (request: { title: string; url: string }) => boolean | Promise<boolean>;
}

/**
 * A file the person has in their service storage, offered by `svc.files.pick()`.
 * @public
 */
export interface MockFile {
  /** File name with extension. */
  name: string;
  /** MIME type; default `application/octet-stream`. */
  type?: string;
  /** The content; default empty. */
  content?: string | Blob;
  /** Default `file-<n>`. */
  file_id?: string;
}

/**
 * Options of {@link createMockHost}.
 * @public
 */
export interface MockHostOptions {
  /** The mini app's manifest (the parsed `manifest.json`); validated, and an invalid one throws naming each problem. */
  manifest: unknown;
  /** Who the person is. `app_user_id` defaults to the HMAC of `userId` and the manifest id; `tenant_id` to `'tenant-mock'`. */
  identity?: Partial<Identity>;
  /** The platform user id `app_user_id` is derived from. Default `'user-1'`. */
  userId?: string;
  /** The tenant key of that HMAC. Default `'mock-tenant-key'`. */
  tenantKey?: string;
  /** The room the app was opened from; default `null` (launched from the home grid). */
  room?: Room | null;
  /** Default `'light'`. */
  theme?: Theme;
  /** BCP 47; default the identity's locale, else the manifest's `default_locale`, else `'en'`. */
  locale?: string;
  /** Deep-link parameters; default `{}`. */
  launchParams?: Record<string, string>;
  /** Initial state of declared scopes; the others start at `prompt`. Setting an undeclared scope throws. */
  permissions?: Partial<Record<PermissionScope, 'granted' | 'denied' | 'prompt'>>;
  /** How the person answers prompts. */
  answers?: MockAnswers;
  /** Files offered by `svc.files.pick()`. */
  files?: MockFile[];
  /** A store shared between hosts, so data survives a relaunch; default a fresh one per host. */
  storage?: MockStore;
  /** `external-oauth`: whether the person starts signed in. Default false. */
  signedIn?: boolean;
  /** The `iss` of minted tokens (`svc-exchange`). Default `'https://auth.svc.mock/realms/mock'`. */
  issuer?: string;
  /** Lifetime of minted tokens in seconds. Default 300. */
  tokenLifetime?: number;
  /** `'floor'` (default) follows each action's `confirm`; `'always'` plays a stricter tenant policy. */
  confirmActions?: 'floor' | 'always';
  /** Replaces the mock's handler of an operation (scope checks and faults still apply). */
  handlers?: HostHandlers;
  /** The client's timeout (ms) for calls that do not wait on a person. Default 10 000. */
  timeout?: number;
  /** The client's timeout (ms) for calls that wait on a person. Default 600 000. */
  promptTimeout?: number;
}

/**
 * One bridge call the host saw, with its outcome once it has one.
 * @public
 */
export interface MockCall {
  /** The wire name, e.g. `'room.current'`. */
  method: string;
  /** The params as the host received them. */
  params: unknown;
  /** `Date.now()` when it arrived. */
  at: number;
  /** The answer, once it resolved (absent for fire-and-forget operations). */
  result?: unknown;
  /** The error code and message, once it rejected. */
  error?: { code: string; message: string };
}

/**
 * What the host's UI showed, in order.
 * @public
 */
export interface MockUi {
  /** The current title (the last `setTitle`). */
  title: string | undefined;
  /** Every title set. */
  titles: string[];
  /** Every toast, `kind` defaulting to `'info'`. */
  toasts: { message: string; kind: 'info' | 'success' | 'error' }[];
  /** Every URL handed to the system browser. */
  opened: string[];
  /** Every share. */
  shares: { title: string; url: string }[];
  /** Every `svc.ui.confirm()` asked, with the answer. */
  confirms: { title: string; body: string; answer: boolean }[];
  /** How many times `svc.ui.close()` was called. */
  closed: number;
}

/**
 * A fault to inject into an operation's answer.
 * @public
 */
export interface MockFault {
  /** Reject with this code. */
  code?: string;
  /** The message of that rejection. */
  message?: string;
  /** Its `retriable`; default from the known codes' table, else false. */
  retriable?: boolean;
  /** Answer this many ms late (then normally, unless `code` or `hang`). */
  delay?: number;
  /** Never answer: the client's timeout fires. */
  hang?: boolean;
  /** How many calls it applies to; default every call until {@link MockHost.clearFaults}. */
  times?: number;
}
