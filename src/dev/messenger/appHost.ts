import { signal } from '@preact/signals';
import {
  attachIframe,
  createHost,
  type GrantStore,
  type HostAnswers,
  type HostEffects,
  type HostEndpoint,
  launchUrl,
  type StorageStore,
  storedBytes,
  withRules,
} from '../../host/core';
import { createInputValidator } from '../../manifest/createInputValidator';
import { manifestFacts } from '../../manifest/manifestFacts';
import type { PermissionScope } from '../../protocol/scopes';
import { SCOPE_TO_MANIFEST } from '../../protocol/scopes';
import type { SvcFile } from '../../protocol/types';
import type { JsonValue } from '../../protocol/shape';
import type { ControlBody, DevConfig, DevState } from '../devContract';
import { control, exchangeToken } from './api';
import type { CallLogModel } from './createCallLog';
import type { Launch } from './Messenger';
import { clipped } from './clipped';

// How much of an app's text the page shows: a progress message, a toast or a URL; a title.
const TEXT_CHARACTERS = 1000;
const TITLE_CHARACTERS = 200;
/** What the messenger shows for the app's UI calls. */
export interface AppUi {
  toast(message: string, kind: string): void;
  title(title: string): void;
  external(url: string): void;
  close(): void;
  share(title: string, url: string): void;
  progress(action: string, message: string): void;
}

// The person's refusals live in the page (the platform has no word for them); a signal, so the settings show them.
const denied = signal<ReadonlyMap<string, ReadonlySet<string>>>(new Map());
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

/** Sets a person's refusals (a new map, so the settings render again). */
function setRefused(userId: string, scopes: ReadonlySet<string>): void {
  denied.value = new Map(denied.value).set(userId, scopes);
}

/**
 * The person's decisions per scope for the current person: a grant lives on the platform (the token exchange and
 * the server API read it), a refusal in the page (the platform has no word for it), so a revoke in the settings
 * makes the scope `prompt` again.
 */
function grantStore(state: () => DevState, userId: string, update: (next: DevState) => void): GrantStore {
  const manifestScope = (scope: PermissionScope) => SCOPE_TO_MANIFEST[scope] ?? '';
  return {
    get(scope) {
      const granted = state().grants.find((g) => g.user_id === userId)?.scopes ?? [];
      if (granted.includes(manifestScope(scope))) return 'granted';
      return refusedScopes(userId).has(scope) ? 'denied' : undefined;
    },
    async set(scope, decision) {
      const refused = new Set(refusedScopes(userId));
      if (decision === 'denied') refused.add(scope);
      else refused.delete(scope);
      setRefused(userId, refused);
      // The answer is the new state: apply it now, so the app's next call sees the grant without waiting for the
      // page's channel.
      update(
        await control(decision === 'granted' ? 'POST /__svc/grant' : 'POST /__svc/revoke', {
          user_id: userId,
          scope: manifestScope(scope),
        }),
      );
    },
  };
}

/**
 * The app's `svc.storage` of a person, as the platform keeps it (`state.storage`): read from the page's state, which
 * every tab receives, and changed through the platform, one change at a time in the app's order, each call resolving
 * once the platform has it (saved in its state file with `--state`). Kept in the page alone, it was lost at a reload.
 */
function platformStorage(state: () => DevState, userId: string, update: (next: DevState) => void): StorageStore {
  const data = () => (state().storage?.[userId] ?? {}) as Record<string, JsonValue>;
  let changes: Promise<unknown> = Promise.resolve();
  const change = (body: Omit<ControlBody<'POST /__svc/storage'>, 'user_id'>) => {
    const done = changes.then(async () => update(await control('POST /__svc/storage', { user_id: userId, ...body })));
    changes = done.catch(() => {});
    return done;
  };
  return {
    get: (key) => (Object.hasOwn(data(), key) ? structuredClone(data()[key]) : undefined),
    set: (key, value) => change({ op: 'set', key, value }),
    remove: (key) => change({ op: 'remove', key }),
    clear: () => change({ op: 'clear' }),
    get bytes() {
      return Object.entries(data()).reduce((sum, [key, value]) => sum + storedBytes(key, value), 0);
    },
    toJSON: () => structuredClone(data()),
  };
}

