import { SvcError } from '../../protocol/SvcError';
import type { AnswerName, HostAnswers } from './HostAnswers';

/** Asks the person one question through the host's answers. */
export type Ask = <K extends AnswerName>(
  name: K,
  method: string,
  ...args: Parameters<NonNullable<HostAnswers[K]>>
) => Promise<Awaited<ReturnType<NonNullable<HostAnswers[K]>>>>;

/**
 * Builds the one place the rules ask the person. A host without the answer rejects the call: never approve on the
 * person's behalf. The answer's own SvcError (a UI may reject with one) passes through as it is.
 */
export function createAsk(answers: HostAnswers): Ask {
  return async (name, method, ...args) => {
    const answer = answers[name] as ((...a: unknown[]) => unknown) | undefined;
    if (typeof answer !== 'function')
      throw new SvcError(
        'ERR_UNSUPPORTED',
        `this host cannot ask the person (it gives no answers.${name}).`,
        false,
        method,
      );
    return (await answer.apply(answers, args)) as never;
  };
}
