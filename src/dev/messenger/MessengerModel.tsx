import { computed, effect, type ReadonlySignal, type Signal, signal } from '@preact/signals';
import type { HostEndpoint } from '../../host/core';
import type { Manifest } from '../../manifest';
import {
  APP_OPEN_FRAGMENT,
  type DevBlockedRequest,
  type DevConfig,
  type DevRoom,
  type DevState,
  type DevUser,
} from '../devContract';
import { offeredTo } from '../offeredTo';
import { control, pageEvent, uploadPackage } from './api';
import { launchApp } from './appHost';
import { uiAnswers } from './answers';
import { type AgentPanelModel, createAgentPanel } from './createAgentPanel';
import { type CallLogModel, createCallLog } from './createCallLog';
import { createStateStore, isNewer, type StateStore } from './createStateStore';
import { jsonQuote } from '../../manifest/jsonQuote';
import { launchParamsOf } from '../../manifest/launchParamsOf';
import { mcpCalls } from './mcpCalls';
import {
  type BodyOf,
  type ButtonRoute,
  type Launch,
  type Messenger,
  type OpenApp,
  type SettingsActions,
  TABS,
  type Tab,
} from './Messenger';
import { storeResult } from './StoreUpload';
import { settingsActions } from './settingsActions';
import { shownTheme } from './shownTheme';
import { offerAppExit, sheet } from './sheet';
import { toast } from './toasts';

/** Set before the page reloads for a version the store accepted (the URL says whether the app was open). */
const UPDATED = 'svc-dev-updated';
/** What the upload of that version was answered with beyond its acceptance (a warning, a failed save), if anything. */
const UPDATED_NOTE = 'svc-dev-updated-note';
/** The developer tools' tab shown when the page reloaded for that version. */
const UPDATED_TAB = 'svc-dev-updated-tab';
/** The test id of the control that had the focus when the page reloaded for that version. */
const UPDATED_FOCUS = 'svc-dev-updated-focus';
/** What was typed or chosen in the page's fields then (test id and value), filled in again after the reload. */
const UPDATED_FIELDS = 'svc-dev-updated-fields';

type FieldElement = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** The messenger's fields that hold something typed or chosen, by test id (a file input's choice is not kept). */
function typedFields(): [string, string | boolean][] {
  const fields = document.querySelectorAll<FieldElement>('#messenger :is(input, textarea, select)[data-testid]');
  return [...fields].flatMap((el): [string, string | boolean][] => {
    if (el instanceof HTMLInputElement && el.type === 'checkbox') return [[el.dataset.testid!, el.checked]];
    return el.type === 'file' || el.value === '' ? [] : [[el.dataset.testid!, el.value]];
  });
}

/** Fills the fields again as the page's own code hears a person's input (its input and change events). */
function refill(fields: [string, string | boolean][]): void {
  for (const [testid, value] of fields) {
    const el = document.querySelector<FieldElement>(`#messenger [data-testid="${CSS.escape(testid)}"]`);
    // One that already holds it (a setting the state gave back) is left alone: its change would act again.
    if (!el || (typeof value === 'boolean' ? (el as HTMLInputElement).checked === value : el.value === value)) continue;
    if (typeof value === 'boolean') (el as HTMLInputElement).checked = value;
    else el.value = value;
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement || typeof value === 'boolean' ? 'change' : 'input'));
  }
}

/** A room as the messenger names it: `# General`, `[e2ee] Board`, or `Home`. */
export const roomLabel = (room: DevRoom | null) =>
  room ? `${room.is_encrypted ? '[e2ee]' : '#'} ${room.name}` : 'Home';

/**
 * The messenger page's model: the platform's state as signals, the app's launches in the current room (or from the
 * home screen), and the actions every component calls. Everything it changes goes through the platform's control API.
 */