/** Forgets the page-side refusals of a person (settings: "ask again"). */
export const forgetRefusals = (userId: string) => setRefused(userId, new Set());

/** The bridge scopes a person refused in this page (the platform keeps grants only); a component reading it follows it. */
export const refusedScopes = (userId: string): ReadonlySet<string> => denied.value.get(userId) ?? new Set();

/** Forgets what the page keeps itself (refusals, saved files): part of a reset. */
export function forgetPageState(): void {
  denied.value = new Map();
  saved.length = 0;
}

/** What a launch needs from the page. */
export interface AppLaunch {
  config: DevConfig;
  state: () => DevState;
  /** The theme the app opens in: the setting, or the system's colour scheme. */
  theme: 'light' | 'dark';
  iframe: HTMLIFrameElement;
  launch: Launch;
  log: CallLogModel;
  ui: AppUi;
  /** Applies a control call's answer (the new state). */
  update: (next: DevState) => void;
  /** The person's answers, as the page's sheets. */
  answers: HostAnswers;
}

/** The platform's effects of the app's calls: messages and tokens on the platform, the rest in the page. */
function effects({ config, state, launch, ui }: AppLaunch, userId: string): HostEffects {
  const user = () => state().users.find((u) => u.id === userId)!;
  const facts = manifestFacts(config.manifest);
  return {
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
      ui.toast(`Saved ${clipped(name, 256)} to the person's files`, 'success');
      return { file_id };
    },
    // The app's texts the page shows, each cut to a length a person reads (the agent gets the progress as shown).
    'actions.progress': ({ message }, { invocation }) =>
      ui.progress(invocation!.name, clipped(message, TEXT_CHARACTERS)),
    'ui.setTitle': ({ title }) => ui.title(clipped(title, TITLE_CHARACTERS)),
    'ui.toast': ({ message, kind }) => ui.toast(clipped(message, TEXT_CHARACTERS), kind ?? 'info'),
    'ui.openExternal': ({ url }) => ui.external(clipped(url, TEXT_CHARACTERS)),
    'ui.close': () => ui.close(),
    'ui.share': ({ title, url }) => ui.share(clipped(title, TITLE_CHARACTERS), clipped(url, TEXT_CHARACTERS)),
    // Every operation with an effect is here: one that gains an effect and is missing fails to compile.
  };
}

/**
 * Launches the app in its iframe on the host core and the rules of `svc-sdk/host/core`, with the manifest the
 * platform validated (the page loads no manifest validator): the person's answers are the messenger's sheets, the
 * effects go to the platform (messages, tokens) or the page (toasts, title).
 */
export function launchApp(options: AppLaunch): { host: HostEndpoint; detach: () => void } {
  const { config, state, iframe, launch, log } = options;
  const { settings } = state();
  const userId = settings.current_user_id;
  const storage = platformStorage(state, userId, options.update);
  const host = createHost({
    handlers: effects(options, userId),
    rules: withRules({
      manifest: config.manifest,
      validator: createInputValidator,
      answers: options.answers,
      grants: grantStore(state, userId, options.update),
      storage,
    }),
    hostOrigin: location.origin,
    app: { theme: options.theme, locale: settings.locale, launch_params: launch.params },
  });
  // Every channel the iframe opens goes through the call log.
  const attach = host.attach.bind(host);
  host.attach = (transport) => attach(log.tap(transport));
  const detach = attachIframe(host, iframe, config.appOrigin);
  iframe.src = launchUrl(config.appUrl, host.snapshot);
  return { host, detach };
}
