import fc from 'fast-check';
import { afterAll, beforeAll, expect } from 'vitest';

/** Keys that reach prototypes when code walks or merges objects carelessly. */
export const NASTY_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
];

/** Any structured-clonable value, with nasty keys, null prototypes, boxed values, maps, sets, dates, typed arrays. */
export const value = fc.anything({
  key: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(...NASTY_KEYS, 'svc', 'id', 'method', 'result', 'error')),
  maxDepth: 3,
  maxKeys: 5,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withTypedArray: true,
  withSparseArray: true,
});

/** An object with an own `__proto__` property (what JSON.parse makes of hostile input). */
export const ownProto = fc.constantFrom(
  JSON.parse('{"__proto__":{"polluted":1}}'),
  JSON.parse('{"svc":1,"id":"x","__proto__":{"polluted":1}}'),
  JSON.parse('{"svc":1,"method":"__proto__","params":{"__proto__":{"polluted":1}}}'),
  JSON.parse('{"constructor":{"prototype":{"polluted":1}}}'),
);

/** Instead of an id: a near miss of a real id of a pending call (resolved at run time by `nearMiss`). */
export interface NearMiss {
  near: number;
  how: 'suffix' | 'prefix' | 'space' | 'upper' | 'array' | 'boxed' | 'next';
}
const nearMissArb = fc.record({
  near: fc.nat(),
  how: fc.constantFrom('suffix', 'prefix', 'space', 'upper', 'array', 'boxed', 'next'),
}) as fc.Arbitrary<NearMiss>;

/** Turns a near miss into a value that is almost, but not, the id of a pending call. */
export function nearMiss(m: NearMiss, ids: string[]): unknown {
  const id = ids[m.near % ids.length]!;
  switch (m.how) {
    case 'suffix':
      return `${id}0`;
    case 'prefix':
      return id.slice(0, -1);
    case 'space':
      return ` ${id}`;
    case 'upper':
      return id.toUpperCase() === id ? `${id}x` : id.toUpperCase();
    case 'array':
      return [id];
    case 'boxed':
      return new String(id);
    case 'next':
      return id.slice(0, -1) + String(Number(id.at(-1)) + 100);
  }
}

const idArb = fc.oneof(
  value,
  fc.string({ maxLength: 12 }),
  fc.constantFrom(...NASTY_KEYS),
  nearMissArb.map((m) => ({ $near: m })),
);
const methodArb = fc.oneof(
  value,
  fc.string({ maxLength: 12 }),
  fc.constantFrom(...NASTY_KEYS, 'ok', 'throws', 'rejects', 'unclonable', 'app.themeChanged', 'actions.invoke'),
);
const svcArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant(1) },
  { weight: 1, arbitrary: fc.constantFrom(0, 2, '1', true, null, 'hello', 'welcome') },
);
const wireError = fc.oneof(
  value,
  fc.record(
    {
      code: fc.oneof(fc.string(), value),
      message: fc.oneof(fc.string(), value),
      retriable: fc.oneof(fc.boolean(), value),
    },
    { requiredKeys: [] },
  ),
);

/**
 * A hostile inbound frame: anything at all, or something shaped like a request, notification or answer with wrong,
 * missing or near-miss fields. `rpc.close` is left out (it legitimately ends the channel; tested on its own).
 */
export const hostileFrame = fc.oneof(
  value,
  ownProto,
  fc.record({ svc: svcArb, id: idArb, method: methodArb, params: value }, { requiredKeys: [] }),
  fc.record({ svc: svcArb, id: idArb, result: value, error: wireError }, { requiredKeys: [] }),
  // Real-looking answers to near-miss ids, and requests that reuse a pending call's id.
  fc.record({ svc: fc.constant(1), id: nearMissArb.map((m) => ({ $near: m })), result: value }),
  fc.record({ svc: fc.constant(1), id: nearMissArb.map((m) => ({ $near: m })), error: wireError }),
);

/** Resolves the `{ $near }` placeholders of a generated frame against the real pending ids. */
export function materialize(frame: unknown, ids: string[]): unknown {
  if (ids.length && frame && typeof frame === 'object' && Object.hasOwn(frame, 'id')) {
    const id = (frame as { id: unknown }).id;
    if (id && typeof id === 'object' && Object.hasOwn(id, '$near'))
      return { ...(frame as object), id: nearMiss((id as { $near: NearMiss }).$near, ids) };
  }
  return frame;
}

/** The own property names of the built-in prototypes, to prove nothing was added to them. */
export function prototypeSnapshot(): string[] {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .flatMap((p) => Object.getOwnPropertyNames(p))
    .sort();
}

/**
 * Registers the checks every fuzz file ends with: no unhandled rejection during the file, no prototype changed,
 * nothing polluted. Call once at the top level of a test file.
 */
export function guardAgainstLeaks(): void {
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => void unhandled.push(e);
  const protoBefore = prototypeSnapshot();
  beforeAll(() => void process.on('unhandledRejection', onUnhandled));
  afterAll(() => {
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
    expect(prototypeSnapshot()).toEqual(protoBefore);
    expect(({} as any).polluted).toBeUndefined();
  });
}