export class MessengerModel implements Messenger {
  readonly manifest: Manifest;
  readonly store: StateStore;
  readonly log: CallLogModel = createCallLog();
  readonly agent: AgentPanelModel;
  /** The MCP calls the platform relays to this page. */
  readonly mcp: ReturnType<typeof mcpCalls>;
  readonly me: ReadonlySignal<DevUser | undefined>;
  readonly myRooms: ReadonlySignal<DevRoom[]>;
  readonly room: ReadonlySignal<DevRoom | null>;
  /** The theme the page and the app show: the setting, or the system's colour scheme while it is 'system'. */
  readonly theme: ReadonlySignal<'light' | 'dark'>;
  readonly app = signal<OpenApp | undefined>(undefined);
  readonly frame: Signal<HTMLIFrameElement | undefined>;
  readonly notice = signal({ text: '', kind: 'info' });
  readonly blocked: Signal<DevBlockedRequest[]>;
  readonly tab = signal<Tab>('Agent');
  readonly settings: SettingsActions;
  private running: { host: HostEndpoint; detach: () => void } | undefined;
  /**
   * The app was open when the person or the room changed to one it could not be opened for (the install step
   * cancelled, a tenant it is not offered to): it opens again on the next change to one it can be, as it would
   * have stayed open.
   */
  private following = false;
  private current: Launch = { room: null, params: {} };
  private launchedAs = { user: '', room: '' };
  private hello = 0;
  /** The upload in flight: the reload for the version served meanwhile waits for its answer. */
  private uploading: { version?: string } | undefined;
  /** What the last upload was answered with beyond its acceptance, for the version it concerns. */
  private uploadNote: { version: string; text: string } | undefined;

  constructor(
    readonly config: DevConfig,
    initial: DevState,
  ) {
    this.manifest = config.manifest;
    this.store = createStateStore(initial);
    this.blocked = signal(config.blocked);
    // No frame while the app is closed: an empty one would still be a titled frame in a screen reader's list.
    this.frame = signal<HTMLIFrameElement | undefined>(undefined);
    const { settings, users, rooms } = this.store.slices;
    this.me = computed(() => users.value.find((u) => u.id === settings.value.current_user_id));
    // A person sees the rooms of their own tenant only.
    this.myRooms = computed(() => rooms.value.filter((r) => r.members.includes(settings.value.current_user_id)));
    this.room = computed(() => this.myRooms.value.find((r) => r.id === settings.value.current_room_id) ?? null);
    this.theme = shownTheme(settings);
    // The open app follows the theme shown, whether the setting changed it or the system's colour scheme did.
    effect(() => {
      const theme = this.theme.value;
      this.running?.host.setTheme(theme);
    });
    // The open app's host, opening it first (in the current room) when it is closed.
    const appHost = async () => {
      if (!this.running) await this.open({ room: this.room.value, params: {} });
      return this.running?.host;
    };
    this.agent = createAgentPanel(this.manifest.actions ?? [], appHost, config.mcp);
    // An MCP call runs in the open app, or opens it in the current room first.
    this.mcp = mcpCalls(
      appHost,
      {
        show: (call) => this.agent.showMcp(call),
        mark: (label) => this.log.markVia(label),
      },
      this.manifest.actions ?? [],
    );
    this.log.onHeard(() => this.stopWaiting());
    this.settings = settingsActions(this);
  }

  /** A fresh frame (per launch: a new src differing in its fragment alone would not reload the app). */
  private newFrame(): HTMLIFrameElement {
    return Object.assign(document.createElement('iframe'), { title: this.config.manifest.name });
  }

  /** Shows a notice above the timeline (empty: none). */
  say(text: string, kind = 'info'): void {
    this.notice.value = { text, kind };
  }

  act<R extends ButtonRoute>(route: R, ...body: BodyOf<R>): Promise<DevState | undefined> {
    return (control as (route: R, ...body: BodyOf<R>) => Promise<DevState>)(route, ...body).then(
      (next) => {
        this.onState(next);
        return next;
      },
      (e: Error) => {
        toast(e.message, 'error');
        return undefined;
      },
    );
  }

  private stopWaiting(): void {
    clearTimeout(this.hello);
    this.hello = 0;
  }

  private stop(): void {
    this.stopWaiting();
    this.running?.host.close();
    this.running?.detach();
    this.running = undefined;
  }

