/**
 * Who started an action invocation, handed to the handler of `svc.actions.handle()`.
 * @public
 */
export declare interface ActionContext {
    /** An AI agent or the person. */
    invoked_by: 'agent' | 'user';
    /** The agent's id, when an agent invoked the action. */
    agent_id?: string;
    /**
     * True when a human approved this specific call. The client passes `true` only when the host sent the boolean
     * `true`.
     */
    confirmed: boolean;
    /**
     * Aborts when the invoker cancels the invocation (an agent's cancelled tool call): stop, and pass it to `fetch`.
     * Given to handlers by the client; absent from the context a host sends.
     */
    signal?: AbortSignal;
}

/**
 * A handler registered with `svc.actions.handle()`: gets the action input (already checked by the host against
 * the manifest's `input_schema`) and returns the output (of `Output`, from the `output_schema`, once `svc types`
 * declared it), or a promise of it.
 * @public
 */
export declare type ActionHandler<Input = any, Output = unknown> = (input: Input, context: ActionContext) => Output | Promise<Output>;

/** The input of action `N`: from {@link SvcActionInputs} when declared, else `any` (untyped). @public */
export declare type ActionInput<N extends string> = N extends keyof SvcActionInputs ? SvcActionInputs[N] : any;

/** A declared action's name: any string until `svc types` declares them, then only those. @public */
export declare type ActionName = keyof SvcActionInputs extends never ? string : keyof SvcActionInputs & string;

/** The output of action `N`: from {@link SvcActionOutputs} when declared, else `unknown` (anything JSON). @public */
export declare type ActionOutput<N extends string> = N extends keyof SvcActionOutputs ? SvcActionOutputs[N] : unknown;

/**
 * `svc.auth.state()`.
 * @public
 */
export declare type AuthState = 'signed-in' | 'signed-out';

/**
 * The bridge version this SDK speaks; `svc.version` when no host says otherwise.
 * @public
 */
export declare const BRIDGE_VERSION = "1.0";

/**
 * A rich message card. The bridge's shape is not given by the platform's specification; we use the server API's Card.
 * @public
 */
export declare interface Card {
    /** Card title. */
    title: string;
    /** Card body text. */
    body: string;
    /** Buttons; may be omitted for a card without buttons. */
    actions?: CardAction[];
}

/**
 * One button of a {@link Card}.
 * @public
 */
export declare interface CardAction {
    /** Button text. */
    label: string;
    /** A route inside the mini app, opened when the button is pressed. */
    deep_link: string;
}

/**
 * `svc.ui.confirm()`.
 * @public
 */
export declare interface ConfirmRequest {
    /** Dialog title. */
    title: string;
    /** Dialog text. */
    body: string;
}

/**
 * Creates a `svc` client. Nothing happens at creation: the snapshot is read on first access to a synchronous
 * member, and the host is found on the first call (or the first `actions.handle` / `onThemeChange`).
 * @example
 * ```ts
 * const { svc } = createSvc({ timeout: 5000 });
 * const room = await svc.room.current();
 * ```
 * @public
 */
export declare function createSvc(options?: SvcOptions): SvcClient;

/**
 * What `svc.actions.elicit()` asks the person.
 * @public
 */
export declare interface ElicitRequest {
    /** The question, shown to the person. */
    prompt: string;
    /** A JSON Schema of the answer. */
    schema: Record<string, unknown>;
}

/**
 * The mark every error class of the package puts on its instances: a global symbol, which `Symbol.for` shares between
 * every copy of the SDK (ESM, CJS, two bundles) and every same-origin frame, where the classes themselves are not.
 *
 * @remarks
 * One mechanism for `SvcError`, `ManifestError`, `SvcApiError`, `SvcSignatureError` and `SvcTokenError`: each
 * instance carries `[ERROR_BRAND]: '<class name>'`, and each class's static `Symbol.hasInstance` asks
 * {@link hasErrorBrand}, so `instanceof` holds for an error of that class made anywhere. The server's and the
 * manifest's classes extend `brandedError` (below); `SvcError` writes the same two members out, because the mixin would
 * cost the browser client 16 of its last bytes.
 * @internal
 */
declare const ERROR_BRAND: unique symbol;

/**
 * Every error code this SDK and its host send, with whether a retry can help.
 *
 * @remarks
 * The platform's specification names `ERR_PERMISSION_DENIED` and `ERR_SCOPE_NOT_DECLARED`; the rest is ours (README, error codes
 * table). A host may send codes that are not here; they are kept as they are.
 * @public
 */
