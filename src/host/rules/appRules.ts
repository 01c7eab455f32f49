import type { InputValidator } from '../../manifest';
import type { JsonValue } from '../../protocol/shape';
import { SvcError } from '../../protocol/SvcError';
import type { SvcFile } from '../../protocol/types';
import { type MethodName, methods, type OperationDef } from '../../protocol/methods';
import type { HostCallContext, HostHandlers } from '../HostHandlers';
import type { Ask } from './createAsk';
import type { AnswerName, HostAnswers } from './HostAnswers';
import { checkQuota, type StorageStore } from './createMemoryStorage';

/** Whether a MIME type fits one of `accept` (`image/*` style wildcards included); all fit when `accept` is empty. */
function accepts(type: string, accept: string[] | undefined): boolean {
  if (!accept?.length) return true;
  return accept.some((a) => a === type || a === '*/*' || (a.endsWith('/*') && type.startsWith(a.slice(0, -1))));
}

/**
 * The rules of what the app does in the host: each operation that shows the person its params asked first (every
 * send, the share sheet, `ui.confirm`), the picker, `elicit` answers that fit their schema, and storage within its
 * quota. `platform` performs the
 * effects once the rules let a call through; an operation whose effect or answer the host lacks is not offered.
 */
export function appRules({
  effects: platform,
  answers,
  storage,
  ask,
  validator,
}: {
  effects: HostHandlers;
  answers: HostAnswers;
  storage: StorageStore;
  ask: Ask;
  /** Compiles the schema an elicit asks with. */
  validator: (schema: Record<string, unknown>) => InputValidator;
}): HostHandlers {
  // A schema that cannot be compiled checks nothing (the app's own schema; the person still answers).
  const validatorOf = (schema: Record<string, unknown>): InputValidator | null => {
    try {
      return validator(schema);
    } catch {
      return null;
    }
  };
  const offer = platform['files.pick'];
  const handlers: HostHandlers = {
    // No scope: the platform's bridge table gives svc.storage none, although the manifest lists `svc.storage`.
    'storage.get': ({ key }) => storage.get(key),
    'storage.set': ({ key, value }) => {
      checkQuota(storage, key, value as JsonValue);
      return storage.set(key, value as JsonValue);
    },
    'storage.remove': ({ key }) => storage.remove(key),
    'storage.clear': () => storage.clear(),
  };
  // Gated operations are set to undefined (not offered) when the host lacks their answer or effect, so a
  // platform handler never runs without the person's say.
  // The one step of every operation that shows the person its params: ask, then refuse or run the effect.
  for (const name of Object.keys(methods) as MethodName[]) {
    const { asks, effect } = methods[name] as OperationDef;
    if (asks?.request !== 'params') continue;
    const run = platform[name] as ((params: unknown, context: HostCallContext) => unknown) | undefined;
    (handlers as Record<string, unknown>)[name] =
      answers[asks.answer as AnswerName] && (run || !effect)
        ? async (params: unknown, context: HostCallContext) => {
            const answer = await ask(asks.answer as AnswerName, name, params as never, context.signal);
            // Without a refusal the answer is the result (checked like any host answer).
            if (!asks.refusal) return answer;
            // Only true is a yes: a <dialog>'s returnValue ('cancel') or another truthy value is no consent.
            if (answer !== true) throw new SvcError(asks.refusal[0], asks.refusal[1], false, name);
            return run!(params, context);
          }
        : undefined;
  }
  handlers['actions.elicit'] = answers.elicit
    ? async ({ prompt, schema }, { invocation, signal }) => {
        const value = await ask('elicit', 'actions.elicit', {
          prompt,
          schema,
          action: invocation!.name,
          // The invoker's, else the asking page's: the sheet closes when either is gone.
          signal: invocation!.signal ?? signal,
        });
        // null is the person refusing; anything else must fit the schema the app asked with.
        const issues = value === null ? [] : (validatorOf(schema)?.(value) ?? []);
        if (issues.length)
          throw new SvcError(
            'ERR_INTERNAL',
            `the host's answer does not fit the schema: ${issues.map((i) => i.message).join('; ')}.`,
            true,
            'actions.elicit',
          );
        return value;
      }
    : undefined;
  const [cancelCode, cancelMessage] = methods['files.pick'].asks.refusal!;
  handlers['files.pick'] =
    offer && answers.pick
      ? async (options, context) => {
          const offered = ((await offer(options, context)) as SvcFile[]).filter((f) => accepts(f.type, options.accept));
          const picked = await ask('pick', 'files.pick', { options, offered }, context.signal);
          if (picked === null) throw new SvcError(cancelCode, cancelMessage, false, 'files.pick');
          if (!options.multiple && picked.length > 1)
            throw new SvcError(
              'ERR_INTERNAL',
              "the host's picker returned several files for a single pick.",
              true,
              'files.pick',
            );
          return picked;
        }
      : undefined;
  return handlers;
}
