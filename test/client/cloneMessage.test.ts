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

  it('refuses what postMessage refuses: functions, symbols, class instances', () => {
    vi.stubGlobal('structuredClone', undefined);
    for (const bad of [{ f: () => 1 }, { s: Symbol('x') }, { m: new Map() }, [new (class Poll {})()]])
      expect(() => cloneMessage(bad), JSON.stringify(Object.keys(bad))).toThrow(
        expect.objectContaining({ name: 'DataCloneError' }),
      );
  });

  it('uses structuredClone where the runtime has it', () => {
    expect(() => cloneMessage({ f: () => 1 })).toThrow(); // Node's own DataCloneError
    expect(cloneMessage({ a: 1 })).toEqual({ a: 1 });
  });
});
