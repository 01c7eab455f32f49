import { any, arr, bool, lit, obj, opt, str, text } from './shape';

/**
 * The params of `actions.invoke`, checked by the host before it sends and by the app on receipt. The browser client
 * imports this and {@link themeParams} by name, which leaves {@link toApp} (an object, kept whole by a bundler) out
 * of its bundle.
 */
export const invokeParams = obj({
  invocation: text,
  name: text,
  input: any,
  context: obj({ invoked_by: lit('agent', 'user'), agent_id: opt(str), confirmed: bool }),
});
/** The params of `app.themeChanged`. */
export const themeParams = obj({ theme: lit('light', 'dark') });

/**
 * The registry of what the host sends the app, beside the app's calls (`methods.ts`): params each side checks
 * before it sends and when it receives.
 *
 * - `actions.invoke`, a request: run the handler of a declared action.
 * - `app.themeChanged`, a notification: the theme changed.
 * - `actions.cancel`, a notification: the invoker cancelled a running invocation; its handler's `signal` aborts.
 * @public
 */
export const toApp = {
  'actions.invoke': invokeParams,
  'app.themeChanged': themeParams,
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