export declare const ERROR_CODES: {
    /** The person refused (a permission, a send, a sign-in). Degrade; do not re-prompt in a loop. */
    readonly ERR_PERMISSION_DENIED: false;
    /** The scope is not in the manifest's `permissions`. */
    readonly ERR_SCOPE_NOT_DECLARED: false;
    /** The operation needs a scope the person has not granted; call `svc.permissions.request()` first. */
    readonly ERR_SCOPE_NOT_GRANTED: false;
    /** An argument is missing or of the wrong type; nothing was done (the host refused it, or the client did). */
    readonly ERR_INVALID_ARGUMENT: false;
    /** The host does not offer this operation (`svc.supports()` is false). */
    readonly ERR_UNSUPPORTED: false;
    /** The call is not allowed in the manifest's auth mode (e.g. `getToken()` under `none`). */
    readonly ERR_WRONG_AUTH_MODE: false;
    /** `external-oauth`: nobody is signed in; call `svc.auth.signIn()`. */
    readonly ERR_SIGNED_OUT: false;
    /** No token for this person: the app is not installed for them, they left the tenant, or the version was revoked. */
    readonly ERR_TOKEN_REFUSED: false;
    /** `svc.storage` would exceed its 256 KB quota. */
    readonly ERR_QUOTA_EXCEEDED: false;
    /** The action is not declared in the manifest. */
    readonly ERR_ACTION_NOT_DECLARED: false;
    /** The action is declared but the mini app registered no handler. */
    readonly ERR_ACTION_NO_HANDLER: false;
    /** The action's input does not fit its `input_schema`. */
    readonly ERR_ACTION_INVALID_INPUT: false;
    /** The action's handler threw. */
    readonly ERR_ACTION_FAILED: false;
    /** `elicit()` or `progress()` was called outside a running action invocation. */
    readonly ERR_NO_INVOCATION: false;
    /** The person cancelled (a share sheet, a picker). */
    readonly ERR_CANCELLED: false;
    /** A frame did not follow the protocol (a malformed frame, or an error without a string code). */
    readonly ERR_PROTOCOL: false;
    /** Not in a browser, or no host around this page (top-level page, SSR). */
    readonly ERR_NO_HOST: false;
    /** The host did not answer in time. */
    readonly ERR_TIMEOUT: true;
    /** The host did not answer the hello in time. */
    readonly ERR_HOST_UNREACHABLE: true;
    /** The channel closed (teardown, reload, host gone) before the answer came. */
    readonly ERR_DISCONNECTED: true;
    /** The host is rate limiting (`createHost`: 256 of the app's calls already wait for their answers); back off. */
    readonly ERR_RATE_LIMITED: true;
    /** The host failed for a reason of its own. */
    readonly ERR_INTERNAL: true;
};

/**
 * Who the person is, as far as the mini app needs for display. A suggestion until the backend validates a token.
 * @public
 */
export declare interface Identity {
    /** Stable for the pair (user, mini app); two mini apps serving one person get different, non-correlatable ids. */
    app_user_id: string;
    /** Needs `identity.basic`. */
    display_name?: string;
    /** Needs `identity.basic`. */
    avatar_url?: string;
    /** Needs `identity.email`. */
    email?: string;
    /** The tenant (organisation) the person belongs to. */
    tenant_id: string;
    /** BCP 47 locale of the person. */
    locale: string;
}

/**
 * Whether `value` is an {@link SvcError}, also one made by another copy of the SDK.
 * @public
 */
export declare function isSvcError(value: unknown): value is SvcError;

/**
 * `T` where every value in it is JSON, else `never` there: strings, numbers, booleans, null, arrays and objects of
 * them, an `interface` of such fields included (which {@link JsonValue}, an index signature, does not take). What
 * `svc.storage.set` accepts: a function, a `Date`, a `Map` or a `Blob` in it is a compile error. Numbers are not known
 * finite at compile time (`NaN` is refused when the value is sent), and an optional field is taken as absent: one set
 * to `undefined` is refused then too.
 * @public
 */
export declare type JsonCompatible<T> = T extends string | number | boolean | null ? T : T extends readonly (infer U)[] ? readonly JsonCompatible<U>[] : T extends (...args: never[]) => unknown ? never : T extends object ? {
    [K in keyof T]: JsonCompatible<T[K]>;
} : never;

/**
 * A JSON value: what `svc.storage` keeps.
 * @public
 */
export declare type JsonValue = string | number | boolean | null | JsonValue[] | {
    [key: string]: JsonValue;
};

