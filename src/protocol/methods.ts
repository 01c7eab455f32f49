import { PERMISSION_SCOPES, type PermissionScope } from './scopes';
import { arr, blob, bool, type Check, type Infer, isPlain, json, lit, obj, opt, str, text } from './shape';
import type { Svc } from './Svc';

/**
 * One bridge operation in the registry.
 *
 * @remarks
 * The wire name is the facade path (`'room.current'` is `svc.room.current`). The facade, the host's dispatch, its
 * handler types, the answers' shapes (`results.ts`), the mock's defaults and `svc.supports()` all come from it.
 * @public
 */
export interface MethodDef {
  /** The facade's positional argument names that make the params object; `'object'` when the one argument is it. */
  readonly args: readonly string[] | 'object';
  /** The params as the host receives them. */
  readonly params: Check<any>;
  /** The short scope the operation needs granted, or `null`. */
  readonly scope: PermissionScope | null;
  /** Whether it waits on a person: then the long prompt timeout applies, since a person may take minutes. */
  readonly prompt: boolean;
  /** Whether it is fire-and-forget: the facade returns void and nothing answers. */
  readonly notify: boolean;
}

type Wired = Omit<Svc, 'version' | 'supports' | 'app'>;
// MethodName is written out over Svc (not through Wired) so the published type names nothing internal.
/** Every operation name that crosses the wire from app to host, e.g. `'room.current'`. @public */
export type MethodName = {
  [N in Exclude<keyof Svc, 'version' | 'supports' | 'app'>]: `${N}.${Exclude<keyof Svc[N] & string, 'handle'>}`;
}[Exclude<keyof Svc, 'version' | 'supports' | 'app'>];
type FacadeFn<W extends MethodName> = W extends `${infer N extends keyof Wired}.${infer M}`
  ? Wired[N][M & keyof Wired[N]]
  : never;
/** What an operation resolves to, from the facade's type. @public */
export type MethodResult<W extends MethodName> = FacadeFn<W> extends (...a: any[]) => infer R ? Awaited<R> : never;

const url: Check<string> = (v, path) =>
  typeof v == 'string' && /^https?:\/\/[^\s/]/i.test(v) ? undefined : `${path} must be an http(s) URL`;
const schema: Check<Record<string, unknown>> = (v, path) =>
  isPlain(v) ? undefined : `${path} must be a JSON Schema object`;
const card = obj({ title: text, body: str, actions: opt(arr(obj({ label: text, deep_link: text }))) });
const scope = obj({ scope: lit(...PERMISSION_SCOPES) });
const key = obj({ key: text });
const empty = obj({});

const call = <
  const A extends MethodDef['args'] = [],
  P extends Check<any> = typeof empty,
  S extends PermissionScope | null = null,
>(
  args: A = [] as unknown as A,
  params: P = empty as P,
  scope: S = null as S,
  prompt = false,
  notify = false,
) => ({ args, params, scope, prompt, notify });

/**
 * The registry: one entry per bridge operation. A test walks it against the facade, the host and the docs.
 * @public
 */
export const methods = {
  'identity.get': call(),
  'auth.getToken': call(),
  'auth.signIn': call([], empty, null, true),
  'auth.signOut': call(),
  'auth.state': call(),
  'room.current': call([], empty, 'room.context'),
  'message.send': call('object', obj({ room_id: text, body: str, card: opt(card) }), 'room.send', true),
  'files.pick': call('object', obj({ accept: opt(arr(text)), multiple: opt(bool) }), 'files.read', true),
  'files.save': call('object', obj({ name: text, blob }), 'files.write', true),
  // elicit and progress carry the invocation they belong to; the client adds it (see client/createActions.ts).
  'actions.elicit': call('object', obj({ invocation: text, prompt: text, schema }), null, true),
  'actions.progress': call('object', obj({ invocation: text, message: str }), null, false, true),
  'ui.setTitle': call(['title'], obj({ title: str }), null, false, true),
  'ui.toast': call('object', obj({ message: text, kind: opt(lit('info', 'success', 'error')) }), null, false, true),
  'ui.confirm': call('object', obj({ title: str, body: str }), null, true),
  'ui.openExternal': call(['url'], obj({ url })),
  'ui.close': call([], empty, null, false, true),
  'ui.share': call('object', obj({ title: str, url }), null, true),
  'storage.get': call(['key'], key),
  'storage.set': call(['key', 'value'], obj({ key: text, value: json })),
  'storage.remove': call(['key'], key),
  'storage.clear': call(),
  'permissions.query': call(['scope'], scope),
  'permissions.request': call(['scope'], scope, null, true),
} as const satisfies { [W in MethodName]: MethodDef };

// The registry's params tied to the facade: each entry's params object must be exactly what its facade arguments
// make (named by `args`), so renaming a param or swapping storage.set's arguments fails to compile here.
type ArgsObject<A, P> = A extends readonly [infer K extends string, ...infer AR]
  ? P extends readonly [(infer H)?, ...infer PR]
    ? { [k in K]: H } & ArgsObject<AR, PR>
    : never
  : unknown;
type Flat<T> = { [K in keyof T]: T[K] };
/**
 * What the facade's arguments of `W` make, given its `args`. `actions.progress(message)` is built by the client
 * itself (client/createActions.ts), as `{ message }`: its registry `args` is never read (and a list there would cost
 * the browser client bytes it does not have).
 * @internal
 */
export type FacadeParams<W extends MethodName, A> = Flat<
  W extends 'actions.progress'
    ? ArgsObject<['message'], Parameters<FacadeFn<W>>>
    : A extends 'object'
      ? Parameters<FacadeFn<W>> extends readonly [infer O, ...unknown[]]
        ? O
        : Parameters<FacadeFn<W>> extends readonly [(infer O)?, ...unknown[]]
          ? NonNullable<O>
          : object
      : ArgsObject<A, Parameters<FacadeFn<W>>>
>;
type Same<X, Y> = [X] extends [Y] ? ([Y] extends [X] ? true : false) : false;
// The client adds `invocation` to elicit and progress (see client/createActions.ts); the facade never names it.
type HostOnly<P> = Flat<Omit<P, 'invocation'>>;
/**
 * A registry whose every entry's params match its facade function (a compile-time contract).
 * @internal
 */
export type TiedRegistry<R extends { [W in MethodName]: MethodDef }> = {
  [W in MethodName]: Same<HostOnly<Infer<R[W]['params']>>, FacadeParams<W, R[W]['args']>> extends true
    ? R[W]
    : { error: 'params do not match the facade'; params: Infer<R[W]['params']>; facade: FacadeParams<W, R[W]['args']> };
};

/** The params object the host receives for an operation. @public */
export type MethodParams<W extends MethodName> = Infer<(typeof methods)[W]['params']>;

/** Whether `name` is a registry operation (own key only: no prototype walk). */
export function isMethodName(name: unknown): name is MethodName {
  return typeof name == 'string' && Object.hasOwn(methods, name);
}
