/**
 * Copies a message as `postMessage` would: `structuredClone` where the runtime has it; otherwise (Jest's jsdom
 * environment has none) a copy following the structured clone algorithm for what a test may send: JSON values,
 * `Blob`s, `Date`s, `RegExp`s, `Map`s, `Set`s, errors, `ArrayBuffer`s and typed arrays, arrays with their holes, and
 * any other object (a class instance too) as a plain object of its own enumerable fields. It fails, as the browser
 * would, on a value that cannot cross a channel (a function, a symbol, a DOM node), so the same app gets the same
 * answer in every test environment.
 * @throws An error named `DataCloneError` for a value that cannot be cloned.
 */
export function cloneMessage<T>(message: T): T {
  if (typeof structuredClone === 'function') return structuredClone(message);
  return copy(message, new Map()) as T;
}

const STANDARD_ERRORS: Record<string, ErrorConstructor | undefined> = {
  EvalError,
  RangeError,
  ReferenceError,
  SyntaxError,
  TypeError,
  URIError,
};

function copy(value: unknown, seen: Map<object, unknown>): unknown {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function' || typeof value === 'symbol') throw dataCloneError(typeof value);
    return value;
  }
  if (seen.has(value)) return seen.get(value);
  // Blobs are immutable: sharing one is what a clone of it amounts to.
  if (typeof Blob === 'function' && value instanceof Blob) return value;
  if (typeof Node === 'function' && value instanceof Node) throw dataCloneError(value.constructor.name);
  if (value instanceof Date) return new Date(value.getTime());
  if (value instanceof RegExp) return new RegExp(value.source, value.flags);
  if (value instanceof ArrayBuffer) return value.slice(0);
  if (ArrayBuffer.isView(value)) return (value as Uint8Array).slice();
  if (value instanceof Boolean || value instanceof Number || value instanceof String) return Object(value.valueOf());
  // An error of a standard kind keeps it; any other becomes an Error (its message kept), as the algorithm says.
  if (value instanceof Error)
    return new ((Object.hasOwn(STANDARD_ERRORS, value.name) && STANDARD_ERRORS[value.name]) || Error)(value.message);
  if (value instanceof Map) {
    const out = new Map();
    seen.set(value, out);
    for (const [k, v] of value) out.set(copy(k, seen), copy(v, seen));
    return out;
  }
  if (value instanceof Set) {
    const out = new Set();
    seen.set(value, out);
    for (const v of value) out.add(copy(v, seen));
    return out;
  }
  // An array keeps its holes; any other object becomes a plain one of its own enumerable fields, a class instance
  // too (its prototype is not sent).
  const out: Record<string, unknown> = Array.isArray(value) ? (new Array(value.length) as never) : {};
  seen.set(value, out);
  for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key], seen);
  return out;
}

function dataCloneError(what: string): Error {
  const error = new Error(`${what} could not be cloned.`);
  error.name = 'DataCloneError';
  return error;
}
