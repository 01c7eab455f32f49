import { toHex } from '../protocol/bytes';
import { PackageError } from './PackageError';

/** A decoded CBOR item: what a package holds (no floats, tags or indefinite lengths). */
export type CborValue = number | string | boolean | null | Uint8Array | CborValue[] | Map<CborValue, CborValue>;

/** One decoded item and where it ends in the input. */
export interface CborItem {
  value: CborValue;
  /** The offset just past the item. */
  end: number;
}

/** A map key as an error names it: text quoted, bytes in hex, an array or a map by its kind. */
const describeKey = (key: CborValue) =>
  typeof key === 'string'
    ? JSON.stringify(key)
    : key instanceof Uint8Array
      ? `h'${toHex(key)}'`
      : Array.isArray(key)
        ? `[…] (an array of ${key.length})`
        : key instanceof Map
          ? `{…} (a map of ${key.size})`
          : String(key);

/** The `malformed` error of a map that repeats a key; `duplicateKey` is that key. */
class DuplicateKeyError extends PackageError {
  readonly duplicateKey: CborValue;

  constructor(key: CborValue) {
    super('malformed', `a CBOR map repeats the key ${describeKey(key)}`);
    this.duplicateKey = key;
  }
}

const text = new TextDecoder('utf-8', { fatal: true });

/** The head of the CBOR item at `offset`: its major type, its argument, and where its content starts. */
export interface CborHead {
  major: number;
  /** The count (arrays, maps), length (strings) or value (integers, simple values). */
  argument: number;
  /** Where the item's content starts (just past the head). */
  end: number;
}

/**
 * Reads the head of the CBOR item at `offset`.
 * @throws {@link PackageError} `truncated` when the input ends inside it, `malformed` for an indefinite length.
 */
export function readHead(bytes: Uint8Array, offset: number): CborHead {
  if (offset >= bytes.length)
    throw new PackageError('truncated', `the file ends at byte ${bytes.length}, where a CBOR item should start`);
  const initial = bytes[offset]!;
  const major = initial >> 5;
  const info = initial & 0x1f;
  if (info < 24) return { major, argument: info, end: offset + 1 };
  if (info > 27)
    throw new PackageError('malformed', `CBOR item at byte ${offset} has an indefinite or reserved length`);
  const size = 1 << (info - 24);
  if (offset + 1 + size > bytes.length)
    throw new PackageError('truncated', `the file ends at byte ${bytes.length}, inside a CBOR item at ${offset}`);
  let argument = 0;
  for (let i = 0; i < size; i++) argument = argument * 256 + bytes[offset + 1 + i]!;
  if (argument > Number.MAX_SAFE_INTEGER)
    throw new PackageError('malformed', `a CBOR length or integer at byte ${offset} is over 2^53`);
  return { major, argument, end: offset + 1 + size };
}

/**
 * A value as a string, equal for equal values however they are encoded: heads need not be minimal, and a map's
 * entries may come in any order, so `[1]` written two ways, or `{a: 1, b: 2}` and `{b: 2, a: 1}`, are one key.
 */
function identityOf(value: CborValue): string {
  if (typeof value === 'string') return `t${JSON.stringify(value)}`;
  if (value instanceof Uint8Array) return `b${toHex(value)}`;
  if (Array.isArray(value)) return `[${value.map(identityOf).join(',')}]`;
  if (value instanceof Map)
    return `{${Array.from(value, ([k, v]) => `${identityOf(k)}:${identityOf(v)}`)
      .sort()
      .join(',')}}`;
  // Numbers, false, true and null: `n1`, `nfalse`, `nnull` differ from each other and from every other form.
  return `n${String(value)}`;
}

/**
 * How many more CBOR items one read may decode, and the sentence it is refused with past them: a byte can hold an
 * item (an empty map), and millions of them would take gigabytes as values, signed or not.
 * @internal
 */
export interface ItemBudget {
  left: number;
  refusal: string;
}