/**
 * A known error code.
 * @public
 */
export declare type KnownErrorCode = keyof typeof ERROR_CODES;

/**
 * What a host hands over before app code runs, so that the synchronous members of `svc` can answer at once.
 *
 * @remarks
 * A web host puts it, JSON-encoded, in the iframe URL's fragment as `#svc=<encodeURIComponent(json)>`; a native
 * host injects it as `globalThis.__svc_launch` before the page's scripts run. The welcome of the window bootstrap
 * may carry a fresher copy. See PROTOCOL.md.
 * @public
 */
export declare interface LaunchSnapshot {
    /** The bridge version the host speaks: `svc.version`. */
    bridge: string;
    /** The operations the host offers: `svc.supports()` answers from this list. */
    methods: string[];
    /** `svc.app` values. */
    app: {
        id: string;
        version: string;
        locale: string;
        theme: Theme;
        launch_params: Record<string, string>;
    };
    /** Web hosts: the host page's exact origin, the only one the app says hello to and accepts a welcome from. */
    host_origin?: string;
}

/** Every operation name that crosses the wire from app to host, e.g. `'room.current'`. @public */
export declare type MethodName = {
    [N in Exclude<keyof Svc, 'version' | 'supports' | 'app'>]: `${N}.${Exclude<keyof Svc[N] & string, 'handle'>}`;
}[Exclude<keyof Svc, 'version' | 'supports' | 'app'>];

/**
 * A message the person sends from their own client: `svc.message.send()`.
 * @public
 */
export declare interface OutgoingMessage {
    /** The room to send into (from `svc.room.current()`). */
    room_id: string;
    /** Message text. */
    body: string;
    /** An optional card shown with the message. */
    card?: Card;
}

/**
 * A short permission scope as used by `svc.permissions.query()` and `svc.permissions.request()`.
 * @public
 */
export declare type PermissionScope = 'identity.basic' | 'identity.email' | 'room.context' | 'room.send' | 'files.read' | 'files.write' | 'notifications' | 'camera';

/**
 * `svc.permissions.query()`.
 * @public
 */
declare type PermissionState_2 = 'granted' | 'denied' | 'prompt';
export { PermissionState_2 as PermissionState }

/**
 * Options of `svc.files.pick()`.
 * @public
 */
export declare interface PickOptions {
    /** MIME types to offer, e.g. `['image/png', 'application/pdf']`; all types when omitted. */
    accept?: string[];
    /** Whether the person may pick more than one file. */
    multiple?: boolean;
}

/**
 * The room the mini app was opened from.
 * @public
 */
export declare interface Room {
    /** The room's id, as `svc.message.send({ room_id })` takes it. */
    room_id: string;
    /** Display name, when the room has one. */
    name?: string;
    /** Whether the room is end-to-end encrypted (a backend cannot post cards into it; `svc.message.send` can). */
    is_encrypted: boolean;
    /** Number of members. */
    member_count: number;
}

/**
 * A file to save into the person's service storage: `svc.files.save()`.
 * @public
 */
export declare interface SaveFile {
    /** File name with extension. */
    name: string;
    /** The content. */
    blob: Blob;
}

/**
 * `svc.ui.share()`.
 * @public
 */
export declare interface ShareRequest {
    /** What is shared, as a title. */
    title: string;
    /** The URL shared. */
    url: string;
}

/**
 * The `svc` global: the only non-standard global a mini app receives.
 * @public
 */
export declare interface Svc {
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
    /** `svc.storage`: a small (256 KB) key-value store of JSON values that survives reinstall and syncs across the person's devices. Larger data belongs on your backend: a web host's frame may get no IndexedDB (docs/app.md, "Browser storage in your frame"). */
    readonly storage: SvcStorage;
    /** `svc.permissions`: request at the moment of use, with the action visible. */
    readonly permissions: SvcPermissions;
}

/**
 * The `svc` bridge for this page. It connects to its host on first use; importing it has no side effects.
 * @public
 */
export declare const svc: Svc;

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
export declare interface SvcActionInputs {
}

/**
 * The output of each action that declares an `output_schema`, by name: empty until `npx svc types` fills it, as
 * {@link SvcActionInputs}. A handler's result must then be of this type.
 * @public
 */
export declare interface SvcActionOutputs {
}

/**
 * `svc.actions`: the agent-callable actions the manifest declares.
 * @public
 */
