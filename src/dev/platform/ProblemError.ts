import type { ProblemName } from '../../server/problems';

/**
 * A refusal a route throws: the app's one error handler answers it as problem details (RFC 9457,
 * `application/problem+json`) of the named problem, `detail` saying what to do.
 * @internal
 */
export class ProblemError extends Error {
  constructor(
    /** The problem (its status and title come from `PROBLEMS`). */
    readonly problem: ProblemName,
    /** A sentence naming what was wrong and what to send instead; never a token or a secret. */
    readonly detail: string,
    /** Headers of the answer, such as `allow` or `retry-after`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
  }
}
