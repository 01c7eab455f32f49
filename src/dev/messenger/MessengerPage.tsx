import { useLayoutEffect, useRef } from 'preact/hooks';
import { AgentPanel } from './createAgentPanel';
import { BlockedPanel } from './BlockedPanel';
import { CallLog } from './createCallLog';
import { DeliveriesPanel } from './DeliveriesPanel';
import { type Messenger, TABS, type Tab } from './Messenger';
import { NotificationsPanel } from './NotificationsPanel';
import { RoomView } from './RoomView';
import { roomLabel } from './MessengerModel';
import { SettingsPanel } from './SettingsPanel';

/** The rooms of the person's tenant, the home screen, and who is signed in. */
function RoomList({ m }: { m: Messenger }) {
  const current = m.room.value;
  const person = m.me.value;
  const tenant = m.store.slices.tenants.value.find((t) => t.id === person?.tenant_id)?.name ?? '';
  const go = (id: string) => void m.act('PATCH /__svc/settings', { current_room_id: id });
  return (
    <nav class="side" aria-label="Rooms">
      <button
        type="button"
        class={`room ${current ? '' : 'current'}`}
        aria-current={current ? undefined : 'page'}
        data-testid="home"
        onClick={() => go('')}
      >
        {/* The house is a picture: a screen reader reads the button as "Home". */}
        <span aria-hidden="true">⌂</span> Home
      </button>
      <h2>{`Rooms of ${tenant}`}</h2>
      {m.myRooms.value.map((r) => (
        <button
          type="button"
          key={r.id}
          class={`room ${r.id === current?.id ? 'current' : ''}`}
          aria-current={r.id === current?.id ? 'page' : undefined}
          data-testid={`room-${r.id}`}
          onClick={() => go(r.id)}
        >
          {roomLabel(r)}
        </button>
      ))}
      <h2>Signed in as</h2>
      <div data-testid="signed-in">{person?.display_name ?? ''}</div>
    </nav>
  );
}

/** The app's frame, made outside the components (its launch attaches the host to it before it loads). */
function Frame({ frame }: { frame: HTMLIFrameElement | undefined }) {
  const slot = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (frame) frame.dataset.testid = 'app-frame';
    slot.current!.replaceChildren(...(frame ? [frame] : []));
  }, [frame]);
  return <div class="frame" ref={slot} />;
}

/** Closes the app; the focus, which was on Close (inert now), goes to the button that opens it again. */
function closeApp(m: Messenger): void {
  m.close();
  document.querySelector<HTMLElement>('[data-testid=open-app]')?.focus();
}

/** The open app: its title, where it was opened, Reload and Close, and its frame. Closed: no width, and inert. */
function AppPanel({ m }: { m: Messenger }) {
  const app = m.app.value;
  // Which version runs: the folder's or one published to the local store, which svc dev serves once accepted.
  const version = m.store.slices.version.value;
  const revoked = m.store.slices.version_revoked.value;
  return (
    <section class="app" aria-label={m.manifest.name} data-testid="app-panel" inert={!app}>
      <header>
        <div class="grow">
          {/* A heading, so a screen reader's list of headings reaches the app's panel. */}
          <h2 class="app-title" data-testid="app-title" dir="auto">
            {app?.title ?? m.manifest.name}
          </h2>
          <div class="note">
            <span data-testid="app-where">{app?.where ?? ''}</span>
            {app ? (
              <span data-testid="app-version">{` · version ${version}${revoked ? ' (revoked)' : ''}`}</span>
            ) : null}
          </div>
        </div>
        <button type="button" data-testid="app-reload" onClick={() => m.reload()}>
          Reload
        </button>
        <button type="button" data-testid="app-close" onClick={() => closeApp(m)}>
          Close
        </button>
      </header>
      <Frame frame={m.frame.value} />
    </section>
  );
}

/** A tab's count: unread notifications, blocked requests. */
function Badge({ m, tab }: { m: Messenger; tab: Tab }) {
  if (tab === 'Notifications') {
    const user = m.store.slices.settings.value.current_user_id;
    const unread = m.store.slices.notifications.value.filter((n) => n.user_id === user && !n.read).length;
    return unread ? (
      <span class="badge" role="img" data-testid="unread" aria-label={`${unread} unread`}>
        {String(unread)}
      </span>
    ) : null;
  }
  const blocked = tab === 'Blocked' ? m.blocked.value.length : 0;
  return blocked ? (
    <span class="badge" role="img" aria-label={`${blocked} blocked`}>
      {String(blocked)}
    </span>
  ) : null;
}

const PANELS: Record<Tab, (props: { m: Messenger }) => preact.JSX.Element> = {
  Agent: ({ m }) => <AgentPanel panel={m.agent} />,
  Calls: ({ m }) => <CallLog log={m.log} />,
  Webhooks: DeliveriesPanel,
  Blocked: BlockedPanel,
  Notifications: NotificationsPanel,
  Settings: SettingsPanel,
};

/**
 * The tab row's keys, as the WAI-ARIA tabs pattern has them: the arrows go to the previous or next tab (round the
 * row), Home and End to the first and last; the tab reached is chosen and takes the focus.
 */
function onTabKey(m: Messenger, event: KeyboardEvent): void {
  const at = TABS.indexOf(m.tab.value);
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: TABS.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  const name = TABS[(to + TABS.length) % TABS.length]!;
  m.tab.value = name;
  document.getElementById(`tab-${name}`)?.focus();
}

/**
 * The developer tools: a tab row with counts, and the chosen tab's panel (the others keep their state). The row is
 * one Tab stop, the chosen tab (the arrows move within it), and the panel the next.
 */
function Tools({ m }: { m: Messenger }) {
  const shown = m.tab.value;
  const Panel = PANELS[shown];
  return (
    <aside class="tools" aria-label="Developer tools">
      <div class="tabs" role="tablist" aria-label="Developer tools" onKeyDown={(e) => onTabKey(m, e)}>
        {TABS.map((name) => (
          <button
            type="button"
            key={name}
            role="tab"
            id={`tab-${name}`}
            aria-selected={name === shown ? 'true' : 'false'}
            aria-controls="tool-panel"
            tabIndex={name === shown ? 0 : -1}
            class={name === shown ? 'on' : ''}
            data-testid={`tab-${name}`}
            onClick={() => (m.tab.value = name)}
          >
            {name}
            <Badge m={m} tab={name} />
          </button>
        ))}
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a tab panel is a Tab stop (WAI-ARIA tabs): a panel that starts with text is reached from its tab by one Tab */}
      <div role="tabpanel" id="tool-panel" aria-labelledby={`tab-${shown}`} tabIndex={0}>
        <Panel m={m} />
      </div>
    </aside>
  );
}

/**
 * The simulated messenger: rooms with a timeline, the home grid, the mini app in a cross-origin iframe, and the
 * developer tools (agent panel, call log, webhooks, blocked requests, notifications, settings).
 */
export function MessengerPage({ m }: { m: Messenger }) {
  return (
    <>
      {/* The page's one h1, first, so that the headings read in order (the room list's h2s come before the room's
          title), in the page's banner; shown to screen readers only, as the layout already says where one is. */}
      <header class="visually-hidden">
        <h1>{`${m.manifest.name} in svc dev's messenger`}</h1>
      </header>
      <div class={`shell ${m.app.value ? '' : 'closed'}`}>
        <RoomList m={m} />
        <RoomView m={m} />
        <AppPanel m={m} />
        <Tools m={m} />
      </div>
    </>
  );
}
