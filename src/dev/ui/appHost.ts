import {
  attachIframe,
  createHost,
  createMemoryStorage,
  type GrantStore,
  type HostAnswers,
  type HostEffects,
  type HostEndpoint,
  launchUrl,
  type StorageStore,
} from '../../host';
import { manifestFacts } from '../../manifest/manifestFacts';
import type { PermissionScope } from '../../protocol/scopes';
import { SCOPE_TO_MANIFEST } from '../../protocol/scopes';
import type { SvcFile } from '../../protocol/types';
import type { DevConfig, DevRoom, DevState } from '../devContract';
import { control, exchangeToken } from './api';
import type { createCallLog } from './callLog';
import { uiAnswers } from './answers';

/** What the messenger shows for the app's UI calls. */
export interface AppUi {
  toast(message: string, kind: string): void;
  title(title: string): void;
  external(url: string): void;
  close(): void;
  share(title: string, url: string): void;
  progress(action: string, message: string): void;
}

/** A launch: from a room (or the home grid, `null`), with deep-link parameters of a declared route. */
export interface Launch {
  room: DevRoom | null;
  params: Record<string, string>;
}

const denied = new Map<string, Set<string>>();
const storages = new Map<string, StorageStore>();
const saved: SvcFile[] = [];
const samples = (): SvcFile[] =>
  [
    ['notes.txt', 'text/plain', 'Lunch options: pizza, sushi, salad'],
    ['options.csv', 'text/csv', 'option\npizza\nsushi\nsalad'],
    ['photo.png', 'image/png', '\u0089PNG sample'],
  ].map(([name, type, text], i) => {
    const blob = new Blob([text!], { type });
    return { file_id: `sample-${i + 1}`, name: name!, type: type!, size: blob.size, blob };
  });

/**
 * The person's decisions per scope for the current person: a grant lives on the platform (the token exchange and
 * the server API read it), a refusal in the page (the platform has no word for it), so a revoke in the settings
 * makes the scope `prompt` again.
 */
function grantStore(state: () => DevState, userId: string, update: (next: DevState) => void): GrantStore {
  const refused = denied.get(userId) ?? new Set<string>();
  denied.set(userId, refused);
  const manifestScope = (scope: PermissionScope) => SCOPE_TO_MANIFEST[scope] ?? '';
  return {
    get(scope) {
      const granted = state().grants.find((g) => g.user_id === userId)?.scopes ?? [];
      if (granted.includes(manifestScope(scope))) return 'granted';
      return refused.has(scope) ? 'denied' : undefined;
    },
    async set(scope, decision) {
      if (decision === 'denied') refused.add(scope);
      else refused.delete(scope);
      // The answer is the new state: apply it now, so the app's next call sees the grant without waiting for the
      // event stream.
      update(
        await control(decision === 'granted' ? 'POST /__svc/grant' : 'POST /__svc/revoke', {
          user_id: userId,
          scope: manifestScope(scope),
        }),
      );
    },
  };
}

/** Forgets the page-side refusals of a person (settings: "ask again"). */
export const forgetRefusals = (userId: string) => denied.get(userId)?.clear();

/** The bridge scopes a person refused in this page (the platform keeps grants only). */
export const refusedScopes = (userId: string): ReadonlySet<string> => denied.get(userId) ?? new Set();

/** Forgets what the page keeps itself (refusals, each person's storage, saved files): part of a reset. */
export function forgetPageState(): void {
  denied.clear();
  storages.clear();
  saved.length = 0;
}

/**
 * Launches the app in `iframe` on the rule engine of `svc-sdk/host`: the person's answers are the messenger's
 * sheets, the effects go to the platform (messages, tokens) or the page (toasts, title).
 */
export function launchApp(
  config: DevConfig,
  state: () => DevState,
  iframe: HTMLIFrameElement,
  launch: Launch,
  log: ReturnType<typeof createCallLog>,
  ui: AppUi,
  update: (next: DevState) => void,
  answers: (base: HostAnswers) => HostAnswers = (base) => base,
): { host: HostEndpoint; detach: () => void } {
  const manifest = config.manifest as { name: string };
  const facts = manifestFacts(config.manifest);
  const { settings } = state();
  const userId = settings.current_user_id;
  const user = () => state().users.find((u) => u.id === userId)!;
  const storage = storages.get(userId) ?? createMemoryStorage();
  storages.set(userId, storage);
  const host = createHost({
    manifest: config.manifest,
    answers: answers(uiAnswers(manifest.name)),
    grants: grantStore(state, userId, update),
    storage,
    hostOrigin: location.origin,
    app: { theme: settings.theme, locale: settings.locale, launch_params: launch.params },
    handlers: {
      'identity.get': () => ({
        app_user_id: user().app_user_id,
        tenant_id: user().tenant_id,
        locale: state().settings.locale,
        display_name: user().display_name,
      }),
      'auth.getToken': (_p, { acting }) =>
        exchangeToken(config, userId, acting?.invoked_by === 'agent' ? acting.agent_id : undefined, facts.tokenScopes),
      'room.current': () =>
        launch.room && {
          room_id: launch.room.id,
          name: launch.room.name,
          is_encrypted: launch.room.is_encrypted,
          member_count: launch.room.members.length,
        },
      'message.send': async ({ room_id, body, card }) => {
        const next = await control('POST /__svc/message', {
          room_id,
          text: body,
          ...(card ? { card: { title: card.title, body: card.body, actions: card.actions ?? [] } } : {}),
        });
        const room = next.rooms.find((r) => r.id === room_id);
        return { event_id: room?.timeline.at(-1)?.event_id ?? '' };
      },
      'files.pick': () => [...samples(), ...saved],
      'files.save': ({ name, blob }) => {
        const file_id = `saved-${saved.length + 1}`;
        saved.push({ file_id, name, type: blob.type || 'application/octet-stream', size: blob.size, blob });
        ui.toast(`Saved ${name} to the person's files`, 'success');
        return { file_id };
      },
      'actions.progress': ({ message }, { invocation }) => ui.progress(invocation!.name, message),
      'ui.setTitle': ({ title }) => ui.title(title),
      'ui.toast': ({ message, kind }) => ui.toast(message, kind ?? 'info'),
      'ui.openExternal': ({ url }) => ui.external(url),
      'ui.close': () => ui.close(),
      'ui.share': ({ title, url }) => ui.share(title, url),
      // Every operation with an effect is here: one that gains an effect and is missing fails to compile.
    } satisfies HostEffects,
  });
  // Every channel the iframe opens goes through the call log.
  const attach = host.attach.bind(host);
  host.attach = (transport) => attach(log.tap(transport));
  const detach = attachIframe(host, iframe, config.appOrigin);
  iframe.src = launchUrl(config.appUrl, host.snapshot);
  return { host, detach };
}