  // An app that never speaks is usually an app without the client, or one that does not know this origin; but the
  // client says hello with the app's first call, so an app that waits for a click is silent too, and the warning
  // says so.
  private expectHello(): void {
    this.hello = window.setTimeout(() => {
      this.hello = 0;
      pageEvent({ type: 'no-hello', seconds: 10 });
      this.say(
        `${this.manifest.name} has not said hello 10 s after its launch. The client says it with the app's first call: if the app has made one, check that the page loads svc-sdk, and with --app-url that it carries <meta name="svc-host-origins" content="${location.origin}">.`,
        'warn',
      );
    }, 10_000);
  }

  private relaunch(launch: Launch): void {
    this.stop();
    this.expectHello();
    this.current = launch;
    const person = this.me.value?.display_name;
    this.launchedAs = { user: this.store.current().settings.current_user_id, room: launch.room?.id ?? '' };
    const place = launch.room ? `in ${roomLabel(launch.room)}` : 'from the home screen';
    this.app.value = { title: this.manifest.name, where: `Opened ${place} as ${person}` };
    this.log.mark(`Launch as ${person} ${place}`);
    pageEvent({ type: 'launch', user: person ?? '', room: place });
    const iframe = this.newFrame();
    this.frame.value = iframe;
    this.showInUrl(true);
    // The way out of an app that asks again and again: its sheets offer to close it (the page behind is inert).
    offerAppExit({
      label: `Close ${this.manifest.name}`,
      close: () => {
        this.close();
        setTimeout(() => document.querySelector<HTMLElement>('[data-testid=open-app]')?.focus());
      },
    });
    this.running = launchApp({
      config: this.config,
      state: this.store.current,
      theme: this.theme.value,
      iframe,
      launch,
      log: this.log,
      update: (next) => this.onState(next),
      answers: this.mcp.answers(
        uiAnswers(this.manifest.name, (id) => this.myRooms.value.some((room) => room.id === id), this.manifest.actions),
      ),
      ui: {
        toast,
        title: (title) => {
          if (this.app.value) this.app.value = { ...this.app.value, title };
        },
        external: (url) => toast(`Would open in the system browser: ${url}`),
        close: () => {
          // The app closed itself: focus in its frame would fall to the page's body, so it goes where the panel's
          // Close puts it. Focus elsewhere (the agent panel, a field) stays.
          const inApp = document.activeElement === this.frame.value || document.activeElement === document.body;
          this.close();
          if (inApp) document.querySelector<HTMLElement>('[data-testid=open-app]')?.focus();
        },
        share: (t, url) => toast(`Shared "${t}": ${url}`, 'success'),
        // An MCP call's progress shows in its row of the MCP call list, as the agent got it; the panel's own
        // invocations show theirs under the action.
        progress: (action, message) => {
          if (!this.mcp.progress(message)) this.agent.progress(action, message);
        },
      },
    });
  }

  /** Why the app cannot be opened for the person on screen now, or undefined. */
  private refusal(): string | undefined {
    const person = this.me.value;
    const { name } = this.manifest;
    if (person?.deprovisioned)
      return `${person.display_name} was removed from the tenant: ${name} cannot be opened for them.`;
    const notOffered = person && offeredTo(this.manifest, person.tenant_id);
    if (notOffered) return notOffered;
    const { version, version_revoked, store } = this.store.current();
    // The version revoked may be a published one while svc dev serves the folder's lower one (recheck48b F2).
    const revoked = store?.versions.find((v) => v.version === store.highest && v.revoked)?.version;
    const what =
      revoked && revoked !== version
        ? `Version ${revoked} of ${name} was revoked, and the revocation holds for the ${version} served now:`
        : `Version ${version} of ${name} was revoked:`;
    if (version_revoked)
      return `${what} it cannot be opened. Publish a higher version (svc publish, or Settings → Store), or reset to start again.`;
    return undefined;
  }

