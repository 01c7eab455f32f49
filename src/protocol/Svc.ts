import type { MethodName } from './methods';
import type { PermissionScope } from './scopes';
import type {
  ActionHandler,
  AuthState,
  ConfirmRequest,
  ElicitRequest,
  Identity,
  JsonValue,
  OutgoingMessage,
  PermissionState,
  PickOptions,
  Room,
  SaveFile,
  ShareRequest,
  SvcFile,
  Theme,
  Toast,
  Token,
} from './types';

/**
 * `svc.app`: the launch snapshot, read once at start-up, and theme changes.
 * @public
 */
export interface SvcApp {
  /** The mini app's id (16 lowercase hex characters). */
  readonly id: string;
  /** The running package version (major.minor.patch). */
  readonly version: string;
  /** The person's locale, BCP 47. */
  readonly locale: string;
  /** The host's current colour scheme; kept current as theme changes arrive. */
  readonly theme: Theme;
  /** Deep-link parameters the mini app was opened with. */
  readonly launchParams: Readonly<Record<string, string>>;
  /**
   * Calls `callback` with the new theme each time the host's theme changes.
   * @returns A function that unsubscribes.
   */
  onThemeChange(callback: (theme: Theme) => void): () => void;
}

/**
 * `svc.identity`.
 * @public
 */
export interface SvcIdentity {
  /**
   * Who the person is, for display only: never use it for authorisation (send a token to your backend instead).
   * Fields beyond `app_user_id`, `tenant_id` and `locale` appear only with their scope granted.
   */
  get(): Promise<Identity>;
}

/**
 * `svc.auth`: tokens for the mini app's own backend, in the manifest's auth mode.
 * @public
 */
export interface SvcAuth {
  /**
   * A short-lived token for the mini app's backend. Call before each use: the SDK never caches it, and neither
   * should you. Rejects with `ERR_WRONG_AUTH_MODE` under auth mode `none`, `ERR_SIGNED_OUT` in `external-oauth`
   * before `signIn()`.
   */
  getToken(): Promise<Token>;
  /** `external-oauth` only: opens the system's sign-in sheet. Rejects `ERR_PERMISSION_DENIED` when the person cancels. */
  signIn(): Promise<void>;
  /** Signs the person out of the mini app's backend. */
  signOut(): Promise<void>;
  /** Whether a token can be had now. */
  state(): Promise<AuthState>;
}

/**
 * `svc.room`.
 * @public
 */
export interface SvcRoom {
  /** The room the mini app was opened from, or `null` when launched from the home grid (the common case). Needs `room.context`. */
  current(): Promise<Room | null>;
}

/**
 * `svc.message`.
 * @public
 */
export interface SvcMessage {
  /**
   * Sends a message as the person, from their own client; the host asks them to confirm every time. Needs
   * `room.send`. Works in end-to-end encrypted rooms, where a backend cannot post.
   */
  send(message: OutgoingMessage): Promise<{ event_id: string }>;
}

/**
 * `svc.files`: files in the person's service storage.
 * @public
 */
export interface SvcFiles {
  /** Lets the person pick files from their service storage. Needs `files.read`. */
  pick(options?: PickOptions): Promise<SvcFile[]>;
  /** Saves a file into the person's service storage. Needs `files.write`. */
  save(file: SaveFile): Promise<{ file_id: string }>;
}

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
  handle<N extends ActionName>(name: N, handler: ActionHandler<ActionInput<N>>): () => void;
  /** Asks the person for more input during the running invocation; `null` when they refused or cancelled. */
  elicit(request: ElicitRequest): Promise<unknown>;
  /** Reports progress of the running invocation to the person or agent. */
  progress(message: string): void;
}

/**
 * `svc.ui`: the host's own UI.
 * @public
 */
