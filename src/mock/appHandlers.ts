import type { HostHandlers } from '../host/createHost';
import { SvcError } from '../protocol/SvcError';
import type { PickOptions, SvcFile } from '../protocol/types';
import type { MockState } from './MockState';
import type { MockFile } from './types';

/** Whether a MIME type fits one of `accept` (`image/*` style wildcards included); all fit when `accept` is empty. */
function accepts(type: string, accept: string[] | undefined): boolean {
  if (!accept?.length) return true;
  return accept.some((a) => a == type || a == '*/*' || (a.endsWith('/*') && type.startsWith(a.slice(0, -1))));
}

/** The person's files as the bridge returns them. */
export function toSvcFiles(files: MockFile[] = []): SvcFile[] {
  return files.map((f, i) => {
    const type = f.type ?? 'application/octet-stream';
    const blob = f.content instanceof Blob ? f.content : new Blob([f.content ?? ''], { type });
    return { file_id: f.file_id ?? `file-${i + 1}`, name: f.name, type, size: blob.size, blob };
  });
}

/**
 * The mock's answers for what the app does in the host: room, messages, files, actions' prompts, UI and storage.
 * Scope checks are not here: `createHost` rejects `ERR_SCOPE_NOT_GRANTED` before any of these runs.
 */
export function appHandlers(s: MockState) {
  const files = toSvcFiles(s.options.files);
  const cancelled = (method: string, what: string) =>
    new SvcError('ERR_CANCELLED', `the person ${what}.`, false, method);

  return {
    'room.current': () => s.options.room ?? null,

    'message.send': async (message) => {
      // The interface: the host asks for confirmation on every send, whatever was answered before.
      if (!(await s.ask('send', 'message.send', message)))
        throw new SvcError('ERR_PERMISSION_DENIED', 'the person did not confirm the message.', false, 'message.send');
      const event_id = `$mock-event-${++s.seq}`;
      s.sent.push({ ...message, event_id });
      return { event_id };
    },

    'files.pick': async (options: PickOptions) => {
      const offered = files.filter((f) => accepts(f.type, options.accept));
      const picked = s.options.answers?.pick
        ? await s.ask('pick', 'files.pick', { options, offered })
        : offered.slice(0, options.multiple ? undefined : 1);
      if (picked === null) throw cancelled('files.pick', 'cancelled the picker');
      return picked;
    },

    'files.save': ({ name, blob }) => {
      const file_id = `saved-${++s.seq}`;
      s.saved.push({ file_id, name, blob });
      return { file_id };
    },

    'actions.elicit': ({ prompt, schema }, { invocation }) =>
      s.ask('elicit', 'actions.elicit', { prompt, schema, action: invocation!.name }),

    'actions.progress': ({ message }, { invocation }) => void s.progress.push({ action: invocation!.name, message }),

    'ui.setTitle': ({ title }) => {
      s.ui.title = title;
      s.ui.titles.push(title);
    },
    'ui.toast': ({ message, kind }) => void s.ui.toasts.push({ message, kind: kind ?? 'info' }),
    'ui.confirm': async (request) => {
      const answer = (await s.ask('confirm', 'ui.confirm', request)) === true;
      s.ui.confirms.push({ ...request, answer });
      return answer;
    },
    'ui.openExternal': ({ url }) => void s.ui.opened.push(url),
    'ui.close': () => void s.ui.closed++,
    'ui.share': async (request) => {
      if (s.options.answers?.share && !(await s.ask('share', 'ui.share', request)))
        throw cancelled('ui.share', 'dismissed the share sheet');
      s.ui.shares.push(request);
    },

    // No scope: the interface's bridge table gives svc.storage none, although the manifest lists `svc.storage`.
    'storage.get': ({ key }) => s.store.get(key),
    'storage.set': ({ key, value }) => s.store.set(key, value),
    'storage.remove': ({ key }) => s.store.remove(key),
    'storage.clear': () => s.store.clear(),
  } satisfies HostHandlers;
}
