// biome-ignore-all lint/suspicious/noExplicitAny: the registry's generic bounds: Check<T> is invariant in T, so Check<unknown> would refuse every operation's own check, and (...given: any[]) matches every member's signature
import type { KnownErrorCode } from '../errorCodes';
import type { PermissionScope } from '../scopes';
import { type Check, obj } from '../shape';

/**
 * How an operation travels and waits: `call` is answered at once, `prompt` waits on a person (the long prompt
 * timeout applies, since a person may take minutes), `notification` is fire-and-forget (nothing answers it).
 * @public
 */
export type OperationKind = 'call' | 'prompt' | 'notification';

/**
 * What an operation asks the person before it runs, through the host's answers (`HostAnswers[answer]`).
 *
 * @remarks
 * `request: 'params'` means the person is shown the call's params as they are, and a falsy answer refuses the call
 * with `refusal` (or, without one, the answer is the result): the host applies one generic step, "ask, then refuse
 * or run the effect". `request: 'rule'` means a rule of the host builds what is shown (the picker's offered files,
 * the permission's purpose) and decides what the answer does.
 * @public
 */
export interface Asks<N extends string = string, Request = unknown, Answer = unknown> {
  /** The member of the host's answers that is asked. */
  readonly answer: N;
  /** Who builds the request: the call's params as they are, or a rule. */
  readonly request: 'params' | 'rule';
  /** The error code and message of a refusal (a falsy answer); absent when the answer is the result. */
  readonly refusal?: readonly [code: KnownErrorCode, message: string];
  /** The type of what the person is shown (never set: it types the host's answers). */
  readonly _request?: Request;
  /** The type of the answer (never set). */
  readonly _answer?: Answer;
}

/**
 * One bridge operation, defined once: everything the client, the host, the mock, the dev page and the docs know of
 * it comes from here (docs/architecture.md). Its facade signature and TSDoc are the member of its namespace's
 * interface (`SvcUi.share`) in the same module.
 * @public
 */
export interface OperationDef {
  /** How it travels and waits. */
  readonly kind: OperationKind;
  /** The facade's positional argument names that make the params object; `'object'` when the one argument is it. */
  readonly args: readonly string[] | 'object';
  /** The params as the host receives them (checked by the host; by the client too for a notification). */
  readonly params: Check<any>;
  /** The answer's shape, checked before the answer leaves the host; `null` for a notification. */
  readonly result: Check<any> | null;
  /** The short scope it needs granted, or `null`. */
  readonly scope: PermissionScope | null;
  /** What it asks the person, or `null`. */
  readonly asks: Asks | null;
  /**
   * Whether the platform performs an effect for it (delivers, mints, shows): every host built on the rules supplies
   * that effect or says explicitly that it does not offer the operation. `false`: the rules answer it themselves.
   */
  readonly effect: boolean;
  /** Whether it belongs to the running action invocation: the client adds `invocation` to its params. */
  readonly bound: boolean;
}

/** An empty params object (no arguments). */
export const empty = obj({});

/** The answer of an operation that resolves to nothing: `undefined` or `null` (a host in another language). */
export const none: Check<void> = (v, path) => (v == null ? undefined : `${path} must be empty`);

/** The parts of an entry; the defaults: no arguments, params `{}`, no scope, an effect, not bound. */
interface Parts<A, P, R, E extends boolean, B extends boolean> {
  args?: A;
  params?: P;
  result: R;
  scope?: PermissionScope;
  effect?: E;
  bound?: B;
}

const build = <
  const K extends OperationKind,
  A,
  P,
  R,
  S extends Asks | null,
  E extends boolean = true,
  B extends boolean = false,
>(
  kind: K,
  { args, params, result, scope, effect, bound }: Parts<A, P, R, E, B>,
  asks: S,
) => ({
  kind,
  args: (args ?? []) as [A] extends [undefined] ? readonly [] : A,
  params: (params ?? empty) as [P] extends [undefined] ? typeof empty : P,
  result,
  scope: (scope ?? null) as PermissionScope | null,
  asks,
  effect: (effect ?? true) as boolean extends E ? true : E,
  bound: (bound ?? false) as boolean extends B ? false : B,
});

