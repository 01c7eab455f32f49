/**
 * What each error code means and what a caller should do: the error table of docs/app.md is generated from this and
 * `ERROR_CODES` (`npm run docs:tables`; a test fails when the table drifts). It is documentation, not shipped code;
 * its type lists every code of `ERROR_CODES`, so a new code does not compile (tsc covers scripts/) without its advice.
 * @internal
 */
import type { ERROR_CODES } from '../src/protocol/errorCodes';

/** A code's meaning and what to do, as the docs table shows them (Markdown). @internal */
export interface ErrorAdvice {
  meaning: string;
  todo: string;
}

/** The advice of every code in `ERROR_CODES`, in its order. @internal */
export const ERROR_ADVICE: { readonly [C in keyof typeof ERROR_CODES]: ErrorAdvice } = {
  ERR_PERMISSION_DENIED: {
    meaning: 'the person refused (a permission, a send, a sign-in, an action)',
    todo: 'degrade; do not re-prompt in a loop',
  },
  ERR_SCOPE_NOT_DECLARED: {
    meaning: "the scope is not in the manifest's `permissions`",
    todo: 'declare it in the manifest',
  },
  ERR_SCOPE_NOT_GRANTED: {
    meaning: 'the operation needs a scope that is not granted',
    todo: '`svc.permissions.request(scope)` at the moment of use',
  },
  ERR_INVALID_ARGUMENT: {
    meaning: 'an argument is missing or of the wrong type; nothing was done (the host refused it, or the client did)',
    todo: 'fix the call (the message names the field)',
  },
  ERR_UNSUPPORTED: {
    meaning: 'this host does not offer the operation',
    todo: 'check `svc.supports()` first and degrade',
  },
  ERR_WRONG_AUTH_MODE: {
    meaning: "not allowed in the manifest's auth mode (`getToken()` under `none`, `signIn()` outside `external-oauth`)",
    todo: "use the mode's flow",
  },
  ERR_SIGNED_OUT: { meaning: '`external-oauth`: nobody is signed in', todo: '`svc.auth.signIn()`' },
  ERR_TOKEN_REFUSED: {
    meaning:
      '`getToken()`: no token for this person; the message says why (the app is not installed for them, they left the tenant, the version was revoked)',
    todo: 'stop calling your backend for this person; say why',
  },
  ERR_QUOTA_EXCEEDED: {
    meaning: '`svc.storage` would pass 256 KB',
    todo: 'store less, or keep larger data on your backend',
  },
  ERR_ACTION_NOT_DECLARED: { meaning: 'the action is not in the manifest', todo: 'declare it' },
  ERR_ACTION_NO_HANDLER: {
    meaning: 'the action is declared but has no handler',
    todo: '`svc.actions.handle(name, fn)`',
  },
  ERR_ACTION_INVALID_INPUT: { meaning: "the input does not fit the action's `input_schema`", todo: 'fix the input' },
  ERR_ACTION_FAILED: { meaning: "the action's handler threw", todo: 'see the message' },
  ERR_NO_INVOCATION: {
    meaning: '`elicit()` or `progress()` outside a running action',
    todo: 'call them inside the handler',
  },
  ERR_CANCELLED: { meaning: 'the person cancelled a sheet or picker', todo: 'nothing; they changed their mind' },
  ERR_PROTOCOL: {
    meaning: 'a frame broke the protocol (a malformed frame, or an error without a string code)',
    todo: "report it to the host's maker",
  },
  ERR_NO_HOST: {
    meaning:
      "no trusted host here, and the message says why: no window (SSR, Node), no host's frame, another parent origin, an unlisted origin",
    todo: 'run inside a host that `<meta name="svc-host-origins">` lists; in tests use `svc-sdk/mock`',
  },
  ERR_HOST_UNREACHABLE: {
    meaning:
      'the host did not answer the hello within `connectTimeout` (web hosts; in a native WebView a silent host shows as `ERR_TIMEOUT`)',
    todo: 'retry; check the page is opened by a host',
  },
  ERR_TIMEOUT: { meaning: "no answer within the call's timeout", todo: 'back off and retry' },
  ERR_DISCONNECTED: {
    meaning: 'the channel closed (teardown, reload, host gone) before the answer',
    todo: 'retry; the next call reconnects',
  },
  ERR_RATE_LIMITED: {
    meaning: "the host is rate limiting (`createHost`: 256 of the app's calls already wait for their answers)",
    todo: 'back off; await calls rather than making thousands at once',
  },
  ERR_INTERNAL: { meaning: 'the host failed for a reason of its own', todo: 'back off and retry' },
};
