/**
 * Every error code this SDK and its host send, with whether a retry can help.
 *
 * @remarks
 * The platform's specification names `ERR_PERMISSION_DENIED` and `ERR_SCOPE_NOT_DECLARED`; the rest is ours (README, error codes
 * table). A host may send codes that are not here; they are kept as they are.
 * @public
 */
export const ERROR_CODES = {
  /** The person refused (a permission, a send, a sign-in). Degrade; do not re-prompt in a loop. */
  ERR_PERMISSION_DENIED: false,
  /** The scope is not in the manifest's `permissions`. */
  ERR_SCOPE_NOT_DECLARED: false,
  /** The operation needs a scope the person has not granted; call `svc.permissions.request()` first. */
  ERR_SCOPE_NOT_GRANTED: false,
  /** An argument is missing or of the wrong type; nothing was done (the host refused it, or the client did). */
  ERR_INVALID_ARGUMENT: false,
  /** The host does not offer this operation (`svc.supports()` is false). */
  ERR_UNSUPPORTED: false,
  /** The call is not allowed in the manifest's auth mode (e.g. `getToken()` under `none`). */
  ERR_WRONG_AUTH_MODE: false,
  /** `external-oauth`: nobody is signed in; call `svc.auth.signIn()`. */
  ERR_SIGNED_OUT: false,
  /** No token for this person: the app is not installed for them, they left the tenant, or the version was revoked. */
  ERR_TOKEN_REFUSED: false,
  /** `svc.storage` would exceed its 256 KB quota. */
  ERR_QUOTA_EXCEEDED: false,
  /** The action is not declared in the manifest. */
  ERR_ACTION_NOT_DECLARED: false,
  /** The action is declared but the mini app registered no handler. */
  ERR_ACTION_NO_HANDLER: false,
  /** The action's input does not fit its `input_schema`. */
  ERR_ACTION_INVALID_INPUT: false,
  /** The action's handler threw. */
  ERR_ACTION_FAILED: false,
  /** `elicit()` or `progress()` was called outside a running action invocation. */
  ERR_NO_INVOCATION: false,
  /** The person cancelled (a share sheet, a picker). */
  ERR_CANCELLED: false,
  /** A frame did not follow the protocol (a malformed frame, or an error without a string code). */
  ERR_PROTOCOL: false,
  /** Not in a browser, or no host around this page (top-level page, SSR). */
  ERR_NO_HOST: false,
  /** The host did not answer in time. */
  ERR_TIMEOUT: true,
  /** The host did not answer the hello in time. */
  ERR_HOST_UNREACHABLE: true,
  /** The channel closed (teardown, reload, host gone) before the answer came. */
  ERR_DISCONNECTED: true,
  /** The host is rate limiting (`createHost`: 256 of the app's calls already wait for their answers); back off. */
  ERR_RATE_LIMITED: true,
  /** The host failed for a reason of its own. */
  ERR_INTERNAL: true,
} as const;

/**
 * A known error code.
 * @public
 */
export type KnownErrorCode = keyof typeof ERROR_CODES;

/**
 * An error code: a known one, or a string a newer host sends (kept as it is).
 * @public
 */
export type SvcErrorCode = KnownErrorCode | (string & {});