/**
 * Decodes the one CBOR item (RFC 8949) at `offset`: unsigned and negative integers below 2^53, byte and text strings,
 * arrays, maps (a key repeated by value is refused), false, true and null, all with definite lengths. Anything else (floats,
 * tags, indefinite lengths) is refused: a package never needs them, and a smaller reader has less to get wrong. An
 * array or map whose count of items is more than the bytes left (each item takes at least one) is refused from its head,
 * and with a `budget`, an item past its count.
 * @throws {@link PackageError} `truncated` when the input ends inside the item, `malformed` for what it refuses.
 */
export function readCbor(bytes: Uint8Array, offset: number, depth = 0, budget?: ItemBudget): CborItem {
  if (depth > 16) throw new PackageError('malformed', 'CBOR nested deeper than 16 levels');
  if (budget && --budget.left < 0) throw new PackageError('malformed', budget.refusal);
  const { major, argument, end } = readHead(bytes, offset);
  const at = end;
  switch (major) {
    case 0:
      return { value: argument, end: at };
    case 1:
      return { value: -1 - argument, end: at };
    case 2:
    case 3: {
      if (at + argument > bytes.length)
        throw new PackageError('truncated', `the file ends at byte ${bytes.length}, inside a CBOR string at ${offset}`);
      const slice = bytes.subarray(at, at + argument);
      if (major === 2) return { value: slice, end: at + argument };
      try {
        return { value: text.decode(slice), end: at + argument };
      } catch {
        throw new PackageError('malformed', `CBOR text at byte ${offset} is not UTF-8`);
      }
    }
    case 4:
    case 5: {
      // Every item takes at least one byte, so a count the remaining bytes cannot hold is refused from the head alone,
      // before a loop that long starts: a head is no reason to spend time or memory.
      const least = major === 4 ? argument : 2 * argument;
      if (least > bytes.length - at)
        throw new PackageError(
          'truncated',
          `the file ends at byte ${bytes.length}, before the ${argument} ${major === 4 ? 'items of the CBOR array' : 'entries of the CBOR map'} at ${offset}`,
        );
      return major === 4 ? readArray(bytes, at, argument, depth, budget) : readMap(bytes, at, argument, depth, budget);
    }
    case 7: {
      const simple = [false, true, null][argument - 20];
      if (end === offset + 1 && simple !== undefined) return { value: simple, end: at };
      throw new PackageError('malformed', `CBOR simple value or float at byte ${offset}; a package holds none`);
    }
    default:
      throw new PackageError('malformed', `CBOR tag at byte ${offset}; a package holds none`);
  }
}

/** The `count` items of a CBOR array whose content starts at `at`. */
function readArray(bytes: Uint8Array, at: number, count: number, depth: number, budget?: ItemBudget): CborItem {
  const items: CborValue[] = [];
  let end = at;
  for (let i = 0; i < count; i++) {
    const item = readCbor(bytes, end, depth + 1, budget);
    items.push(item.value);
    end = item.end;
  }
  return { value: items, end };
}

/** The `count` entries of a CBOR map whose content starts at `at`; a key repeated by value is refused. */
function readMap(bytes: Uint8Array, at: number, count: number, depth: number, budget?: ItemBudget): CborItem {
  const map = new Map<CborValue, CborValue>();
  const seen = new Set<string>();
  let end = at;
  for (let i = 0; i < count; i++) {
    const key = readCbor(bytes, end, depth + 1, budget);
    // Keys are compared by value, not by encoding: heads need not be minimal, so "webBundleId" can be written two
    // ways, and a map holding both would give readers that keep the first and the last two different ids.
    const identity = identityOf(key.value);
    if (seen.has(identity)) throw new DuplicateKeyError(key.value);
    seen.add(identity);
    const value = readCbor(bytes, key.end, depth + 1, budget);
    map.set(key.value, value.value);
    end = value.end;
  }
  return { value: map, end };
}
