import { createInputValidator, type InputValidator } from '../../manifest';
import type { JsonValue } from '../../protocol/shape';
import { SvcError } from '../../protocol/SvcError';
import type { SvcFile } from '../../protocol/types';
import type { HostHandlers } from '../types';
import type { Ask } from './createAsk';
import type { HostAnswers } from './HostAnswers';
import { checkQuota, type StorageStore } from './createMemoryStorage';

/** Whether a MIME type fits one of `accept` (`image/*` style wildcards included); all fit when `accept` is empty. */
function accepts(type: string, accept: string[] | undefined): boolean {
  if (!accept?.length) return true;
  return accept.some((a) => a == type || a == '*/*' || (a.endsWith('/*') && type.startsWith(a.slice(0, -1))));
}

/** A validator for a JSON Schema given at runtime, or `null` when it cannot be compiled (then nothing is checked). */
function validatorOf(schema: Record<string, unknown>): InputValidator | null {
  try {
    return createInputValidator(schema);
  } catch {
    return null;
  }
}

/**
 * The rules of what the app does in the host: every send confirmed by the person, the picker, the share sheet,
 * `ui.confirm`, `elicit` answers that fit their schema, and storage within its quota. `platform` performs the
 * effects once the rules let a call through; an operation whose effect or answer the host lacks is not offered.
 */
export function appRules(platform: HostHandlers, answers: HostAnswers, storage: StorageStore, ask: Ask): HostHandlers {
  const cancelled = (method: string, what: string) =>
    new SvcError('ERR_CANCELLED', `the person ${what}.`, false, method);
  const { 'message.send': deliver, 'files.pick': offer, 'ui.share': share } = platform;
  const handlers: HostHandlers = {
    // No scope: the platform's bridge table gives svc.storage none, although the manifest lists `svc.storage`.
    'storage.get': ({ key }) => storage.get(key),
    'storage.set': ({ key, value }) => {
      checkQuota(storage, key, value as JsonValue);
      storage.set(key, value as JsonValue);
    },
    'storage.remove': ({ key }) => storage.remove(key),
    'storage.clear': () => storage.clear(),
  };
  // Gated operations are set to undefined (not offered) when the host lacks their answer or effect, so a
  // platform handler never runs without the person's say.
  handlers['ui.confirm'] = answers.confirm
    ? async (request) => (await ask('confirm', 'ui.confirm', request)) === true
    : undefined;
  handlers['actions.elicit'] = answers.elicit
    ? async ({ prompt, schema }, { invocation }) => {
        const value = await ask('elicit', 'actions.elicit', {
          prompt,
          schema,
          action: invocation!.name,
          signal: invocation!.signal,
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
  handlers['message.send'] =
    deliver && answers.send
      ? async (message, context) => {
          // The platform's rule: the host asks for confirmation on every send, whatever was answered before.
          if (!(await ask('send', 'message.send', message)))
            throw new SvcError(
              'ERR_PERMISSION_DENIED',
              'the person did not confirm the message.',
              false,
              'message.send',
            );
          return deliver(message, context);
        }
      : undefined;
  handlers['files.pick'] =
    offer && answers.pick
      ? async (options, context) => {
          const offered = ((await offer(options, context)) as SvcFile[]).filter((f) => accepts(f.type, options.accept));
          const picked = await ask('pick', 'files.pick', { options, offered });
          if (picked === null) throw cancelled('files.pick', 'cancelled the picker');
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
  handlers['ui.share'] =
    share && answers.share
      ? async (request, context) => {
          if (!(await ask('share', 'ui.share', request))) throw cancelled('ui.share', 'dismissed the share sheet');
          return share(request, context);
        }
      : undefined;
  return handlers;
}
