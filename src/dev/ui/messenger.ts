// The simulated messenger page: rooms with a timeline, the home grid, the mini app in a cross-origin iframe on the
// rule engine of svc-sdk/host, every prompt as a sheet, an agent panel, the call log, webhooks, notifications and
// settings. Everything it changes goes through the platform's control API.
import type { HostEndpoint } from '../../host';
import type { DevConfig, DevRoom, DevState } from '../devContract';
import { agentPanel } from './agentPanel';
import { control, follow, loadConfig, pageEvent } from './api';
import { forgetPageState, launchApp } from './appHost';
import { createCallLog } from './callLog';
import { cardView } from './cardView';
import { type Child, fill, h } from './dom';
import { matchRoute } from './matchRoute';
import { mcpCalls } from './mcpCalls';
import {
  type BodyOf,
  type ButtonRoute,
  renderBlocked,
  renderDeliveries,
  renderNotifications,
  renderSettings,
  type SettingsActions,
} from './panels';
import { sheet } from './sheet';
import { STYLES } from './styles';
import { offeredTo } from '../store/offeredTo';
import type { Manifest } from '../../manifest';

const root = document.getElementById('messenger')!;
document.head.append(h('style', {}, STYLES));
const toasts = h('div', { class: 'toasts', role: 'status', 'data-testid': 'toasts' });
const toast = (message: string, kind = 'info') => {
  const el = h('div', { class: `toast ${kind}`, 'data-testid': 'toast' }, message);
  toasts.append(el);
  setTimeout(() => el.remove(), 6000);
};

/**
 * Renders `build()` into `el` only when `key` differs from the last render's: a state event that does not touch a
 * region leaves its elements (an open `<select>`, a focused field, the scroll position) as they are.
 */
const keys = new WeakMap<Element, string>();
/** Set before the page reloads for a version the store accepted: whether the app was open (it reopens). */
const RELAUNCH = 'svc-dev-relaunch';
function region(el: HTMLElement, key: unknown, build: () => Child[]): void {
  const text = JSON.stringify(key);
  if (keys.get(el) === text) return;
  keys.set(el, text);
  const top = el.scrollTop;
  const atEnd = el.scrollHeight - el.clientHeight - top < 4;
  fill(el, ...build());
  el.scrollTop = atEnd && el.dataset.follow ? el.scrollHeight : top;
}

const roomLabel = (room: DevRoom | null) => (room ? `${room.is_encrypted ? '[e2ee]' : '#'} ${room.name}` : 'Home');

/**
 * The home tile's picture: the manifest's icon nearest 96 px (the tile shows it at 48 px, sharp on a 2x screen),
 * from the app's own origin. Decorative: the tile's name is its label.
 */
function tileIcon(icons: { src: string; sizes: string }[] | undefined, appUrl: string) {
  const width = (icon: { sizes: string }) => Number(icon.sizes.split('x')[0]) || 0;
  const best = [...(icons ?? [])].sort((a, b) => Math.abs(width(a) - 96) - Math.abs(width(b) - 96))[0];
  if (!best || !appUrl) return null;
  return h('img', {
    src: new URL(best.src, appUrl).href,
    alt: '',
    width: '48',
    height: '48',
    'data-testid': 'tile-icon',
  });
}

