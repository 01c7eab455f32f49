import { PackageError } from './PackageError';

/** A decoded CBOR item: what a package holds (no floats, tags or indefinite lengths). */
export type CborValue = number | string | boolean | null | Uint8Array | CborValue[] | Map<CborValue, CborValue>;

/** One decoded item and where it ends in the input. */
export interface CborItem {
  value: CborValue;
  /** The offset just past the item. */
  end: number;
}

/** The `malformed` error of a map that repeats a key; `duplicateKey` is that key. */
class DuplicateKeyError extends PackageError {
  readonly duplicateKey: CborValue;

  constructor(key: CborValue) {
    super('malformed', `a CBOR map repeats the key ${JSON.stringify(typeof key === 'string' ? key : String(key))}`);
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

/** A map key's value as a string, so that equal keys (two byte strings with the same bytes too) are one. */
function keyIdentity(value: CborValue, encoded: Uint8Array): string {
  if (typeof value === 'string') return `t${value}`;
  if (typeof value === 'number') return `n${value}`;
  if (value instanceof Uint8Array) return `b${Array.from(value).join(',')}`;
  // Arrays, maps and simple values as keys: no package has them; their encoding stands for them.
  return `e${Array.from(encoded).join(',')}`;
}

/**
 * Decodes the one CBOR item (RFC 8949) at `offset`: unsigned and negative integers below 2^53, byte and text strings,
 * arrays, maps (a key repeated by value is refused), false, true and null, all with definite lengths. Anything else (floats,
 * tags, indefinite lengths) is refused: a package never needs them, and a smaller reader has less to get wrong.
 * @throws {@link PackageError} `truncated` when the input ends inside the item, `malformed` for what it refuses.
 */
export function readCbor(bytes: Uint8Array, offset: number, depth = 0): CborItem {
  if (depth > 16) throw new PackageError('malformed', 'CBOR nested deeper than 16 levels');
  const { major, argument, end } = readHead(bytes, offset);
  let at = end;
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
    case 4: {
      const items: CborValue[] = [];
      for (let i = 0; i < argument; i++) {
        const item = readCbor(bytes, at, depth + 1);
        items.push(item.value);
        at = item.end;
      }
      return { value: items, end: at };
    }
    case 5: {
      const map = new Map<CborValue, CborValue>();
      const seen = new Set<string>();
      for (let i = 0; i < argument; i++) {
        const key = readCbor(bytes, at, depth + 1);
        // Keys are compared by value, not by encoding: heads need not be minimal, so "webBundleId" can be written two
        // ways, and a map holding both would give readers that keep the first and the last two different ids.
        const identity = keyIdentity(key.value, bytes.subarray(at, key.end));
        if (seen.has(identity)) throw new DuplicateKeyError(key.value);
        seen.add(identity);
        const value = readCbor(bytes, key.end, depth + 1);
        map.set(key.value, value.value);
        at = value.end;
      }
      return { value: map, end: at };
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