/** An operation the host answers at once. */
export const call = <
  const A extends OperationDef['args'] | undefined = undefined,
  P extends Check<any> | undefined = undefined,
  R extends Check<any> = Check<any>,
  const E extends boolean = boolean,
>(
  parts: Parts<A, P, R, E, false>,
) => build('call', parts, null);

/** An operation that waits on a person (a sheet, a picker), asking through `asks` when given. */
export const prompt = <
  const A extends OperationDef['args'] | undefined = undefined,
  P extends Check<any> | undefined = undefined,
  R extends Check<any> = Check<any>,
  S extends Asks | null = null,
  const E extends boolean = boolean,
  const B extends boolean = boolean,
>(
  parts: Parts<A, P, R, E, B> & { asks?: S },
) => build('prompt', parts, (parts.asks ?? null) as S);

/** A fire-and-forget operation: its params are checked by the client before it sends (nobody answers). */
export const notification = <
  const A extends OperationDef['args'],
  P extends Check<any>,
  const B extends boolean = boolean,
>(
  parts: Omit<Parts<A, P, null, true, B>, 'result' | 'effect'>,
) => build('notification', { ...parts, result: null }, null);

/**
 * What the operation asks the person: `answer` names the member of the host's answers; `Request` and `Answer`
 * type it.
 */
export const ask = <const N extends string, Request, Answer>(
  answer: N,
  request: 'params' | 'rule',
  refusal?: readonly [code: KnownErrorCode, message: string],
): Asks<N, Request, Answer> => (refusal ? { answer, request, refusal } : { answer, request });

type Flat<T> = { [K in keyof T]: T[K] } & {};

/** The params object a facade function `F` makes, given its `args`: the one object, or the named positions. */
export type ParamsOf<F, A> = F extends (...given: infer G) => any
  ? Flat<A extends 'object' ? (G extends readonly [(infer O)?, ...unknown[]] ? NonNullable<O> : object) : Named<A, G>>
  : never;
type Named<A, G> = A extends readonly [infer K extends string, ...infer AR]
  ? G extends readonly [(infer H)?, ...infer GR]
    ? { [k in K]: H } & Named<AR, GR>
    : never
  : unknown;

type Equal<X, Y> = [X] extends [Y] ? ([Y] extends [X] ? true : false) : false;
type Received<D> = D extends { params: Check<infer P> }
  ? D extends { bound: true }
    ? Omit<P, 'invocation'>
    : P
  : never;
type ResultOf<F> = F extends (...given: any[]) => infer R ? Awaited<R> : never;

/**
 * The operations of one namespace, each tied to its facade member in `I` (skipping the members in `Local`, which
 * the client provides itself): the params check must take exactly what the member's arguments make, and the
 * result check must fit what it resolves to. A mismatch names the member and both types.
 */
export type Tied<I, D, Local extends keyof I = never> = {
  [M in Exclude<keyof I, Local>]: M extends keyof D
    ? Equal<Flat<Received<D[M]>>, ParamsOf<I[M], D[M] extends { args: infer A } ? A : never>> extends true
      ? D[M] extends { result: Check<ResultOf<I[M]>> | null }
        ? D[M]
        : { error: 'the result check does not fit the facade'; facade: ResultOf<I[M]> }
      : {
          error: 'params do not match the facade';
          params: Flat<Received<D[M]>>;
          facade: ParamsOf<I[M], D[M] extends { args: infer A } ? A : never>;
        }
    : OperationDef;
} & { [M in Exclude<keyof D, Exclude<keyof I, Local>>]: never };

/**
 * Defines a namespace's operations against its facade interface `I`: `defineOperations<SvcUi>()({ ... })`.
 * Every member of `I` (but `Local`) needs an entry, and every entry a member.
 */
export const defineOperations =
  <I, Local extends keyof I = never>() =>
  <const D extends { [M in Exclude<keyof I, Local>]: OperationDef }>(defs: D & Tied<I, D, Local>): D =>
    defs;
