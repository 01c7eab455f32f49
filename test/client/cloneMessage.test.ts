import { afterEach, describe, expect, it, vi } from 'vitest';
import { cloneMessage } from '../../src/rpc/cloneMessage';

describe('cloneMessage without structuredClone (as in Jest jsdom)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('copies JSON values deeply, keeps Blobs, Dates and bytes', () => {
    vi.stubGlobal('structuredClone', undefined);
    const blob = new Blob(['hi']);
    const message = { a: [1, { b: 'x' }], n: null, blob, when: new Date(5), bytes: new Uint8Array([1, 2]) };
    const copy = cloneMessage(message);
    expect(copy).toEqual(message);
    expect(copy.a).not.toBe(message.a);
    expect(copy.a[1]).not.toBe(message.a[1]);
    expect(copy.blob).toBe(blob);
    expect(copy.bytes).not.toBe(message.bytes);
  });

  it('refuses what postMessage refuses: functions and symbols', () => {
    vi.stubGlobal('structuredClone', undefined);
    for (const bad of [{ f: () => 1 }, { s: Symbol('x') }, [1, () => 2]])
      expect(() => cloneMessage(bad), JSON.stringify(Object.keys(bad))).toThrow(
        expect.objectContaining({ name: 'DataCloneError' }),
      );
  });

  it("copies as the runtime's structuredClone does: class instances, Maps, Sets, RegExps, errors, holes", () => {
    class Poll {
      constructor(
        readonly question: string,
        readonly votes: number[],
      ) {}
      get total() {
        return this.votes.length;
      }
    }
    const sparse: number[] = [];
    sparse[3] = 7;
    const values = [
      new Poll('Lunch?', [1, 2]),
      new Map<unknown, unknown>([
        ['k', { a: 1 }],
        [1, new Set([2, 3])],
      ]),
      /a+b/gi,
      new TypeError('bad'),
      sparse,
      { nested: { list: [new Date(5), new Uint8Array([1])], flag: new Boolean(false) } },
    ];
    const real = structuredClone;
    for (const value of values) {
      const expected = real(value);
      vi.stubGlobal('structuredClone', undefined);
      const copy = cloneMessage(value);
      vi.unstubAllGlobals();
      expect(copy).toStrictEqual(expected);
      expect(Object.keys(copy as object)).toEqual(Object.keys(expected as object));
    }
  });

  it('uses structuredClone where the runtime has it', () => {
    expect(() => cloneMessage({ f: () => 1 })).toThrow(); // Node's own DataCloneError
    expect(cloneMessage({ a: 1 })).toEqual({ a: 1 });
  });
});
