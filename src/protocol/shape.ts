/**
 * Tiny runtime shape checks for the bridge registry.
 *
 * Why not zod: the whole client must fit in 4 KB brotli, and zod/mini alone costs about 5 KB. These checks cover
 * exactly what the wire carries (strings, numbers, literal unions, plain objects, arrays, Blobs, JSON values) and
 * are shared by the host (params on receipt, answers and what it sends the app before sending) and the client (what it
 * sends unanswered).
 */

/**
 * A check: returns `undefined` when the value fits, or a sentence naming what is wrong.
 * The phantom `T` carries the checked type to the registry's derived types; `keep`, on an {@link answer}'s check and
 * what wraps it, names the fields the host passes on.
 */
export type Check<T> = ((value: unknown, path: string) => string | undefined) & {
  readonly _t?: T;
  readonly keep?: readonly string[];
};

/** The type a {@link Check} accepts. */
export type Infer<C> = C extends Check<infer T> ? T : never;

type Shape = Record<string, Check<unknown>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: '_opt' extends keyof S[K] ? K : never }[keyof S];
type Flat<T> = { [K in keyof T]: T[K] } & {};
/** The object type an {@link obj} shape checks: keys whose check is {@link opt} become optional. */
export type ObjOf<S extends Shape> = Flat<
  { -readonly [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & {
    -readonly [K in OptionalKeys<S>]?: Infer<S[K]>;
  }
>;

const typeCheck =
  <T>(test: (v: unknown) => boolean, what: string): Check<T> =>
  (v, path) =>
    test(v) ? undefined : `${path || 'the argument'} must be ${what}`;

/** A string. */
export const str: Check<string> = typeCheck((v) => typeof v == 'string', 'a string');
/** A non-empty string. */
export const text: Check<string> = typeCheck((v) => typeof v == 'string' && v.length > 0, 'a non-empty string');
// The checks the browser client does not use are marked pure, so that a bundler without Rollup's analysis (esbuild,
// which builds svc.global.js) drops them; `num` wraps Number.isFinite since reading a global's property is not pure.
/** A finite number. */
export const num: Check<number> = /* @__PURE__ */ typeCheck((v) => Number.isFinite(v), 'a finite number');
/** A boolean. */
export const bool: Check<boolean> = typeCheck((v) => typeof v == 'boolean', 'true or false');
/** Anything (the other side decides). */
export const any: Check<unknown> = () => undefined;
/** A Blob (File included). */
export const blob: Check<Blob> = /* @__PURE__ */ typeCheck(
  (v) => typeof Blob != 'undefined' && v instanceof Blob,
  'a Blob',
);

/**
 * A JSON value: what `svc.storage` keeps.
 * @public
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * `T` where every value in it is JSON, else `never` there: strings, numbers, booleans, null, arrays and objects of
 * them, an `interface` of such fields included (which {@link JsonValue}, an index signature, does not take). What
 * `svc.storage.set` accepts: a function, a `Date`, a `Map` or a `Blob` in it is a compile error. Numbers are not known
 * finite at compile time (`NaN` is refused when the value is sent), and an optional field is taken as absent: one set
 * to `undefined` is refused then too.
 * @public
 */
export type JsonCompatible<T> = T extends string | number | boolean | null
  ? T
  : T extends readonly (infer U)[]
    ? readonly JsonCompatible<U>[]
    : T extends (...args: never[]) => unknown
      ? never
      : T extends object
        ? { [K in keyof T]: JsonCompatible<T[K]> }
        : never;

/**
 * Where `v` stops being a plain JSON value (finite numbers, plain objects and arrays only), said as `<path> is <what
 * it is>`, or undefined: the first such place, so a large value's one Date or NaN is found without a search.
 */
const notJson = (v: unknown, path: string, depth = 0): string | undefined => {
  // A lone surrogate is no Unicode text: UTF-8, which a synced store and an agent's JSON are sent in, cannot carry it.
  if (typeof v == 'string')
    return (v as { isWellFormed?(): boolean }).isWellFormed?.() === false
      ? `${path} holds a lone surrogate`
      : undefined;
  if (v === null || typeof v == 'boolean' || Number.isFinite(v)) return;
  if (depth > 63) return `${path} nests more than 64 deep (or holds itself)`;
  if (Array.isArray(v) || isPlain(v)) {
    for (const [k, x] of Object.entries(v)) {
      const bad = notJson(x, Array.isArray(v) ? `${path}[${k}]` : `${path}.${k}`, depth + 1);
      if (bad) return bad;
    }
    return;
  }
  const name = typeof v == 'object' ? ((v as object).constructor?.name ?? 'object') : typeof v;
  const what = typeof v == 'number' || v === undefined ? String(v) : `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
  return `${path} is ${what}`;
};

/** A JSON value (no functions, Dates, Blobs, undefined or NaN): the refusal names the first place that is not. */
export const json: Check<JsonValue> = (v, path) => {
  const bad = notJson(v, path || 'the argument');
  return bad && `${bad}, which is not JSON: send strings, finite numbers, booleans, null, arrays and plain objects`;
};

/** Whether `v` is a plain object (not an array, Date, Blob or class instance). */
export function isPlain(v: unknown): v is Record<string, unknown> {
  // Object.prototype of any realm (Jest's vm contexts and other frames have their own), or no prototype at all (then
  // Object.prototype stands in for it).
  return (
    typeof v == 'object' && v !== null && Object.getPrototypeOf(Object.getPrototypeOf(v) ?? Object.prototype) === null
  );
}

/** One of the given string literals. */
export function lit<const T extends string>(...values: T[]): Check<T> {
  return typeCheck((v) => values.includes(v as T), `one of ${values.join(', ')}`);
}

/** Marks a field optional: `undefined` (or absence) fits too. */
export function opt<T>(check: Check<T>): Check<T | undefined> & { readonly _opt?: true } {
  return (v, path) => (v === undefined ? undefined : check(v, path));
}

/** `null` or the given check. */
export function nullable<T>(check: Check<T>): Check<T | null> {
  return Object.assign((v: unknown, path: string) => (v === null ? undefined : check(v, path)), { keep: check.keep });
}

/** An array whose items all fit `item`. */
export function arr<T>(item: Check<T>): Check<T[]> {
  const check = (v: unknown, path: string) => {
    if (!Array.isArray(v)) return `${path || 'the argument'} must be an array`;
    for (let i = 0; i < v.length; i++) {
      const problem = item(v[i], `${path}[${i}]`);
      if (problem) return problem;
    }
  };
  return Object.assign(check, { keep: item.keep });
}

/**
 * A plain object with exactly these fields.
 * @param loose - allow fields beyond `shape` (see {@link answer}).
 */
export function obj<S extends Shape>(shape: S, loose?: boolean): Check<ObjOf<S>> {
  return (v, path) => {
    if (!isPlain(v)) return `${path || 'the argument'} must be an object`;
    for (const key in shape) {
      const problem = shape[key]!(v[key], path ? `${path}.${key}` : key);
      if (problem) return problem;
    }
    if (!loose)
      for (const key of Object.keys(v))
        if (!Object.hasOwn(shape, key)) return `${path || 'the argument'}: unknown field ${key}`;
  };
}

/**
 * An answer's object: these fields checked, others let through the check, since a host's own object (its room, its
 * file) may carry more, but not passed on: `keep` names the fields the host sends, so nothing internal to the host (a
 * room's admin token) reaches the app.
 */
export function answer<S extends Shape>(shape: S): Check<ObjOf<S>> {
  return Object.assign(obj(shape, true), { keep: Object.keys(shape) });
}
