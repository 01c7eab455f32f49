import type { HostAnswers } from '../host/rules/HostAnswers';
import { createInputValidator } from '../manifest/createInputValidator';
import { methods } from '../protocol/methods';
import { isSvcError, SvcError } from '../protocol/SvcError';
import type { MockUi } from './MockUi';

/**
 * How the person answers the host's prompts in a test: the host's own {@link HostAnswers}, each returning its value
 * or a Promise of it. The picker and the share sheet have defaults, as a test rarely cares: the first offered
 * file(s), and a completed share.
 *
 * @remarks
 * An answer that is needed but not given rejects the app's call with `ERR_MOCK_UNANSWERED`, whose message names
 * the `answers.*` member to provide: a test never passes because a prompt was silently approved.
 * @public
 */
export type MockAnswers = HostAnswers;

type Answer = (request: unknown, options?: unknown) => unknown;

/** The test defaults: what a person who does not matter to the test answers. */
const defaults: Partial<Record<string, Answer>> = {
  pick: (request) => {
    const { options, offered } = request as Parameters<NonNullable<HostAnswers['pick']>>[0];
    // A picker with nothing in it leaves the person nothing but to cancel.
    if (!offered.length)
      throw new SvcError(
        'ERR_CANCELLED',
        `the picker offered no file${options.accept ? ` that accept ${JSON.stringify(options.accept)} allows` : ''}, so the person cancelled; pass createMockHost({ files: [...] }).`,
        false,
        'files.pick',
      );
    return offered.slice(0, options.multiple ? undefined : 1);
  },
  share: () => true,
};

/**
 * What is wrong with an elicit answer against the app's schema; none for a schema that does not compile (the host's
 * rule: it then checks nothing).
 */
function issuesOf(schema: Record<string, unknown>, value: unknown) {
  try {
    return createInputValidator(schema)(value);
  } catch {
    return [];
  }
}

/** Each answer's name and the operation that asks it (an action's confirmation is asked by `actions.invoke`). */
const asked = new Map<string, string>([
  ...Object.entries(methods).flatMap(([name, def]) => (def.asks ? [[def.asks.answer, name] as [string, string]] : [])),
  ['confirmAction', 'actions.invoke'],
]);

/**
 * The test's answers with the test defaults, asked the one way: a missing answer rejects the app's call with
 * `ERR_MOCK_UNANSWERED`, naming what to add (and is recorded in `unanswered`, also when the app swallows the error);
 * an answer that throws rejects `ERR_MOCK_ANSWER_THREW` (an SvcError passes through as it is).
 */
export function mockAnswers({
  answers,
  unanswered,
  ui,
}: {
  answers: MockAnswers;
  /** Where a missing answer's name is recorded (`host.unanswered`). */
  unanswered: string[];
  ui: MockUi;
}): HostAnswers {
  const given = answers as Record<string, Answer | undefined>;
  const wrapped: Record<string, Answer> = {};
  for (const [name, method] of asked)
    wrapped[name] = async (request, options) => {
      const answer = given[name] ?? defaults[name];
      if (typeof answer !== 'function') {
        unanswered.push(name);
        throw new SvcError(
          'ERR_MOCK_UNANSWERED',
          `the person was asked, but the test gave no answers.${name}; pass createMockHost({ answers: { ${name}: ... } }).`,
          false,
          method,
        );
      }
      let value: unknown;
      try {
        // The host's options (the signal that aborts when the page is gone) reach the test's answer too.
        value = await answer.call(answers, request, options);
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
      if (name === 'permission' && value !== 'granted' && value !== 'denied')
        throw new SvcError(
          'ERR_MOCK_BAD_ANSWER',
          `answers.permission returned ${JSON.stringify(value)}; return 'granted' or 'denied'.`,
          false,
          method,
        );
      if (name === 'elicit' && value !== null) {
        const { schema } = request as { schema: Record<string, unknown> };
        const issues = issuesOf(schema, value);
        if (issues.length)
          throw new SvcError(
            'ERR_MOCK_BAD_ANSWER',
            `answers.elicit returned ${JSON.stringify(value)}, which does not fit the schema the app asked with (${issues.map((i) => i.message).join('; ')}); return a value that fits it, or null for a refusal.`,
            false,
            method,
          );
      }
      if (name === 'confirm') {
        const { title, body } = request as { title: string; body: string };
        ui.confirms.push({ title, body, answer: value === true });
      }
      return value;
    };
  return wrapped;
}
