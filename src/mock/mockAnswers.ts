import type { HostAnswers } from '../host/rules/HostAnswers';
import { isSvcError, SvcError } from '../protocol/SvcError';
import type { MockAnswers, MockUi } from './types';

/**
 * The test's answers as the host's {@link HostAnswers}: every prompt is answered, and a missing answer rejects the
 * app's call with `ERR_MOCK_UNANSWERED`, naming what to add (and is recorded in `unanswered`, also when the app
 * swallows the error). The picker and the share sheet have defaults, as a test rarely cares: the first offered
 * file(s), and a completed share.
 */
export function mockAnswers(answers: MockAnswers, unanswered: string[], ui: MockUi): HostAnswers {
  const ask = async <K extends keyof MockAnswers>(name: K, method: string, ...args: unknown[]): Promise<any> => {
    const answer = answers[name] as ((...a: unknown[]) => unknown) | undefined;
    if (typeof answer != 'function') {
      unanswered.push(name);
      throw new SvcError(
        'ERR_MOCK_UNANSWERED',
        `the person was asked, but the test gave no answers.${name}; pass createMockHost({ answers: { ${name}: ... } }).`,
        false,
        method,
      );
    }
    try {
      return await answer(...args);
    } catch (e) {
      if (isSvcError(e)) throw e; // a test may answer with an SvcError on purpose
      // Otherwise the host would turn it into an anonymous ERR_INTERNAL and hide the test's own mistake.
      throw new SvcError(
        'ERR_MOCK_ANSWER_THREW',
        `answers.${name} threw: ${(e as Error)?.message ?? e}`,
        false,
        method,
        {
          cause: e,
        },
      );
    }
  };
  return {
    async permission({ scope }) {
      const answer = await ask('permission', 'permissions.request', scope);
      if (answer !== 'granted' && answer !== 'denied')
        throw new SvcError(
          'ERR_MOCK_BAD_ANSWER',
          `answers.permission('${scope}') returned ${JSON.stringify(answer)}; return 'granted' or 'denied'.`,
          false,
          'permissions.request',
        );
      return answer;
    },
    send: (message) => ask('send', 'message.send', message),
    confirmAction: ({ name, input, context }) => ask('confirmAction', 'actions.invoke', { name, input, context }),
    async confirm(request) {
      const answer = (await ask('confirm', 'ui.confirm', request)) === true;
      ui.confirms.push({ ...request, answer });
      return answer;
    },
    elicit: (request) => ask('elicit', 'actions.elicit', request),
    pick: (request) =>
      answers.pick
        ? ask('pick', 'files.pick', request)
        : request.offered.slice(0, request.options.multiple ? undefined : 1),
    share: (request) => (answers.share ? ask('share', 'ui.share', request) : true),
    signIn: () => ask('signIn', 'auth.signIn'),
  };
}
