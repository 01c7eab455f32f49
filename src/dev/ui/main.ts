// The simulated messenger page: rooms with a timeline, the home grid, the mini app in a cross-origin iframe on the
// rule engine of svc-sdk/host, every prompt as a sheet, an agent panel, the call log, webhooks, notifications and
// settings. Everything it changes goes through the platform's control API.
import type { HostEndpoint } from '../../host';
import type { ChangeRoute, ControlRoutes, DevConfig, DevRoom, DevState } from '../devContract';
import { agentPanel } from './agentPanel';
import { control, follow, loadConfig } from './api';
import { launchApp } from './appHost';
import { createCallLog } from './callLog';
import { fill, h } from './dom';
import { renderDeliveries, renderNotifications, renderSettings } from './panels';
import { matchRoute } from './matchRoute';
import { mcpCalls } from './mcpCalls';
import { STYLES } from './styles';

const root = document.getElementById('messenger')!;
document.head.append(h('style', {}, STYLES));
const toasts = h('div', { class: 'toasts', 'data-testid': 'toasts' });
const toast = (message: string, kind = 'info') => {
  const el = h('div', { class: `toast ${kind}`, 'data-testid': 'toast' }, message);
  toasts.append(el);
  setTimeout(() => el.remove(), 6000);
};

async function start(): Promise<void> {
  const config: DevConfig = await loadConfig();
  let state: DevState = await control('GET /__svc/state');
  const manifest = config.manifest as { name: string; actions?: never[]; routes?: { path: string; title: string }[] };
  const log = createCallLog();
  let app: { host: HostEndpoint; detach: () => void } | undefined;
  let launchedAs = '';
  // A settings button: the answer is the new state, applied at once (the event stream brings it too).
  const act = <R extends ChangeRoute>(route: R, body: ControlRoutes[R]['request']) =>
    void control<ChangeRoute>(route, body).then(
      (next) => onState(next),
      (e: Error) => toast(e.message, 'error'),
    );

  const side = h('nav', { class: 'side' });
  const main = h('section', { class: 'main' });
  const title = h('strong', { 'data-testid': 'app-title' }, manifest.name);
  // A fresh frame per launch: setting a new src that differs only in its fragment would not reload the app.
  const newFrame = () => h('iframe', { title: manifest.name, 'data-testid': 'app-frame' });
  let iframe = newFrame();
  const panel = h('section', { class: 'app', 'data-testid': 'app-panel' });
  const tools = h('aside', { class: 'tools' });
  const shell = h('div', { class: 'shell closed' }, side, main, panel, tools);
  const agent = agentPanel(manifest.actions ?? [], () => app?.host);
  // An MCP call runs in the open app, or opens it in the current room first.
  const mcp = mcpCalls(
    () => {
      if (!app) relaunch({ room: room(), params: {} });
      return app!.host;
    },
    { show: (call) => agent.showMcp(call), mark: (label) => log.mark(label) },
  );
  const tabs: Record<string, HTMLElement> = {
    Agent: agent.element,
    Calls: log.element,
    Webhooks: h('div', { 'data-testid': 'deliveries' }),
    Notifications: h('div', { 'data-testid': 'notifications' }),
    Settings: h('div', { 'data-testid': 'settings' }),
  };
  let tab = 'Agent';
  fill(root, shell, toasts);
  fill(
    panel,
    h(
      'header',
      {},
      title,
      h('button', { 'data-testid': 'app-reload', onclick: () => relaunch(currentLaunch) }, 'Reload'),
      h('button', { 'data-testid': 'app-close', onclick: () => closeApp() }, 'Close'),
    ),
    iframe,
  );

  const room = (): DevRoom | null => state.rooms.find((r) => r.id == state.settings.current_room_id) ?? null;
  let currentLaunch: { room: DevRoom | null; params: Record<string, string> } = { room: null, params: {} };
  function relaunch(launch: typeof currentLaunch): void {
    app?.host.close();
    app?.detach();
    currentLaunch = launch;
    launchedAs = state.settings.current_user_id;
    shell.classList.remove('closed');
    title.textContent = manifest.name;
    const frame = newFrame();
    iframe.replaceWith(frame);
    iframe = frame;
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
        progress: (action, message) => {
          agent.progress(action, message);
          mcp.progress(message);
        },
      },
      onState,
      (base) => mcp.answers(base),
    );
  }
  function closeApp(): void {
    app?.host.close();
    app?.detach();
    app = undefined;
    const frame = newFrame();
    iframe.replaceWith(frame);
    iframe = frame;
    shell.classList.add('closed');
  }
  const openLink = (link: string) => {
    const params = matchRoute(manifest.routes ?? [], link);
    if (!params) return toast(`${link} is not a declared route of the app.`, 'error');
    relaunch({ room: room(), params });
  };

  const showTab = (name: string) => {
    tab = name;
    render();
  };

  function render(): void {
    document.body.classList.toggle('dark', state.settings.theme == 'dark');
    const current = room();
    fill(
      side,
      h(
        'button',
        {
          class: `room ${current ? '' : 'current'}`,
          'data-testid': 'home',
          onclick: () => act('PATCH /__svc/settings', { current_room_id: '' }),
        },
        '⌂ Home',
      ),
      h('h2', {}, 'Rooms'),
      ...state.rooms.map((r) =>
        h(
          'button',
          {
            class: `room ${r.id == current?.id ? 'current' : ''}`,
            'data-testid': `room-${r.id}`,
            onclick: () => act('PATCH /__svc/settings', { current_room_id: r.id }),
          },
          `${r.is_encrypted ? '[e2ee] ' : '# '}${r.name}`,
        ),
      ),
      h('h2', {}, 'Signed in as'),
      h('div', {}, state.users.find((u) => u.id == state.settings.current_user_id)?.display_name ?? ''),
    );
    const open = h(
      'button',
      { class: 'primary', 'data-testid': 'open-app', onclick: () => relaunch({ room: room(), params: {} }) },
      `Open ${manifest.name}`,
    );
    fill(
      main,
      h(
        'header',
        {},
        h(
          'h1',
          { 'data-testid': 'room-title' },
          current ? `${current.is_encrypted ? '[e2ee]' : '#'} ${current.name}` : 'Home',
        ),
        open,
      ),
      current
        ? h(
            'div',
            { class: 'timeline', 'data-testid': 'timeline' },
            current.timeline.length ? null : h('p', { class: 'note' }, 'No message yet.'),
            ...current.timeline.map((e) =>
              e.kind == 'card'
                ? h(
                    'div',
                    { class: 'msg card', 'data-testid': 'card' },
                    h('small', {}, `${manifest.name} · ${e.at.slice(11, 16)}`),
                    h('strong', {}, e.card.title),
                    e.card.body,
                    h(
                      'div',
                      { class: 'row' },
                      ...e.card.actions.map((a) => h('button', { onclick: () => openLink(a.deep_link) }, a.label)),
                    ),
                  )
                : h(
                    'div',
                    { class: 'msg', 'data-testid': 'message' },
                    h('small', {}, `${e.sender}${e.via_app ? ` via ${manifest.name}` : ''}`),
                    e.text,
                  ),
            ),
          )
        : h(
            'div',
            { class: 'grid', 'data-testid': 'home-grid' },
            h('button', { class: 'tile', onclick: () => relaunch({ room: null, params: {} }) }, manifest.name),
          ),
    );
    fill(
      tools,
      h(
        'div',
        { class: 'tabs' },
        ...Object.keys(tabs).map((name) =>
          h(
            'button',
            { class: name == tab ? 'on' : '', 'data-testid': `tab-${name}`, onclick: () => showTab(name) },
            name,
          ),
        ),
      ),
      tabs[tab]!,
    );
    renderSettings(tabs.Settings!, state, config, act);
    renderDeliveries(tabs.Webhooks!, state, config.blocked, act);
    renderNotifications(tabs.Notifications!, state, openLink);
  }

  // A new state, from the event stream or from a control call's answer.
  function onState(next: DevState): void {
    // A control call's answer and the event stream race: never go back to an older state.
    if ((next.revision ?? 0) < (state.revision ?? 0)) return;
    const theme = next.settings.theme != state.settings.theme;
    state = next;
    if (theme) app?.host.setTheme(next.settings.theme);
    // Another person is another app user: relaunch as them, as switching accounts would.
    if (app && next.settings.current_user_id != launchedAs) relaunch({ room: room(), params: {} });
    render();
  }
  follow(
    onState,
    (request) => {
      config.blocked.push(request);
      toast(`Blocked: ${request.advice}`, 'error');
      render();
    },
    { 'mcp-invoke': (call) => void mcp.invoke(call), 'mcp-cancel': ({ id }) => mcp.cancel(id) },
  );
  render();
}

start().catch((error: Error) =>
  fill(root, h('p', { class: 'err' }, `The messenger could not start: ${error.message}`)),
);
