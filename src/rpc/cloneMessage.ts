/**
 * Copies a message as `postMessage` would: `structuredClone` where the runtime has it; otherwise (Jest's jsdom
 * environment has none) a copy of what the protocol sends (JSON values, `Blob`s, `Date`s, `ArrayBuffer`s, typed
 * arrays) that fails, as the browser would, on a value that cannot cross a channel (a function, a symbol, a class
 * instance).
 * @throws An error named `DataCloneError` for a value that cannot be cloned.
 */
export function cloneMessage<T>(message: T): T {
  if (typeof structuredClone === 'function') return structuredClone(message);
  return copy(message, new Map()) as T;
}

function copy(value: unknown, seen: Map<object, unknown>): unknown {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function' || typeof value === 'symbol') throw dataCloneError(typeof value);
    return value;
  }
  if (seen.has(value)) return seen.get(value);
  // Blobs are immutable: sharing one is what a clone of it amounts to.
  if (typeof Blob === 'function' && value instanceof Blob) return value;
  if (value instanceof Date) return new Date(value.getTime());
  if (value instanceof ArrayBuffer) return value.slice(0);
  if (ArrayBuffer.isView(value)) return (value as Uint8Array).slice();
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(copy(item, seen));
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== null && Object.getPrototypeOf(proto) !== null)
    throw dataCloneError(proto?.constructor?.name ?? 'object');
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key], seen);
  return out;
}

function dataCloneError(what: string): Error {
  const error = new Error(`${what} could not be cloned.`);
  error.name = 'DataCloneError';
  return error;
}
