import type { MethodName } from './methods';
import { notificationParams } from './callTable';
import type { Check } from './shape';

/**
 * The part of a registry entry the browser client carries: how the facade's arguments make the params, how long to
 * wait, and, for a fire-and-forget operation, the check of its params.
 *
 * @remarks
 * The rest of each entry (the params check of the calls the host answers, and the scope) is the host's, in
 * `methods.ts`, which builds every full entry from this one. The host checks every call's params and answers
 * `ERR_INVALID_ARGUMENT` naming the field (PROTOCOL.md), so the client need not carry a second copy of those checks
 * (its budget is 4,000 bytes brotli; docs/decisions.md). A fire-and-forget operation has nobody to answer: the
 * client checks it before sending, and its facade member throws at once.
 */
export interface CallDef {
  /** The facade's positional argument names that make the params object; `'object'` when the one argument is it. */
  readonly args: readonly string[] | 'object';
  /** Whether it waits on a person: then the long prompt timeout applies, since a person may take minutes. */
  readonly prompt: boolean;
  /** Whether it is fire-and-forget: the facade returns void and nothing answers. */
  readonly notify: boolean;
  /**
   * Whether its promise resolves to nothing: the app gets `undefined` whether the host sent no `result` or `null`
   * (a host in another language may send either).
   */
  readonly none?: true | undefined;
  /** Fire-and-forget operations only: their params, which the client checks since no host can answer a problem. */
  readonly params?: Check<any>;
}

/** An operation the host answers; default: no arguments, no person involved. */
const call = <const A extends CallDef['args'] = []>({
  args = [] as unknown as A,
  prompt = false,
  none,
}: {
  args?: A;
  prompt?: boolean;
  none?: true;
} = {}) => ({ args: args as NoInfer<A>, prompt, notify: false as const, none });

/** A fire-and-forget operation, with the params check the client runs before sending it. */
const notification = <const A extends CallDef['args'], P extends Check<any>>({
  args,
  params,
}: {
  args: A;
  params: P;
}) => ({
  args: args as NoInfer<A>,
  params: params as NoInfer<P>,
  prompt: false as const,
  notify: true as const,
});

/**
 * What the client knows of each bridge operation (the full registry, with every params check and scope, is
 * `methods`, built from this).
 */
export const calls = {
  'identity.get': call(),
  'auth.getToken': call(),
  'auth.signIn': call({ prompt: true, none: true }),
  'auth.signOut': call({ none: true }),
  'auth.state': call(),
  'room.current': call(),
  'message.send': call({ args: 'object', prompt: true }),
  'files.pick': call({ args: 'object', prompt: true }),
  'files.save': call({ args: 'object', prompt: true }),
  // elicit and progress carry the invocation they belong to; the client adds it (see client/createActions.ts).
  'actions.elicit': call({ args: 'object', prompt: true }),
  'actions.progress': notification({ args: 'object', params: notificationParams['actions.progress'] }),
  'ui.setTitle': notification({ args: ['title'], params: notificationParams['ui.setTitle'] }),
  'ui.toast': notification({ args: 'object', params: notificationParams['ui.toast'] }),
  'ui.confirm': call({ args: 'object', prompt: true }),
  'ui.openExternal': call({ args: ['url'], none: true }),
  'ui.close': notification({ args: [], params: notificationParams['ui.close'] }),
  'ui.share': call({ args: 'object', prompt: true, none: true }),
  'storage.get': call({ args: ['key'] }),
  'storage.set': call({ args: ['key', 'value'], none: true }),
  'storage.remove': call({ args: ['key'], none: true }),
  'storage.clear': call({ none: true }),
  'permissions.query': call({ args: ['scope'] }),
  'permissions.request': call({ args: ['scope'], prompt: true }),
} as const satisfies { [W in MethodName]: CallDef };
