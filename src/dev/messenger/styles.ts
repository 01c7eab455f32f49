/**
 * The messenger's stylesheet: light and dark themes from one set of custom properties. Every text colour reaches
 * 4.5:1 against the background it is drawn on, and a field's border 3:1, in both themes
 * (test/dev/messengerQuality.spec.ts computes it from these properties): `CONTRAST_PAIRS` and
 * `CONTROL_CONTRAST_PAIRS` list the pairs.
 */
export const STYLES = `
:root { --bg: #f4f5f7; --panel: #fff; --text: #1d2330; --muted: #5b6474; --line: #d9dde3; --accent: #3867d6;
  --field: #848d9c;
  --accent-text: #fff; --bad: #c0392b; --good: #177a33; --warn: #8a5a00; --on-status: #fff;
  font: 14px/1.45 system-ui, sans-serif; color-scheme: light; }
body.dark { --bg: #15181d; --panel: #1f242b; --text: #e6e9ee; --muted: #a3adbd; --line: #3a424d; --accent: #8ea8ff;
  --field: #737d8e;
  --accent-text: #0b1020; --bad: #ff8a80; --good: #4ade80; --warn: #f6c343; --on-status: #15181d; color-scheme: dark; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); height: 100vh; }
button { font: inherit; border: 1px solid var(--line); background: var(--panel); color: var(--text); border-radius: 6px;
  padding: 4px 10px; cursor: pointer; }
button:disabled, button[aria-disabled=true] { cursor: default; opacity: 0.75; }
button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, [tabindex]:focus-visible,
.sheet .buttons button:focus {
  outline: 2px solid var(--accent); outline-offset: 1px; }
button.primary { background: var(--accent); color: var(--accent-text); border-color: var(--accent); }
button.danger { color: var(--bad); }
button.primary.danger { background: var(--bad); color: var(--on-status); border-color: var(--bad); }
button.small { padding: 0 6px; font-size: 12px; }
button.link { border: 0; padding: 0; background: none; color: var(--text); font-weight: 600; text-align: left; }
input, select, textarea { font: inherit; color: var(--text); background: var(--panel); border: 1px solid var(--field);
  border-radius: 6px; padding: 4px 6px; }
[aria-invalid=true] { border-color: var(--bad); }
textarea { width: 100%; min-height: 90px; font-family: ui-monospace, monospace; font-size: 12px; }
/* The columns give way together from 1920 px down to 1024 px, so the side panel and its tab row stay whole. */
.shell { display: grid; height: 100vh;
  grid-template-columns: clamp(112px, 11vw, 170px) minmax(200px, 1fr) clamp(260px, 24vw, 380px) clamp(440px, 34vw, 520px); }
.shell.closed { grid-template-columns: clamp(112px, 11vw, 170px) minmax(200px, 1fr) 0 clamp(440px, 34vw, 520px); }
.side, .main, .app, .tools { overflow: auto; border-right: 1px solid var(--line); }
.side { background: var(--panel); padding: 10px; }
.tools h2.title { font-size: 1.17em; text-transform: none; color: var(--text); margin: 1em 0; }
.side h2, .tools h2 { font-size: 12px; text-transform: uppercase; color: var(--muted); margin: 14px 0 6px; }
.room { display: block; width: 100%; text-align: left; margin: 2px 0; border: 0; }
.room.current { background: var(--accent); color: var(--accent-text); }
.main { display: flex; flex-direction: column; }
.main header { padding: 10px 14px; border-bottom: 1px solid var(--line); display: flex; gap: 8px; align-items: center; }
.main header h2 { font-size: 16px; margin: 0; flex: 1; }
/* A long app name is cut on one line (the button keeps its whole text for its name): it took the room's title down to
   one letter a line. */
.main header button { max-width: 55%; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
  white-space: nowrap; }
.notice { margin: 10px 14px 0; padding: 8px 10px; border-radius: 8px; border: 1px solid var(--line);
  background: var(--panel); }
.notice.warn { border-left: 4px solid var(--warn); } .notice.error { border-left: 4px solid var(--bad); }
.timeline-box { flex: 1; overflow: auto; }
.timeline, .timeline .earlier { padding: 14px; display: flex; flex-direction: column; gap: 8px; }
/* The box of entries drawn on request is always there (what arrives in it is never read out); empty, it takes no room. */
.timeline .earlier { padding: 0; } .timeline .earlier:empty { margin-bottom: -8px; }
.msg { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; max-width: 560px; }
.msg small { color: var(--muted); display: block; }
.card { border-left: 4px solid var(--accent); }
.card strong { display: block; }
/* A message's or card's line breaks are the sender's: kept, as a messenger keeps them. */
.msg, .sheet p { white-space: pre-line; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, 120px); gap: 12px; padding: 14px; }
.tile { height: 110px; border-radius: 14px; display: flex; flex-direction: column; gap: 6px; align-items: center;
  justify-content: center; text-align: center; }
.tile img { border-radius: 10px; }
.app { display: flex; flex-direction: column; background: var(--panel); }
.app header { padding: 8px 10px; border-bottom: 1px solid var(--line); display: flex; gap: 6px; align-items: center; }
.app iframe { flex: 1; border: 0; width: 100%; background: var(--panel); }
/* The frame's slot is no box of its own: the iframe fills the panel as its direct child would. */
.app .frame { display: contents; }
.grow { flex: 1; min-width: 0; }
.app-title, .action-title { font-size: inherit; margin: 0; }
/* An app's title on one line: a long one ends in an ellipsis rather than pushing the app down. */
.app-title { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.action-title.folded { display: inline; }
/* A control the keyboard reaches scrolls into view below the sticky tab row, not under it. */
.tools { background: var(--panel); padding: 0 10px 10px; scroll-padding-top: 52px; }
/* The tabs fit one row; with a person's wider text spacing (WCAG 1.4.12) they go on to a second, never out of sight. */
.tabs { display: flex; gap: 2px; position: sticky; top: 0; background: var(--panel); padding: 8px 0; flex-wrap: wrap;
  z-index: 1; }
.tabs button { padding: 3px 5px; font-size: 13px; white-space: nowrap; position: relative; }
/* A tab's count sits on its corner, as a messenger's does, so a badge never pushes the last tab out of the row. */
.tabs .badge { position: absolute; top: -7px; right: -3px; margin: 0; min-width: 15px; padding: 0 3px;
  font-size: 10px; line-height: 14px; }
.tabs button.on { background: var(--accent); color: var(--accent-text); }
.badge { display: inline-block; margin-left: 4px; min-width: 18px; padding: 0 5px; border-radius: 9px; text-align: center;
  background: var(--bad); color: var(--on-status); font-size: 11px; font-weight: 700; }
.chip { font-size: 12px; padding: 0 6px; border-radius: 9px; border: 1px solid var(--line); }
.chip.granted { color: var(--good); } .chip.denied { color: var(--bad); } .chip.prompt { color: var(--muted); }
.log { width: 100%; border-collapse: collapse; font-size: 12px; }
.log th { text-align: left; color: var(--muted); font-weight: 600; padding: 4px; }
.log td { border-top: 1px solid var(--line); padding: 4px; vertical-align: top; }
.log tr.mark td { color: var(--muted); font-style: italic; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12px; }
.json pre { max-height: 320px; overflow: auto; background: var(--bg); padding: 6px; border-radius: 6px; }
.err { color: var(--bad); } .ok { color: var(--good); } .pending { color: var(--warn); }
.row { display: flex; gap: 6px; align-items: center; margin: 4px 0; flex-wrap: wrap; }
.action { border: 1px solid var(--line); border-radius: 8px; padding: 8px; margin: 8px 0; }
.action.unread { border-left: 4px solid var(--accent); }
.action label { display: block; margin: 4px 0; }
details.action > summary { cursor: pointer; }
details.action[open] > summary { margin-bottom: 4px; }
.hint { display: block; margin-top: 2px; }
/* Toasts never reach past the window's right edge; the row they sit in lets clicks through to the page beside them.
   Under a sheet's scrim: a sheet waits for the person, and a toast over it hid its question and its buttons. */
.toasts { position: fixed; bottom: 14px; left: 200px; right: 14px; display: flex; flex-direction: column;
  align-items: flex-start; gap: 6px; z-index: 25; pointer-events: none; }
/* A control the keyboard moves to is scrolled clear of the toasts (their height, set as they change), and the end of
   a scroller can be scrolled above them: the columns' own in four columns, the page's in one (below), where padding a
   column would move what is under it down under the toasts. */
html, .timeline-box, .tools, .side { scroll-padding-bottom: var(--toasts, 0px); }
@media (min-width: 1024px) {
  .timeline-box { padding-bottom: var(--toasts, 0px); }
  .tools { padding-bottom: calc(10px + var(--toasts, 0px)); }
}
/* Each of its two live regions (errors, the others) a column of its own: a region kept out of the layout
   (display: contents) may be kept out of what a screen reader hears too. */
.toasts > div { display: flex; flex-direction: column; align-items: flex-start; gap: 6px; }
.toast { background: var(--text); color: var(--bg); padding: 8px 12px; border-radius: 8px; white-space: pre-line;
  pointer-events: auto; max-height: 40vh; overflow: auto; }
.toast.error { background: var(--bad); color: var(--on-status); }
.toast.success { background: var(--good); color: var(--on-status); }
.toast button { display: block; margin-top: 6px; }
.scrim { position: fixed; inset: 0; background: rgb(0 0 0 / 45%); display: flex; align-items: center;
  justify-content: center; z-index: 30; }
.sheet { background: var(--panel); border-radius: 12px; padding: 18px; width: 440px; max-height: 85vh; overflow: auto;
  box-shadow: 0 10px 40px rgb(0 0 0 / 30%); }
.sheet h2 { margin: 0 0 8px; font-size: 1.17em; }
.sheet label { display: block; margin: 6px 0; }
.sheet label.row { display: flex; gap: 8px; }
input[type=checkbox], input[type=radio] { accent-color: var(--accent); width: 16px; height: 16px; margin: 0; }
.sheet .buttons { display: flex; justify-content: flex-end; gap: 8px; margin-top: 14px; }
.note { color: var(--muted); font-size: 12px; }
.banner { padding: 8px 12px; background: var(--bad); color: var(--on-status); }
/* A word longer than its box (a URL, a token, a name without spaces) breaks instead of running out of it. */
.msg, .card, .sheet, .toast, .notice, .room, .tile, .action, .main header, .app header, code { overflow-wrap: anywhere; }
.main header > *, .app header > * { min-width: 0; }
/* Narrower than the four columns (a small window, or zoomed in up to 400%): one column, the page scrolls, and no
   column scrolls on its own, so nothing needs scrolling sideways. */
@media (max-width: 1023px) {
  body { height: auto; }
  .shell, .shell.closed { display: flex; flex-direction: column; height: auto; }
  .side, .main, .app, .tools { overflow: visible; border-right: 0; border-bottom: 1px solid var(--line); }
  .shell.closed .app { display: none; }
  .main header { flex-wrap: wrap; }
  .timeline-box { max-height: 60vh; min-height: 120px; }
  .app iframe { height: 80vh; flex: none; }
  .tabs { position: static; }
  input, select { max-width: 100%; }
  .toasts { left: 14px; }
  .toast { max-height: 25vh; }
  body { padding-bottom: var(--toasts, 0px); }
}
/* Forced colours drop backgrounds and shadows: the chosen tab and room keep the system's selection colours, and a
   sheet or a toast keeps an edge against the page behind it. */
@media (forced-colors: active) {
  .tabs button.on, .room.current { forced-color-adjust: none; background: Highlight; color: HighlightText;
    border: 1px solid Highlight; }
  .sheet, .toast { border: 1px solid CanvasText; }
}
`;

/** Text colour / background pairs the themes must keep at 4.5:1 or more (custom property names). */
export const CONTRAST_PAIRS: [string, string][] = [
  ['--text', '--bg'],
  ['--text', '--panel'],
  ['--muted', '--panel'],
  ['--muted', '--bg'],
  ['--accent-text', '--accent'],
  ['--accent', '--panel'],
  ['--bad', '--panel'],
  ['--good', '--panel'],
  ['--warn', '--panel'],
  ['--on-status', '--bad'],
  ['--on-status', '--good'],
  ['--bg', '--text'],
];

/**
 * Control boundary / background pairs the themes must keep at 3:1 or more (WCAG 1.4.11): a field's border is what
 * shows an empty field is there.
 */
export const CONTROL_CONTRAST_PAIRS: [string, string][] = [
  ['--field', '--panel'],
  ['--field', '--bg'],
];