  /** The install step, for a person who has not installed the app: resolves whether it is installed now. */
  private async install(): Promise<boolean> {
    const { name } = this.manifest;
    this.closeFrame();
    const yes = await sheet<boolean>(
      'install-sheet',
      `Install ${name}?`,
      <>
        <p>{`${name} is not installed for ${this.me.value?.display_name}.`}</p>
        <p class="note">
          Installing sends installation.created to the backend; the app then asks for each permission when it needs it.
        </p>
      </>,
      [
        { label: 'Cancel', value: false, testid: 'install-cancel' },
        { label: 'Install', value: true, primary: true, testid: 'install-confirm' },
      ],
    );
    if (!yes || !(await this.act('POST /__svc/install', {}))) return false;
    this.say('');
    return true;
  }

  /**
   * Opens the app as a native client would: not for a person who left the tenant or a revoked version, and after
   * the install step when the person has not installed it. Resolves whether the app is open.
   */
  async open(launch: Launch): Promise<boolean> {
    const refused = this.refusal();
    if (refused) {
      this.say(refused, 'error');
      return false;
    }
    const { installations, settings } = this.store.current();
    const installed = installations.some((i) => i.user_id === settings.current_user_id && i.installed);
    if (!installed && !(await this.install())) return false;
    this.relaunch(launch);
    return true;
  }

  reload(): void {
    this.relaunch(this.current);
  }

  /** Closes the app, as the person does: it stays closed when they switch person or room. */
  close(): void {
    this.following = false;
    this.closeFrame();
  }

  private closeFrame(): void {
    offerAppExit(undefined);
    this.stop();
    this.frame.value = undefined;
    this.app.value = undefined;
    this.showInUrl(false);
  }

  /** Keeps the URL saying whether the app is open, so a reload shows the same (the token's query stays). */
  private showInUrl(open: boolean): void {
    const { pathname, search, hash } = location;
    if ((hash === APP_OPEN_FRAGMENT) !== open)
      history.replaceState(history.state, '', `${pathname}${search}${open ? APP_OPEN_FRAGMENT : ''}`);
  }

  openLink(link: string): void {
    const params = launchParamsOf(this.manifest.routes ?? [], link);
    if (params) void this.open({ room: this.room.value, params });
    // Quoted with escapes: a look-alike of a declared route must not read as the route itself.
    else toast(`${jsonQuote(link)} is not a declared route of the app.`, 'error');
  }

  /** A new state, from the event stream or from a control call's answer. */
  onState(next: DevState): void {
    const previous = this.store.current();
    // A control call's answer and the event stream race: a state is taken once, and never an older one.
    if (!isNewer(next, previous)) return;
    // A notification for the person on screen pops up as a toast, as the native clients' banners do.
    const known = new Set(previous.notifications.map((n) => n.id));
    for (const n of next.notifications)
      if (!known.has(n.id) && n.user_id === next.settings.current_user_id) toast(`🔔 ${n.title}: ${n.body}`);
    // A version the store accepted: the page takes its manifest and relaunches the app with it.
    if (next.version !== previous.version && next.store?.highest === next.version) {
      if (this.uploading) this.uploading.version = next.version;
      else this.reloadFor(next.version);
      return;
    }
    this.store.apply(next);
    // The last upload's outcome ("… is installed") is no longer so once its version is revoked.
    if (next.version_revoked && !previous.version_revoked) storeResult.value = '';
    // Another person is another app user, and another room another launch: relaunch there, as the native clients
    // do, so the app never posts into a room the person left.
    const moved =
      next.settings.current_user_id !== this.launchedAs.user || (this.room.value?.id ?? '') !== this.launchedAs.room;
    if ((this.running || this.following) && moved) {
      const here = { user: next.settings.current_user_id, room: this.room.value?.id ?? '' };
      void this.open({ room: this.room.value, params: {} }).then((opened) => {
        this.following = !opened;
        // Where it could not open: the next change away from here is the move to follow.
        if (!opened) this.launchedAs = here;
      });
    }
  }