export interface SvcUi {
  /** Sets the title shown in the host's bar. */
  setTitle(title: string): void;
  /** Shows a short message. */
  toast(toast: Toast): void;
  /** Asks the person a yes/no question; true when they agreed. */
  confirm(request: ConfirmRequest): Promise<boolean>;
  /** Opens an http(s) URL in the system browser, never an in-app browser. */
  openExternal(url: string): Promise<void>;
  /** Closes the mini app. */
  close(): void;
  /** Opens the host's share sheet. */
  share(request: ShareRequest): Promise<void>;
}

/**
 * `svc.storage`: a small (256 KB) key-value store of JSON values that survives reinstall and syncs across the
 * person's devices. Larger data belongs in IndexedDB.
 * @public
 */
export interface SvcStorage {
  /** The value stored under `key`, or `undefined` when there is none. */
  get(key: string): Promise<JsonValue | undefined>;
  /** Stores a JSON value; rejects `ERR_QUOTA_EXCEEDED` past the quota. */
  set(key: string, value: JsonValue): Promise<void>;
  /** Removes one key. */
  remove(key: string): Promise<void>;
  /** Removes every key. */
  clear(): Promise<void>;
}

/**
 * `svc.permissions`: request at the moment of use, with the action visible.
 * @public
 */
export interface SvcPermissions {
  /** The current state of a scope, without prompting. */
  query(scope: PermissionScope): Promise<PermissionState>;
  /** Asks the person; rejects `ERR_SCOPE_NOT_DECLARED` without prompting for a scope the manifest lacks. */
  request(scope: PermissionScope): Promise<'granted' | 'denied'>;
}

/**
 * Every member name `svc.supports()` knows, as written after `svc.` (`'room.current'`). Typed so an editor completes
 * it and flags a typo; any string is still accepted (a newer host may offer more).
 * @public
 */
export type SvcMember =
  | MethodName
  | 'version'
  | 'supports'
  | 'app.id'
  | 'app.version'
  | 'app.locale'
  | 'app.theme'
  | 'app.launchParams'
  | 'app.onThemeChange'
  | 'actions.handle';

/**
 * The `svc` global: the only non-standard global a mini app receives.
 * @public
 */
export interface Svc {
  /** The bridge version the host speaks (the SDK's own when no host is around). */
  readonly version: string;
  /**
   * Feature detection: whether `member` can be used here, e.g. `svc.supports('files.pick')` or
   * `svc.supports('svc.files.pick')`. Operations the host serves are answered from what it advertised; members the
   * app side provides (`actions.handle`, `app.onThemeChange`, the `svc.app` values, `version`, `supports`) are always
   * true. An unknown name is false.
   */
  supports(member: SvcMember | `svc.${SvcMember}` | (string & {})): boolean;
  /** `svc.app`: the launch snapshot, read once at start-up, and theme changes. */
  readonly app: SvcApp;
  /** `svc.identity`: who the person is, for display only; never authorisation (verify the token on your backend). */
  readonly identity: SvcIdentity;
  /** `svc.auth`: tokens for the mini app's own backend, in the manifest's auth mode. */
  readonly auth: SvcAuth;
  /** `svc.room`: the room the mini app was opened from (needs `room.context`); `null` from the home grid. */
  readonly room: SvcRoom;
  /** `svc.message`: send into a room as the person, from their own client; they confirm every send. */
  readonly message: SvcMessage;
  /** `svc.files`: files in the person's service storage. */
  readonly files: SvcFiles;
  /** `svc.actions`: the agent-callable actions the manifest declares. */
  readonly actions: SvcActions;
  /** `svc.ui`: the host's own UI. */
  readonly ui: SvcUi;
  /** `svc.storage`: a small (256 KB) key-value store of JSON values that survives reinstall and syncs across the person's devices. Larger data belongs in IndexedDB. */
  readonly storage: SvcStorage;
  /** `svc.permissions`: request at the moment of use, with the action visible. */
  readonly permissions: SvcPermissions;
}
