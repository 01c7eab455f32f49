import { any, arr, bool, lit, obj, opt, str, text } from './shape';

/**
 * The registry of what the host sends the app, beside the app's calls (`methods.ts`): params the host checks before
 * it sends. The app trusts its host for these, as for everything else it answers (identity, tokens): the browser
 * client carries no copy of these checks. It only takes `context.confirmed` as true when it is `true`, and ignores a
 * theme that is neither light nor dark (docs/decisions.md, the client's size budget).
 *
 * - `actions.invoke`, a request: run the handler of a declared action.
 * - `app.themeChanged`, a notification: the theme changed.
 * - `actions.cancel`, a notification: the invoker cancelled a running invocation; its handler's `signal` aborts.
 * @public
 */
export const toApp = {
  'actions.invoke': obj({
    invocation: text,
    name: text,
    input: any,
    context: obj({ invoked_by: lit('agent', 'user'), agent_id: opt(str), confirmed: bool }),
  }),
  'app.themeChanged': obj({ theme: lit('light', 'dark') }),
  'actions.cancel': /* @__PURE__ */ obj({ invocation: text }),
};

/**
 * The registry of the app's channel messages that are not calls (`methods.ts` has those).
 *
 * - `actions.handlers`, a notification: the names the app has action handlers for, sent whenever that set changes
 *   and on every new channel, so the host knows which declared actions can run before it asks anyone to confirm.
 *   The client builds it from names `svc.actions.handle()` already checked; the host checks it on receipt.
 * @public
 */
export const toHost = {
  'actions.handlers': /* @__PURE__ */ obj({ names: /* @__PURE__ */ arr(text) }),
};
