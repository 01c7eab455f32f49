import { timingSafeEqual } from 'node:crypto';

/**
 * Whether a token a request gave equals the expected one, compared in constant time (no early exit on the first
 * differing byte, so the answer time tells nothing of the token). The one compare of every token the platform checks:
 * the launch token, the control token, the store's publish token, the MCP bearer token. It sits below the platform and
 * the agent bridge, so both compare with it.
 * @internal
 */
export function sameToken(given: string | null | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