async function start(): Promise<void> {
  const config: DevConfig = await loadConfig();
  let state: DevState = await control('GET /__svc/state');
  const manifest = config.manifest as {
    name: string;
    short_name?: string;
    version?: string;
    actions?: never[];
    routes?: { path: string; title: string }[];
    icons?: { src: string; sizes: string }[];
  };
  const log = createCallLog();
  let app: { host: HostEndpoint; detach: () => void } | undefined;
  // A settings button: the answer is the new state, applied at once (the event stream brings it too).
  const act = <R extends ButtonRoute>(route: R, ...body: BodyOf<R>): Promise<DevState | undefined> =>
    (control as (route: R, ...body: BodyOf<R>) => Promise<DevState>)(route, ...body).then(
      (next) => {
        onState(next);
        return next;
      },
      (e: Error) => {
        toast(e.message, 'error');
        return undefined;
      },
    );

  const side = h('nav', { class: 'side', 'aria-label': 'Rooms' });
  const mainHeader = h('header', {});
  const notice = h('div', { class: 'notice', role: 'status', 'data-testid': 'notice', hidden: true });
  const timeline = h('div', { class: 'timeline-box', 'data-follow': '1' });
  const main = h('section', { class: 'main', 'aria-label': 'Room' }, mainHeader, notice, timeline);
  const title = h('strong', { 'data-testid': 'app-title' }, manifest.name);
  const where = h('div', { class: 'note', 'data-testid': 'app-where' });
  // A fresh frame per launch: setting a new src that differs only in its fragment would not reload the app.
  const newFrame = () => h('iframe', { title: manifest.name, 'data-testid': 'app-frame' });
  let iframe = newFrame();
  const panel = h('section', { class: 'app', 'aria-label': manifest.name, 'data-testid': 'app-panel' });
  const tools = h('aside', { class: 'tools', 'aria-label': 'Developer tools' });
  const tabBar = h('div', { class: 'tabs', role: 'tablist' });
  const tabBody = h('div', { role: 'tabpanel' });
  const shell = h('div', { class: 'shell closed' }, side, main, panel, tools);
  panel.inert = true;
  // The open app's host, opening it first (in the current room) when it is closed.
  const appHost = async () => {
    if (!app) await open({ room: room(), params: {} });
    return app?.host;
  };
  const agent = agentPanel(manifest.actions ?? [], appHost, config.mcp);
  // An MCP call runs in the open app, or opens it in the current room first.
  const mcp = mcpCalls(appHost, { show: (call) => agent.showMcp(call), mark: (label) => log.markVia(label) });
  const tabs: Record<string, HTMLElement> = {
    Agent: agent.element,
    Calls: log.element,
    Webhooks: h('div', { 'data-testid': 'deliveries' }),
    Blocked: h('div', { 'data-testid': 'blocked-requests' }),
    Notifications: h('div', { 'data-testid': 'notifications' }),
    Settings: h('div', { 'data-testid': 'settings' }),
  };
  let tab = 'Agent';
  fill(root, shell, toasts);
  fill(tools, tabBar, tabBody);
  fill(
    panel,
    h(
      'header',
      {},
      h('div', { class: 'grow' }, title, where),
      h('button', { 'data-testid': 'app-reload', onclick: () => relaunch(currentLaunch) }, 'Reload'),
      h('button', { 'data-testid': 'app-close', onclick: () => closeApp() }, 'Close'),
    ),
    iframe,
  );

  const me = () => state.users.find((u) => u.id === state.settings.current_user_id);
  // A person sees the rooms of their own tenant only.
  const myRooms = () => state.rooms.filter((r) => r.members.includes(state.settings.current_user_id));
  const room = (): DevRoom | null => myRooms().find((r) => r.id === state.settings.current_room_id) ?? null;
  const installed = () => state.installations.some((i) => i.user_id === state.settings.current_user_id && i.installed);
  let currentLaunch: { room: DevRoom | null; params: Record<string, string> } = { room: null, params: {} };
  let launchedAs = { user: '', room: '' };
  const say = (text: string, kind = 'info') => {
    notice.hidden = !text;
    notice.className = `notice ${kind}`;
    notice.textContent = text;
  };

  let hello = 0;
  log.onHeard(() => {
    if (!hello) return;
    clearTimeout(hello);
    hello = 0;
  });
  function relaunch(launch: typeof currentLaunch): void {
    // An app that never speaks is usually an app without the client, or one that does not know this origin.
    clearTimeout(hello);
    hello = window.setTimeout(() => {
      hello = 0;
      pageEvent({ type: 'no-hello', seconds: 10 });
      say(
        `${manifest.name} has not said hello 10 s after its launch: check that the page loads svc-sdk, and with --app-url that it carries <meta name="svc-host-origins" content="${location.origin}">.`,
        'warn',
      );
    }, 10_000);
    app?.host.close();
    app?.detach();
    currentLaunch = launch;
    launchedAs = { user: state.settings.current_user_id, room: launch.room?.id ?? '' };
    shell.classList.remove('closed');
    panel.inert = false;
    title.textContent = manifest.name;
    where.textContent = `Opened ${launch.room ? `in ${roomLabel(launch.room)}` : 'from the home screen'} as ${me()?.display_name}`;
    const frame = newFrame();
    iframe.replaceWith(frame);
    iframe = frame;
    const place = launch.room ? `in ${roomLabel(launch.room)}` : 'from the home screen';
    log.mark(`Launch as ${me()?.display_name} ${place}`);
    pageEvent({ type: 'launch', user: me()?.display_name ?? '', room: place });
    app = launchApp(
      config,
      () => state,
      iframe,
      launch,
      log,
      {
        toast,
        title: (t) => (title.textContent = t),
        external: (url) => toast(`Would open in the system browser: ${url}`),
        close: () => closeApp(),
        share: (t, url) => toast(`Shared "${t}": ${url}`, 'success'),
        // An MCP call's progress shows in its row of the MCP call list, as the agent got it; the panel's own
        // invocations show theirs under the action.
        progress: (action, message) => {
          if (!mcp.progress(message)) agent.progress(action, message);
        },
      },
      onState,
      (base) => mcp.answers(base),
    );
  }

  /**
   * Opens the app as a native client would: not for a person who left the tenant or a revoked version, and after
   * the install step when the person has not installed it. Resolves whether the app is open.
   */
  async function open(launch: typeof currentLaunch): Promise<boolean> {
    const person = me();
    if (person?.deprovisioned) {
      say(`${person.display_name} was removed from the tenant: ${manifest.name} cannot be opened for them.`, 'error');
      return false;
    }
    const notOffered = person && offeredTo(config.manifest as unknown as Manifest, person.tenant_id);
    if (notOffered) {
      say(notOffered, 'error');
      return false;
    }
    if (state.version_revoked) {
      say(
        `Version ${state.version} of ${manifest.name} was revoked: it cannot be opened. Reset to start again.`,
        'error',
      );
      return false;
    }
    if (!installed()) {
      closeApp();
      const install = await sheet<boolean>(
        'install-sheet',
        `Install ${manifest.name}?`,
        [
          h('p', {}, `${manifest.name} is not installed for ${person?.display_name}.`),
          h(
            'p',
            { class: 'note' },
            'Installing sends installation.created to the backend; the app then asks for each permission when it needs it.',
          ),
        ],
        [
          { label: 'Cancel', value: false, testid: 'install-cancel' },
          { label: 'Install', value: true, primary: true, testid: 'install-confirm' },
        ],
      );
      if (!install || !(await act('POST /__svc/install', {}))) return false;
      say('');
    }
    relaunch(launch);
    return true;
  }

  function closeApp(): void {
    clearTimeout(hello);
    hello = 0;
    app?.host.close();
    app?.detach();
    app = undefined;
    const frame = newFrame();
    iframe.replaceWith(frame);
    iframe = frame;
    shell.classList.add('closed');
    // A closed panel has no width: its buttons must not take the focus either.
    panel.inert = true;
  }
  const openLink = (link: string) => {
    const params = matchRoute(manifest.routes ?? [], link);
    if (!params) return toast(`${link} is not a declared route of the app.`, 'error');
    void open({ room: room(), params });
  };

  /** An administrator or person action that changes what the app may do: confirmed first, explained after. */
  const confirmed = async (
    testid: string,
    question: string,
    consequence: string,
    label: string,
    run: () => Promise<DevState | undefined>,
    after: string,
  ) => {
    const yes = await sheet<boolean>(
      testid,
      question,
      [h('p', {}, consequence)],
      [
        { label: 'Cancel', value: false, testid: `${testid}-no` },
        { label, value: true, danger: true, testid: `${testid}-yes` },
      ],
    );
    if (!yes || !(await run())) return;
    closeApp();
    say(after, 'warn');
  };
  const settingsActions: SettingsActions = {
    act: (route, ...body) => void act(route, ...body),
    uninstall: () => {
      const who = me()?.display_name;
      return confirmed(
        'uninstall-sheet',
        `Uninstall ${manifest.name} for ${who}?`,
        `The app closes. Its backend receives installation.deleted; from now on the identity provider refuses ${who}'s tokens, so auth.getToken fails in the app.`,
        'Uninstall',
        () => act('POST /__svc/uninstall', {}),
        `${manifest.name} was uninstalled for ${who} and closed; the backend was sent installation.deleted. Opening it again offers to install it.`,
      );
    },
    deprovision: () => {
      const person = me();
      const tenant = state.tenants.find((t) => t.id === person?.tenant_id)?.name;
      return confirmed(
        'deprovision-sheet',
        `Remove ${person?.display_name} from ${tenant}?`,
        `${person?.display_name} leaves the organisation: the app closes, every token exchange for them is refused, and the backend receives user.deprovisioned and must delete their data. Only a reset brings them back.`,
        'Remove',
        () => act('POST /__svc/deprovision', {}),
        `${person?.display_name} was removed from ${tenant}: ${manifest.name} was closed and cannot be opened for them; the backend was sent user.deprovisioned.`,
      );
    },
    revokeVersion: () =>
      confirmed(
        'revoke-version-sheet',
        `Revoke version ${state.version} of ${manifest.name}?`,
        'For everyone: the app closes, the identity provider refuses its tokens (auth.getToken fails), the server API answers 409 version-revoked, and the backend receives app.revoked. Only a reset undoes it.',
        'Revoke',
        () => act('POST /__svc/revoke-version', { reason: 'revoked in svc dev' }),
        `Version ${state.version} was revoked: ${manifest.name} was closed; its tokens are refused and the server API answers 409 version-revoked. The backend was sent app.revoked.`,
      ),
    reset: async () => {
      const yes = await sheet<boolean>(
        'reset-sheet',
        'Reset to a fresh state?',
        [
          h(
            'p',
            {},
            'Back to the first launch: Alice and Bob in Acme, Carol in Globex, the app installed for Alice and Carol, nothing granted, no messages, cards, notifications or deliveries.',
          ),
          h(
            'p',
            { class: 'note' },
            config.statePath ? `The state file ${config.statePath} is rewritten.` : 'The state lives in memory only.',
          ),
        ],
        [
          { label: 'Cancel', value: false, testid: 'reset-no' },
          { label: 'Reset', value: true, danger: true, testid: 'reset-yes' },
        ],
      );
      if (!yes) return;
      closeApp();
      forgetPageState();
      agent.clear();
      if (await act('POST /__svc/reset', {})) say('Fresh state: every change was undone.', 'info');
    },
  };

  const showTab = (name: string) => {
    tab = name;
    renderTabs();
  };
  function renderTabs(): void {
    const unread = state.notifications.filter((n) => n.user_id === state.settings.current_user_id && !n.read).length;
    const count = (name: string) =>
      name === 'Notifications' && unread
        ? h('span', { class: 'badge', 'data-testid': 'unread', 'aria-label': `${unread} unread` }, String(unread))
        : name === 'Blocked' && config.blocked.length
          ? h(
              'span',
              { class: 'badge', 'aria-label': `${config.blocked.length} blocked` },
              String(config.blocked.length),
            )
          : null;
    region(tabBar, [tab, unread, config.blocked.length], () =>
      Object.keys(tabs).map((name) =>
        h(
          'button',
          {
            role: 'tab',
            'aria-selected': String(name === tab),
            class: name === tab ? 'on' : '',
            'data-testid': `tab-${name}`,
            onclick: () => showTab(name),
          },
          name,
          count(name),
        ),
      ),
    );
    if (tabBody.firstChild !== tabs[tab]) fill(tabBody, tabs[tab]!);
  }

  function render(): void {
    document.body.classList.toggle('dark', state.settings.theme === 'dark');
    const current = room();
    const rooms = myRooms();
    const person = me();
    region(side, [rooms.map((r) => [r.id, r.name, r.is_encrypted]), current?.id, person], () => [
      h(
        'button',
        {
          class: `room ${current ? '' : 'current'}`,
          'aria-current': current ? undefined : 'page',
          'data-testid': 'home',
          onclick: () => void act('PATCH /__svc/settings', { current_room_id: '' }),
        },
        '⌂ Home',
      ),
      h('h2', {}, `Rooms of ${state.tenants.find((t) => t.id === person?.tenant_id)?.name ?? ''}`),
      ...rooms.map((r) =>
        h(
          'button',
          {
            class: `room ${r.id === current?.id ? 'current' : ''}`,
            'aria-current': r.id === current?.id ? 'page' : undefined,
            'data-testid': `room-${r.id}`,
            onclick: () => void act('PATCH /__svc/settings', { current_room_id: r.id }),
          },
          roomLabel(r),
        ),
      ),
      h('h2', {}, 'Signed in as'),
      h('div', { 'data-testid': 'signed-in' }, person?.display_name ?? ''),
    ]);
    region(mainHeader, [current?.id, current?.name], () => [
      h('h1', { 'data-testid': 'room-title' }, roomLabel(current)),
      h(
        'button',
        { class: 'primary', 'data-testid': 'open-app', onclick: () => void open({ room: room(), params: {} }) },
        `Open ${manifest.name}`,
      ),
    ]);
    const name = (id: string) => state.users.find((u) => u.id === id)?.display_name ?? id;
    region(timeline, [current?.id ?? '', current?.timeline ?? [], state.users], () =>
      current
        ? [
            h(
              'div',
              { class: 'timeline', 'data-testid': 'timeline' },
              current.timeline.length ? null : h('p', { class: 'note' }, 'No message yet.'),
              ...current.timeline.map((e) =>
                e.kind === 'card'
                  ? cardView(e.card, `${manifest.name} · ${e.at.slice(11, 16)}`, openLink, 'card')
                  : h(
                      'div',
                      { class: 'msg', 'data-testid': 'message' },
                      h(
                        'small',
                        {},
                        `${name(e.sender)}${e.via_app ? ` via ${manifest.name}` : ''} · ${e.at.slice(11, 16)}`,
                      ),
                      e.text,
                      // A card sent from the person's own client: shown as a card, with its actions.
                      e.card ? cardView(e.card, '', openLink, 'message-card') : null,
                    ),
              ),
            ),
          ]
        : [
            h(
              'div',
              { class: 'grid', 'data-testid': 'home-grid' },
              h(
                'button',
                { class: 'tile', 'data-testid': 'home-tile', onclick: () => void open({ room: null, params: {} }) },
                tileIcon(manifest.icons, config.appUrl),
                manifest.short_name ?? manifest.name,
              ),
            ),
          ],
    );
    renderTabs();
    renderSettings(tabs.Settings!, state, config, settingsActions, region);
    renderDeliveries(tabs.Webhooks!, state, settingsActions.act, region);
    renderBlocked(tabs.Blocked!, config.blocked, region);
    renderNotifications(tabs.Notifications!, state, openLink, region);
  }

  // A new state, from the event stream or from a control call's answer.
  function onState(next: DevState): void {
    // A control call's answer and the event stream race: never go back to an older state.
    if ((next.revision ?? 0) < (state.revision ?? 0)) return;
    const theme = next.settings.theme !== state.settings.theme;
    // A notification for the person on screen pops up as a toast, as the native clients' banners do.
    const known = new Set(state.notifications.map((n) => n.id));
    for (const n of next.notifications)
      if (!known.has(n.id) && n.user_id === next.settings.current_user_id) toast(`🔔 ${n.title}: ${n.body}`);
    // A version the store accepted: the page takes its manifest and relaunches the app with it (relaunchAfterUpdate).
    if (next.version !== state.version && next.store?.highest === next.version) {
      sessionStorage.setItem(RELAUNCH, app ? 'open' : 'closed');
      location.reload();
      return;
    }
    state = next;
    if (theme) app?.host.setTheme(next.settings.theme);
    // Another person is another app user, and another room another launch: relaunch there, as the native clients
    // do, so the app never posts into a room the person left.
    const moved = next.settings.current_user_id !== launchedAs.user || (room()?.id ?? '') !== launchedAs.room;
    if (app && moved) void open({ room: room(), params: {} });
    render();
  }
  const banner = h('div', { class: 'banner', role: 'alert', 'data-testid': 'connection', hidden: true });
  document.body.prepend(banner);
  follow(
    onState,
    (request) => {
      config.blocked.push(request);
      toast(`Blocked: ${request.advice}`, 'error');
      render();
    },
    (connection) => {
      banner.hidden = connection === 'open';
      banner.textContent =
        connection === 'retrying'
          ? 'Disconnected from svc dev: is it still running? Reconnecting as soon as it is back…'
          : 'svc dev was restarted: this page belongs to the previous run. Open the URL svc dev printed (it carries the new launch token).';
    },
    {
      'mcp-invoke': (call) => void mcp.invoke(call),
      'mcp-cancel': ({ id }) => mcp.cancel(id),
      // manifest.json changed: the page, its host and the app start again from the new one.
      manifest: () => location.reload(),
    },
  );
  render();
  const relaunchAfterUpdate = sessionStorage.getItem(RELAUNCH);
  sessionStorage.removeItem(RELAUNCH);
  if (relaunchAfterUpdate) {
    toast(`${manifest.name} ${state.version} is installed: the store accepted it.`);
    if (relaunchAfterUpdate === 'open') void open({ room: room(), params: {} });
  }
}

start().catch((error: Error) =>
  fill(root, h('p', { class: 'err' }, `The messenger could not start: ${error.message}`)),
);
