import { SvcError } from '../../protocol/SvcError';
import type { AnswerName, HostAnswers } from './HostAnswers';

/** Asks the person one question through the host's answers. */
export type Ask = <K extends AnswerName>(
  name: K,
  method: string,
  request?: Parameters<NonNullable<HostAnswers[K]>>[0],
  signal?: AbortSignal,
) => Promise<Awaited<ReturnType<NonNullable<HostAnswers[K]>>>>;

/**
 * Builds the one place the rules ask the person. A host without the answer rejects the call: never approve on the
 * person's behalf. The answer's own SvcError (a UI may reject with one) passes through as it is. `signal` is the
 * asking page's (HostCallContext.signal): the answer is given it to close its prompt when the page is gone, and an
 * answer that comes after is not acted on, since the page that would learn of it is gone (a message sent then would
 * be sent again by the page that took its place).
 */
export function createAsk(answers: HostAnswers): Ask {
  return async (name, method, request, signal) => {
    const answer = answers[name] as ((...a: unknown[]) => unknown) | undefined;
    if (typeof answer !== 'function')
      throw new SvcError(
        'ERR_UNSUPPORTED',
        `this host cannot ask the person (it gives no answers.${name}).`,
        false,
        method,
      );
    const gone = () =>
      new SvcError(
        'ERR_DISCONNECTED',
        'the page that asked is gone (it left or reloaded); nothing was done: ask again from the page now open.',
        true,
        method,
      );
    if (signal?.aborted) throw gone();
    const given = (await answer.call(answers, request, { signal })) as never;
    if (signal?.aborted) throw gone();
    return given;
  };
}
