// Property-based: random bytes, and a valid package with random bytes changed, inserted or cut, given to
// readPackage and verifyPackage. Each answer is a PackageError with a code (never another exception, never a hang),
// and a changed package never verifies.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPackageError, readPackage, verifyPackage } from '../../src/package';

const valid = new Uint8Array(readFileSync(join(import.meta.dirname, '../../vectors/package/valid.swbn')));

/** A copy of `bytes` with some bytes replaced, some inserted, and maybe its end cut. */
const mutated = fc
  .record({
    // One change per position: two at one position could cancel out.
    changes: fc.uniqueArray(fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 1, max: 255 })), {
      selector: ([at]) => at,
      maxLength: 4,
    }),
    insert: fc.option(fc.tuple(fc.nat(valid.length), fc.uint8Array({ minLength: 1, maxLength: 16 }))),
    cut: fc.option(fc.nat(valid.length - 1)),
  })
  .filter((m) => m.changes.length > 0 || m.insert !== null || m.cut !== null)
  .map(({ changes, insert, cut }) => {
    let bytes = valid.slice();
    for (const [at, xor] of changes) bytes[at]! ^= xor;
    if (insert) bytes = new Uint8Array([...bytes.subarray(0, insert[0]), ...insert[1], ...bytes.subarray(insert[0])]);
    if (cut !== null) bytes = bytes.subarray(0, cut);
    return bytes;
  });

const outcome = async (run: () => unknown) => {
  try {
    await run();
    return 'passed';
  } catch (error) {
    if (isPackageError(error)) return error.code;
    throw error;
  }
};

describe('packages of random or changed bytes', () => {
  it('readPackage and verifyPackage answer a PackageError for random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), async (bytes) => {
        expect(await outcome(() => readPackage(bytes))).not.toBe('passed');
        expect(await outcome(() => verifyPackage(bytes))).not.toBe('passed');
      }),
      { numRuns: 300 },
    );
  });

  it('a valid package with bytes changed, inserted or cut never verifies, and fails with a code', async () => {
    await fc.assert(
      fc.asyncProperty(mutated, async (bytes) => {
        const code = await outcome(() => verifyPackage(bytes));
        expect(code).not.toBe('passed');
        expect(code).toMatch(/^[a-z-]+$/);
      }),
      { numRuns: 400 },
    );
  });
});