export declare interface SvcActions {
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
 * `svc.app`: the launch snapshot, read once at start-up, and theme changes.
 * @public
 */
export declare interface SvcApp {
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
 * `svc.auth`: tokens for the mini app's own backend, in the manifest's auth mode.
 * @public
 */
export declare interface SvcAuth {
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
 * A client: the `svc` facade and the channel under it.
 * @public
 */
export declare interface SvcClient {
    /** The facade. */
    readonly svc: Svc;
    /**
     * Closes the channel: pending calls reject with `ERR_DISCONNECTED`. The next call connects again to a host the
     * SDK found; a client made with an explicit `transport` stays closed.
     */
    close(): void;
}

/**
 * Every rejection of a `svc.*` call.
 *
 * @remarks
 * `message` is safe to log: anything shaped like a token is redacted. `instanceof SvcError` holds for an error made by
 * any entry of the package (ESM or CJS), another copy of the SDK or another same-origin frame, as does
 * {@link isSvcError}.
 * @example
 * ```ts
 * try {
 *   await svc.permissions.request('room.context');
 * } catch (e) {
 *   if (isSvcError(e) && e.retriable) setTimeout(retry, 1000);
 * }
 * ```
 * @public
 */
export declare class SvcError extends Error {
    readonly name = "SvcError";
    /** The package's mark, shared by every copy of the SDK (see `hasErrorBrand`). @internal */
    readonly [ERROR_BRAND] = "SvcError";
    /** `instanceof SvcError` holds for an error of this class made by any copy of the SDK, in any same-origin frame. */
    static [Symbol.hasInstance]: typeof isSvcError;
    /** The error code (see the error table in docs/app.md); unknown codes from a newer host are kept. */
    readonly code: SvcErrorCode;
    /** Whether the caller may back off and retry. */
    readonly retriable: boolean;
    /** The `svc.*` operation that failed, e.g. `'room.current'`. */
    readonly method?: string;
    /**
     * @param message - what happened and what to do; prefixed with `svc.<method>(): ` when `method` is given and the
     * message does not already name an operation.
     * @param retriable - whether backing off and retrying can help: `false` unless given, whatever the code (the
     * codes table's column is what the platform sends; pass it for a code such as `ERR_TIMEOUT`).
     */
    constructor(code: SvcErrorCode, message: string, retriable?: boolean, method?: string, options?: {
        cause?: unknown;
    });
}

/**
 * An error code: a known one, or a string a newer host sends (kept as it is).
 * @public
 */
export declare type SvcErrorCode = KnownErrorCode | (string & {});

/**
 * A file from the person's service storage, as `svc.files.pick()` returns it. The platform's specification does not give the
 * fields; these are our decision (README).
 * @public
 */
export declare interface SvcFile {
    /** The file's id in the person's storage. */
    file_id: string;
    /** File name with extension. */
    name: string;
    /** MIME type. */
    type: string;
    /** Size in bytes. */
    size: number;
    /** The content. */
    blob: Blob;
}

/**
 * `svc.files`: files in the person's service storage.
 * @public
 */
export declare interface SvcFiles {
    /** Lets the person pick files from their service storage. Needs `files.read`. */
    pick(options?: PickOptions): Promise<SvcFile[]>;
    /** Saves a file into the person's service storage. Needs `files.write`. */
    save(file: SaveFile): Promise<{
        file_id: string;
    }>;
}

/**
 * `svc.identity`.
 * @public
 */
export declare interface SvcIdentity {
    /**
     * Who the person is, for display only: never use it for authorisation (send a token to your backend instead).
     * Fields beyond `app_user_id`, `tenant_id` and `locale` appear only with their scope granted.
     */
    get(): Promise<Identity>;
}

/**
 * Every member name `svc.supports()` knows, as written after `svc.` (`'room.current'`). Typed so an editor completes
 * it and flags a typo; any string is still accepted (a newer host may offer more).
 * @public
 */
export declare type SvcMember = MethodName | 'version' | 'supports' | 'app.id' | 'app.version' | 'app.locale' | 'app.theme' | 'app.launchParams' | 'app.onThemeChange' | 'actions.handle';

/**
 * `svc.message`.
 * @public
 */
export declare interface SvcMessage {
    /**
     * Sends a message as the person, from their own client; the host asks them to confirm every time. Needs
     * `room.send`. Works in end-to-end encrypted rooms, where a backend cannot post.
     */
    send(message: OutgoingMessage): Promise<{
        event_id: string;
    }>;
}

/**
 * Options of {@link createSvc}.
 * @public
 */
export declare interface SvcOptions {
    /** A ready transport (tests, custom hosts); by default the SDK finds its host on first use. */
    transport?: Transport;
    /** A launch snapshot to use instead of the host's (dev override, tests). */
    snapshot?: Partial<LaunchSnapshot>;
    /** The host page's exact origin, when the snapshot does not carry it. Never `'*'`. */
    hostOrigin?: string;
    /**
     * The host origins this app trusts (exact origins). Default: the space-separated list in the page's
     * `<meta name="svc-host-origins" content="...">`, which the platform that serves the package writes. A host origin
     * not in the list is refused (`ERR_NO_HOST`): whoever frames the app can name any origin in its fragment.
     */
    hostOrigins?: string[];
    /** Ms to wait for an answer to a call that does not wait on a person. Default 10 000. */
    timeout?: number;
    /** Ms to wait for a web host to answer the hello (a native WebView's bridge needs no wait). Default 3 000. */
    connectTimeout?: number;
    /** Ms to wait for a call that waits on a person (a prompt, a picker, a sheet). Default 600 000 (ten minutes). */
    promptTimeout?: number;
}

/**
 * `svc.permissions`: request at the moment of use, with the action visible.
 * @public
 */
export declare interface SvcPermissions {
    /** The current state of a scope, without prompting. */
    query(scope: PermissionScope): Promise<PermissionState_2>;
    /** Asks the person; rejects `ERR_SCOPE_NOT_DECLARED` without prompting for a scope the manifest lacks. */
    request(scope: PermissionScope): Promise<'granted' | 'denied'>;
}

/**
 * `svc.room`.
 * @public
 */
export declare interface SvcRoom {
    /** The room the mini app was opened from, or `null` when launched from the home grid (the common case). Needs `room.context`. */
    current(): Promise<Room | null>;
}

/**
 * `svc.storage`: a small (256 KB) key-value store of JSON values that survives reinstall and syncs across the
 * person's devices. Larger data belongs on your backend (a web host's frame may get no IndexedDB).
 * @public
 */
export declare interface SvcStorage {
    /**
     * The value stored under `key`, or `undefined` when there is none. `T` names what you stored (`get<Note[]>('notes')`)
     * and is not checked: a value an older version of the app stored may have another shape.
     */
    get<T = JsonValue>(key: string): Promise<T | undefined>;
    /**
     * Stores a JSON value, such as an object of an `interface` whose fields are JSON (a function, a `Date` or a `Map` in
     * it is a compile error); rejects `ERR_QUOTA_EXCEEDED` past the quota, and `ERR_INVALID_ARGUMENT` naming where a
     * value is not JSON (`NaN`, a field set to `undefined`).
     */
    set<T>(key: string, value: T & JsonCompatible<T>): Promise<void>;
    /** Stores a JSON value (the form the wire carries). */
    set(key: string, value: JsonValue): Promise<void>;
    /** Removes one key. */
    remove(key: string): Promise<void>;
    /** Removes every key. */
    clear(): Promise<void>;
}

/**
 * `svc.ui`: the host's own UI.
 * @public
 */
export declare interface SvcUi {
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
 * The colour scheme the host shows: `svc.app.theme`.
 * @public
 */
export declare type Theme = 'light' | 'dark';

/**
 * `svc.ui.toast()`.
 * @public
 */
export declare interface Toast {
    /** The text shown. */
    message: string;
    /** Styling; `'info'` when omitted. */
    kind?: 'info' | 'success' | 'error';
}

/**
 * A short-lived access token from `svc.auth.getToken()`. Call before each use; never cache, store or log it.
 * @public
 */
export declare interface Token {
    /** The bearer token for the mini app's own backend. */
    access_token: string;
    /** Lifetime in seconds (the platform's specification does not give the unit; seconds as in OAuth 2.0). */
    expires_in: number;
}

/**
 * A message pipe between the app and its host: a MessagePort, a native WebView bridge, or an in-memory pair.
 * @public
 */
export declare interface Transport {
    /**
     * Sends one message. May throw (a value that cannot be cloned) or return a rejecting promise (an async encoder);
     * either rejects the call that sent it.
     */
    send(message: unknown): void | Promise<void>;
    /** Sets the one receiver of inbound messages. */
    listen(receive: (message: unknown) => void): void;
    /** Stops delivery both ways and frees the pipe. */
    close(): void;
}

/**
 * The error shape on the wire: whitelisted fields only, never a stack.
 * @public
 */
export declare interface WireError {
    /** An error code. */
    code: string;
    /** A sentence saying what happened and what to do. */
    message: string;
    /** Whether backing off and retrying can help. */
    retriable: boolean;
}

export { }
