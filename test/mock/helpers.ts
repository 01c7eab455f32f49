import { expect } from 'vitest';
import { isSvcError } from '../../src/mock';

/** Awaits `promise`, expects it to reject with an SvcError of `code`, and returns the error. */
export async function rejectsWith(
  promise: Promise<unknown>,
  code: string,
): Promise<Error & { code: string; retriable: boolean }> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected a rejection with ${code}, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(isSvcError(error), `an SvcError, got ${String(error)}`).toBe(true);
  expect((error as { code: string }).code).toBe(code);
  return error as Error & { code: string; retriable: boolean };
}