  /**
   * As the page starts: says so after a reload for a version the store accepted, and opens the app in the current
   * room when the URL says it is open (it was open before the reload, or it is the URL svc dev printed).
   */
  resume(): void {
    const updated = sessionStorage.getItem(UPDATED);
    const note = sessionStorage.getItem(UPDATED_NOTE);
    sessionStorage.removeItem(UPDATED);
    sessionStorage.removeItem(UPDATED_NOTE);
    if (updated) {
      const said = `${this.manifest.name} ${updated} is installed: the store accepted it.`;
      this.backToUpload(said);
    }
    // A toast goes in seconds: what the publisher must act on stays above the timeline (after the launch clears it).
    const warn = () =>
      updated &&
      note &&
      this.say(`${this.manifest.name} ${updated} is installed. The store also said: ${note}`, 'warn');
    if (location.hash !== APP_OPEN_FRAGMENT) return void warn();
    void this.open({ room: this.room.value, params: {} }).then((open) => {
      if (!open) this.showInUrl(false);
      warn();
    });
  }

  /**
   * Uploads a package to the store, as the settings' upload does. A version accepted reloads the page, once the
   * answer is in: a warning it carries (the backend's env file not rewritten), or a save that failed after the
   * version was served, is said after the reload instead of lost with the page.
   */
  async upload(bytes: ArrayBuffer): Promise<{ version: string; warning?: string }> {
    const upload: { version?: string } = {};
    this.uploading = upload;
    this.uploadNote = undefined;
    try {
      const accepted = await uploadPackage(bytes);
      // The answer may come before or after the state that reloads the page: the note waits for either.
      if (accepted.warning) this.uploadNote = { version: accepted.version, text: accepted.warning };
      return accepted;
    } catch (error) {
      // Refused (nothing served), or served and then not saved: only the second reloads, and says why after it.
      if (upload.version) this.uploadNote = { version: upload.version, text: (error as Error).message };
      throw error;
    } finally {
      this.uploading = undefined;
      // The upload's own field takes the focus back: the person chose a file there.
      if (upload.version) this.reloadFor(upload.version, 'store-upload');
    }
  }

  /**
   * After the reload for a version: the tab shown before it is shown again and, once the page is drawn, the store's
   * status says what came of the upload (read out, as it changes after the page is there) and, from the settings, the
   * upload takes the focus: where a keyboard left it, not the page's start.
   */
  private backToUpload(said: string): void {
    const tab = sessionStorage.getItem(UPDATED_TAB) as Tab | null;
    const focused = sessionStorage.getItem(UPDATED_FOCUS);
    const fields = JSON.parse(sessionStorage.getItem(UPDATED_FIELDS) ?? '[]') as [string, string | boolean][];
    sessionStorage.removeItem(UPDATED_TAB);
    sessionStorage.removeItem(UPDATED_FOCUS);
    sessionStorage.removeItem(UPDATED_FIELDS);
    if (tab && TABS.includes(tab)) this.tab.value = tab;
    // The focus once the page is drawn; the news a moment later, into live regions a screen reader has taken in by
    // then (one filled on the first render, or at once after, is not read out).
    setTimeout(() => {
      refill(fields);
      const again = focused ? document.querySelector<HTMLElement>(`[data-testid="${CSS.escape(focused)}"]`) : null;
      (
        again ?? (tab === 'Settings' ? document.querySelector<HTMLElement>('[data-testid=store-upload]') : null)
      )?.focus();
    });
    setTimeout(() => {
      storeResult.value = said;
      toast(said);
    }, 300);
  }

  /**
   * Reloads the page for a version the store accepted; the new page says so, and what its upload added, fills in what
   * was typed in its fields, and puts the focus back on `focus` (a test id), else on the control that had it.
   */
  private reloadFor(version: string, focus?: string): void {
    sessionStorage.setItem(UPDATED, version);
    sessionStorage.setItem(UPDATED_TAB, this.tab.value);
    // The control a keyboard was on, found again by its test id on the new page (a field's typed text is not kept).
    const focused = focus ?? (document.activeElement as HTMLElement | null)?.dataset?.testid;
    if (focused) sessionStorage.setItem(UPDATED_FOCUS, focused);
    sessionStorage.setItem(UPDATED_FIELDS, JSON.stringify(typedFields()));
    if (this.uploadNote?.version === version) sessionStorage.setItem(UPDATED_NOTE, this.uploadNote.text);
    location.reload();
  }
}
