import { type CallDef, calls } from './calls';
import { PERMISSION_SCOPES, type PermissionScope } from './scopes';
import { arr, blob, bool, type Check, type Infer, isPlain, json, lit, obj, opt, str, text } from './shape';
import type { Svc } from './Svc';

/**
 * One bridge operation in the registry.
 *
 * @remarks
 * The wire name is the facade path (`'room.current'` is `svc.room.current`). The facade, the host's dispatch, its
 * handler types, the answers' shapes (`results.ts`), the mock's defaults and `svc.supports()` all come from it.
 * Each entry is built from the client's part of it (`calls.ts`: args, prompt, notify, and the checks of the
 * fire-and-forget operations), so the browser client carries only that part.
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

type Calls = typeof calls;
/** The params check an entry gets by default: the client's, for a fire-and-forget operation; else `{}`. */
type DefaultParams<W extends MethodName> = Calls[W] extends { params: infer C extends Check<any> } ? C : typeof empty;

/**
 * One full entry: the client's part (`calls.ts`: args, prompt, notify) and the host's (every field named, with the
 * default most operations have: the params check, default the client's or `{}`; the scope, default none).
 */
const entry = <W extends MethodName, P extends Check<any> = DefaultParams<W>, S extends PermissionScope | null = null>(
  name: W,
  { params, scope = null as S }: { params?: P; scope?: S } = {},
): Omit<Calls[W], 'params'> & { params: NoInfer<P>; scope: NoInfer<S> } => ({
  ...calls[name],
  params: (params ?? (calls[name] as CallDef).params ?? empty) as P,
  scope,
});

/**
 * The registry: one entry per bridge operation. A test walks it against the facade, the host and the docs.
 * @public
 */
export const methods = {
  'identity.get': entry('identity.get'),
  'auth.getToken': entry('auth.getToken'),
  'auth.signIn': entry('auth.signIn'),
  'auth.signOut': entry('auth.signOut'),
  'auth.state': entry('auth.state'),
  'room.current': entry('room.current', { scope: 'room.context' }),
  'message.send': entry('message.send', {
    params: obj({ room_id: text, body: str, card: opt(card) }),
    scope: 'room.send',
  }),
  'files.pick': entry('files.pick', {
    params: obj({ accept: opt(arr(text)), multiple: opt(bool) }),
    scope: 'files.read',
  }),
  'files.save': entry('files.save', { params: obj({ name: text, blob }), scope: 'files.write' }),
  'actions.elicit': entry('actions.elicit', { params: obj({ invocation: text, prompt: text, schema }) }),
  'actions.progress': entry('actions.progress'),
  'ui.setTitle': entry('ui.setTitle'),
  'ui.toast': entry('ui.toast'),
  'ui.confirm': entry('ui.confirm', { params: obj({ title: str, body: str }) }),
  'ui.openExternal': entry('ui.openExternal', { params: obj({ url }) }),
  'ui.close': entry('ui.close'),
  'ui.share': entry('ui.share', { params: obj({ title: str, url }) }),
  'storage.get': entry('storage.get', { params: key }),
  'storage.set': entry('storage.set', { params: obj({ key: text, value: json }) }),
  'storage.remove': entry('storage.remove', { params: key }),
  'storage.clear': entry('storage.clear'),
  'permissions.query': entry('permissions.query', { params: scope }),
  'permissions.request': entry('permissions.request', { params: scope }),
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
