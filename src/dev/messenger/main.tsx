// The simulated messenger page's entry: the configuration (with the manifest the platform validated) and the state,
// inlined in the page's HTML, then the page as components fed by the platform on the page's channel. Everything it
// changes goes through the platform's control API.
import { effect, signal } from '@preact/signals';
import { render } from 'preact';
import { type DevPageStart, PAGE_START_ID } from '../devContract';
import { LIMITS } from '../limits';
import { type Connection, control, follow, loadConfig } from './api';
import { MessengerModel } from './MessengerModel';
import { MessengerPage } from './MessengerPage';
import { SheetHost } from './sheet';
import { STYLES } from './styles';
import { Toasts, toast } from './toasts';

const connection = signal<Connection>('open');

/**
 * Shown while the page's channel is away: svc dev stopped, or restarted (this page's token is then stale), or while
 * svc dev, still connected, does not answer.
 */
function ConnectionBanner() {
  const state = connection.value;
  return (
    <div class="banner" role="alert" data-testid="connection" hidden={state === 'open'}>
      {state === 'stalled'
        ? 'svc dev is not answering (paused at a breakpoint, or stopped?): what you do now waits for it, and the app may be told its calls timed out.'
        : state === 'retrying'
          ? 'Disconnected from svc dev: is it still running? Reconnecting as soon as it is back…'
          : state === 'closed'
            ? 'svc dev was restarted: this page belongs to the previous run. Open the URL svc dev printed (it carries the new launch token).'
            : ''}
    </div>
  );
}

/** A place for a part of the page outside the messenger's root (which a sheet makes inert). */
function outside(where: 'prepend' | 'append'): HTMLElement {
  const el = document.createElement('div');
  document.body[where](el);
  return el;
}

/**
 * What the page starts from: inlined in its HTML by the platform (no request before the first screen; the element
 * goes, the page keeps what it needs), or else asked of the control API.
 */
async function pageStart(): Promise<DevPageStart> {
  const inlined = document.getElementById(PAGE_START_ID);
  if (inlined?.textContent) {
    inlined.remove();
    return JSON.parse(inlined.textContent);
  }
  const [config, state] = await Promise.all([loadConfig(), control('GET /__svc/state')]);
  return { config, state };
}

async function start(root: HTMLElement): Promise<void> {
  const { config, state } = await pageStart();
  const m = new MessengerModel(config, state);
  // The theme applies to the whole page, the sheets and the banner included.
  effect(() => {
    document.body.classList.toggle('dark', m.theme.value === 'dark');
  });
  // Before the first render, so the app's frame (when the URL opens it) is in the first screen and starts loading
  // with it.
  m.resume();
  root.replaceChildren();
  render(<MessengerPage m={m} />, root);
  render(<ConnectionBanner />, outside('prepend'));
  // Outside the root too: a notice that comes while a sheet is open is read out (an inert region is not; a11y47 F7).
  render(<Toasts />, outside('append'));
  render(<SheetHost />, outside('append'));
  follow(
    (next) => m.onState(next),
    (request) => {
      m.blocked.value = [...m.blocked.value, request].slice(-LIMITS.blockedRequests);
      toast(`Blocked: ${request.advice}`, 'error');
    },
    (next) => {
      connection.value = next;
      // svc dev ends the running MCP call for the agent once the page's channel closes: the page ends it too. A svc
      // dev that is only not answering (paused) still holds the call.
      if (next === 'retrying' || next === 'closed') m.mcp.disconnected();
    },
    {
      'mcp-invoke': (call) => void m.mcp.invoke(call),
      'mcp-cancel': ({ id, told }) => m.mcp.cancel(id, told),
      'mcp-refused': (call) => m.mcp.refused(call),
      // manifest.json changed: the page, its host and the app start again from the new one.
      manifest: () => location.reload(),
      // svc dev started again on the same --state (the launch token kept): its configuration may differ.
      restarted: () => location.reload(),
      // A change not saved, an edit of manifest.json that does not validate: the terminal says it too. The notice
      // above the timeline keeps it while it holds (a valid manifest reloads the page, or says it is valid again).
      problem: ({ message }) => {
        toast(message, 'error', true);
        m.say(message, 'error');
      },
      // The manifest is valid again with nothing new to serve: the notice of its problem goes.
      'manifest-valid': () => {
        if (m.notice.value.kind === 'error') m.say('');
      },
    },
    // The state the page started from: the channel sends it again only if it changed since.
    state,
    config.run,
  );
}

document.head.append(Object.assign(document.createElement('style'), { textContent: STYLES }));
const root = document.getElementById('messenger')!;
start(root).catch((error: Error) => {
  const p = Object.assign(document.createElement('p'), {
    className: 'err',
    textContent: `The messenger could not start: ${error.message}`,
  });
  root.replaceChildren(p);
});
