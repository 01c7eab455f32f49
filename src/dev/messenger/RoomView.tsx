import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { LIMITS } from '../limits';
import type { DevRoom } from '../devContract';
import { CardView } from './CardView';
import type { Messenger } from './Messenger';
import { roomLabel } from './MessengerModel';

/**
 * The home tile's picture: the manifest's icon nearest 96 px (the tile shows it at 48 px, sharp on a 2x screen),
 * from the app's own origin. Decorative: the tile's name is its label.
 */
function TileIcon({ icons, appUrl }: { icons: { src: string; sizes: string }[] | undefined; appUrl: string }) {
  const width = (icon: { sizes: string }) => Number(icon.sizes.split('x')[0]) || 0;
  const best = [...(icons ?? [])].sort((a, b) => Math.abs(width(a) - 96) - Math.abs(width(b) - 96))[0];
  if (!best || !appUrl) return null;
  return <img src={new URL(best.src, appUrl).href} alt="" width="48" height="48" data-testid="tile-icon" />;
}

/**
 * The room's timeline: messages and the app's cards, oldest first; the latest {@link LIMITS}`.timelineShown`, and a
 * button that draws as many earlier ones again.
 */
function Timeline({ m, room }: { m: Messenger; room: DevRoom }) {
  const { name } = m.manifest;
  const users = m.store.slices.users.value;
  const sender = (id: string) => users.find((u) => u.id === id)?.display_name ?? id;
  const open = (link: string) => m.openLink(link);
  const [shown, setShown] = useState<number>(LIMITS.timelineShown);
  const earlier = Math.max(0, room.timeline.length - shown);
  // The entry that was first on screen when the person first asked for earlier ones: what is drawn above it goes
  // where the log's live region does not reach, so a screen reader does not read out old entries as if new.
  const [firstLive, setFirstLive] = useState<string>();
  // What the button did, said once (the entries themselves are not read out): the status below.
  const [told, setTold] = useState('');
  const split =
    firstLive === undefined
      ? earlier
      : Math.max(
          earlier,
          room.timeline.findIndex((e) => e.event_id === firstLive),
        );
  const list = useRef<HTMLDivElement>(null);
  // Where the reader was, from the bottom of the box, when they asked for earlier entries: drawn above, they would
  // move the view up to the top.
  const fromBottom = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    const box = list.current?.closest<HTMLElement>('.timeline-box');
    if (!box || fromBottom.current === undefined) return;
    box.scrollTop = box.scrollHeight - fromBottom.current;
    fromBottom.current = undefined;
    // The focus stays in the timeline, where the reader is: not on the page's body once the button is gone, nor on
    // the button, far above the view, while earlier entries are left.
    box.focus();
  }, [shown]);
  const more = Math.min(earlier, LIMITS.timelineShown);
  const showMore = () => {
    const box = list.current?.closest<HTMLElement>('.timeline-box');
    if (box) fromBottom.current = box.scrollHeight - box.scrollTop;
    setFirstLive(firstLive ?? room.timeline[earlier]?.event_id);
    // With the count drawn in all: a second press says something new (a status that repeats itself is not read).
    setTold(`${more} earlier ${more === 1 ? 'entry' : 'entries'} shown above, ${shown + more} in all.`);
    setShown(shown + LIMITS.timelineShown);
  };
  const entry = (e: DevRoom['timeline'][number]) =>
    e.kind === 'card' ? (
      <CardView key={e.event_id} card={e.card} byline={`${name} · ${e.at.slice(11, 16)}`} open={open} testid="card" />
    ) : (
      <div key={e.event_id} class="msg" data-testid="message">
        <small>{`${sender(e.sender)}${e.via_app ? ` via ${name}` : ''} · ${e.at.slice(11, 16)}`}</small>
        {/* The app's or a person's words, in any language: laid out in their own direction (Arabic, Hebrew). */}
        <div dir="auto">{e.text}</div>
        {/* A card sent from the person's own client: shown as a card, with its actions. */}
        {e.card ? <CardView card={e.card} byline="" open={open} testid="message-card" /> : null}
      </div>
    );
  return (
    <div class="timeline" data-testid="timeline" ref={list}>
      {room.timeline.length ? null : <p class="note">No message yet.</p>}
      {earlier ? (
        // Its count changes with each new entry: not read out each time (the log's live region would).
        <p class="note" data-testid="timeline-earlier" aria-live="off">
          {`${earlier} earlier ${earlier === 1 ? 'entry' : 'entries'} not shown. `}
          <button type="button" onClick={showMore}>
            {`Show ${more} earlier ${more === 1 ? 'entry' : 'entries'}`}
          </button>
        </p>
      ) : null}
      <p class="visually-hidden" role="status" data-testid="timeline-told">
        {told}
      </p>
      <div class="earlier" aria-live="off" data-testid="timeline-earlier-entries">
        {room.timeline.slice(earlier, split).map(entry)}
      </div>
      {room.timeline.slice(split).map(entry)}
    </div>
  );
}

