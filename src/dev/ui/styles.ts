/** The messenger's stylesheet: light and dark themes from one set of custom properties. */
export const STYLES = `
:root { --bg: #f4f5f7; --panel: #fff; --text: #1d2330; --muted: #667085; --line: #d9dde3; --accent: #3867d6;
  --accent-text: #fff; --bad: #c0392b; --good: #1e8e3e; --warn: #b7791f; font: 14px/1.45 system-ui, sans-serif; }
body.dark { --bg: #15181d; --panel: #1f242b; --text: #e6e9ee; --muted: #98a2b3; --line: #343b45; --accent: #6c8ef5; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); height: 100vh; }
button { font: inherit; border: 1px solid var(--line); background: var(--panel); color: var(--text); border-radius: 6px;
  padding: 4px 10px; cursor: pointer; }
button.primary { background: var(--accent); color: var(--accent-text); border-color: var(--accent); }
button.danger { color: var(--bad); }
input, select, textarea { font: inherit; color: var(--text); background: var(--panel); border: 1px solid var(--line);
  border-radius: 6px; padding: 4px 6px; }
textarea { width: 100%; min-height: 90px; font-family: ui-monospace, monospace; font-size: 12px; }
.shell { display: grid; grid-template-columns: 210px minmax(280px, 1fr) 420px 380px; height: 100vh; }
.shell.closed { grid-template-columns: 210px minmax(280px, 1fr) 0 380px; }
.side, .main, .app, .tools { overflow: auto; border-right: 1px solid var(--line); }
.side { background: var(--panel); padding: 10px; }
.side h2, .tools h2 { font-size: 12px; text-transform: uppercase; color: var(--muted); margin: 14px 0 6px; }
.room { display: block; width: 100%; text-align: left; margin: 2px 0; border: 0; }
.room.current { background: var(--accent); color: var(--accent-text); }
.main { display: flex; flex-direction: column; }
.main header { padding: 10px 14px; border-bottom: 1px solid var(--line); display: flex; gap: 8px; align-items: center; }
.main header h1 { font-size: 16px; margin: 0; flex: 1; }
.timeline { flex: 1; padding: 14px; display: flex; flex-direction: column; gap: 8px; }
.msg { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; max-width: 560px; }
.msg small { color: var(--muted); display: block; }
.card { border-left: 4px solid var(--accent); }
.card strong { display: block; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, 120px); gap: 12px; padding: 14px; }
.tile { height: 110px; border-radius: 14px; display: flex; align-items: center; justify-content: center; text-align: center; }
.app { display: flex; flex-direction: column; background: var(--panel); }
.app header { padding: 8px 10px; border-bottom: 1px solid var(--line); display: flex; gap: 6px; align-items: center; }
.app header strong { flex: 1; }
.app iframe { flex: 1; border: 0; width: 100%; background: #fff; }
.tools { background: var(--panel); padding: 0 10px 10px; }
.tabs { display: flex; gap: 4px; position: sticky; top: 0; background: var(--panel); padding: 8px 0; flex-wrap: wrap; }
.tabs button.on { background: var(--accent); color: var(--accent-text); }
.log { width: 100%; border-collapse: collapse; font-size: 12px; }
.log td { border-top: 1px solid var(--line); padding: 4px; vertical-align: top; }
.log pre { margin: 0; white-space: pre-wrap; word-break: break-all; max-height: 120px; overflow: auto; }
.err { color: var(--bad); } .ok { color: var(--good); } .pending { color: var(--warn); }
.row { display: flex; gap: 6px; align-items: center; margin: 4px 0; flex-wrap: wrap; }
.action { border: 1px solid var(--line); border-radius: 8px; padding: 8px; margin: 8px 0; }
.action label { display: block; margin: 4px 0; }
.toasts { position: fixed; bottom: 14px; left: 230px; display: flex; flex-direction: column; gap: 6px; z-index: 20; }
.toast { background: var(--text); color: var(--bg); padding: 8px 12px; border-radius: 8px; }
.toast.error { background: var(--bad); color: #fff; } .toast.success { background: var(--good); color: #fff; }
.scrim { position: fixed; inset: 0; background: rgb(0 0 0 / 45%); display: flex; align-items: center;
  justify-content: center; z-index: 30; }
.sheet { background: var(--panel); border-radius: 12px; padding: 18px; width: 420px; max-height: 85vh; overflow: auto;
  box-shadow: 0 10px 40px rgb(0 0 0 / 30%); }
.sheet h3 { margin: 0 0 8px; }
.sheet .buttons { display: flex; justify-content: flex-end; gap: 8px; margin-top: 14px; }
.note { color: var(--muted); font-size: 12px; }
`;