/** The home screen: the app's tile. */
function HomeGrid({ m }: { m: Messenger }) {
  const { manifest } = m;
  return (
    <div class="grid" data-testid="home-grid">
      <button
        type="button"
        class="tile"
        data-testid="home-tile"
        onClick={() => void m.open({ room: null, params: {} })}
      >
        <TileIcon icons={manifest.icons} appUrl={m.config.appUrl} />
        {manifest.short_name ?? manifest.name}
      </button>
    </div>
  );
}

/**
 * The timeline's box: it stays at the newest message when it was there, else where the person scrolled; a named log a
 * keyboard reaches.
 */
function TimelineBox({ m }: { m: Messenger }) {
  const room = m.room.value;
  const box = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  // In the next frame, before it is painted: reading scrollHeight lays the page out, which done here would hold up
  // everything the render does after (the app's frame starts loading only once it is in the page).
  useLayoutEffect(() => {
    const frame = requestAnimationFrame(() => {
      const el = box.current;
      if (el && atEnd.current) el.scrollTop = el.scrollHeight;
    });
    return () => cancelAnimationFrame(frame);
  });
  const onScroll = () => {
    const el = box.current!;
    atEnd.current = el.scrollHeight - el.clientHeight - el.scrollTop < 4;
  };
  // A room's history is a log: what arrives is read out, politely. The box scrolls, so it takes the focus (the arrow
  // keys and Page Up scroll it in every browser, not only in Chromium, which makes a scroller focusable on its own).
  const log = room ? { role: 'log' as const, 'aria-label': `Messages in ${roomLabel(room)}`, tabIndex: 0 } : {};
  return (
    <div class="timeline-box" ref={box} onScroll={onScroll} {...log}>
      {/* Keyed by room: another room starts from its latest entries again. */}
      {room ? <Timeline key={room.id} m={m} room={room} /> : <HomeGrid m={m} />}
    </div>
  );
}

/** The room on screen (or the home screen): its title, the app's button, the notice, and the timeline. */
export function RoomView({ m }: { m: Messenger }) {
  const room = m.room.value;
  const notice = m.notice.value;
  // The app follows the room on screen, so while it is open this button starts it again here, as its panel's Reload
  // does: said so, where an "Open" beside the open app left a person unsure whether it was open.
  const open = m.app.value !== undefined;
  return (
    <main class="main" aria-label={room ? `Room ${roomLabel(room)}` : 'Home'}>
      <header>
        <h2 data-testid="room-title">{roomLabel(room)}</h2>
        <button
          type="button"
          class="primary"
          data-testid="open-app"
          title={open ? `Closes ${m.manifest.name} and opens it again here` : undefined}
          onClick={() => void m.open({ room: m.room.value, params: {} })}
        >
          {`${open ? 'Restart' : 'Open'} ${m.manifest.name}`}
        </button>
      </header>
      <div class={`notice ${notice.kind}`} role="status" data-testid="notice" hidden={!notice.text}>
        {notice.text}
      </div>
      <TimelineBox m={m} />
    </main>
  );
}
