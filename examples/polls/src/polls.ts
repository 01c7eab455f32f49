// Team Polls: a mini app in svc-exchange mode. It talks to its own backend with a fresh token per request,
// posts polls into the room as cards (from the person's own client, so it works in encrypted rooms too),
// asks for notifications at the moment of use, and offers two actions to agents.
import { isSvcError, type Svc } from 'svc-sdk';

export interface PollInput {
  question: string;
  options?: string[];
}

/** The backend calls the app makes; `fetch` is injected so tests can stand in for the backend. */
export type Fetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<{ ok: boolean; json(): Promise<any> }>;

/** A poll as a voter sees it: the options, how many chose each, and the person's own vote. */
export interface PollView {
  poll_id: string;
  question: string;
  options: string[];
  counts: number[];
  mine?: string;
}

/** What the backend answers to a new poll: posted into the room, or why not. */
export interface CreatedPoll {
  poll_id: string;
  posted?: boolean;
  /** Set when the room is end-to-end encrypted: the backend cannot post there, the person's client can. */
  explanation?: string;
}

/** @param api - the backend's base URL; production's by default, a loopback one under `svc dev`. */
export function createPollsApp(svc: Svc, fetch: Fetch, api = 'https://api.polls.example') {
  // A fresh token before each use: never cached, never stored (interface, "Rules that always hold").
  const call = async (method: string, path: string, body?: unknown) => {
    const { access_token } = await svc.auth.getToken();
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} ${path} failed`);
    return res.json();
  };

  /** Creates a poll; with a room, the backend also posts it there as a card (not possible in an encrypted room). */
  // `progress` only while an action runs (svc.actions.progress needs one); the page's own form passes none.
  async function createPoll(
    input: PollInput,
    room_id?: string,
    progress = (_message: string) => {},
  ): Promise<CreatedPoll> {
    let options = input.options;
    if (!options) {
      progress('Asking for the answer options');
      const answer = await svc.actions.elicit({
        prompt: `Which options should "${input.question}" offer?`,
        schema: { type: 'array', items: { type: 'string' }, minItems: 2 },
      });
      if (answer === null) throw new Error('The person did not give any options.');
      options = answer as string[];
    }
    progress('Saving the poll');
    return call('POST', '/polls', { question: input.question, options, ...(room_id ? { room_id } : {}) });
  }

  /** The room to post into, asking for the room scope at the moment of use; undefined from the home grid. */
  async function currentRoom(): Promise<string | undefined> {
    if ((await svc.permissions.request('room.context')) !== 'granted') return undefined;
    return (await svc.room.current())?.room_id;
  }

  /** Posts a poll into the current room as a card. Returns false when it could not (and says why in a toast). */
  async function postToRoom(poll: { poll_id: string; question: string; options: string[] }): Promise<boolean> {
    if ((await svc.permissions.request('room.context')) !== 'granted') return toast('Polls need to know the room.');
    const room = await svc.room.current();
    if (!room) return toast('Open Polls from a room to post a poll.');
    if ((await svc.permissions.request('room.send')) !== 'granted') return toast('Posting was not allowed.');
    try {
      await svc.message.send({
        room_id: room.room_id,
        body: `Poll: ${poll.question}`,
        card: {
          title: poll.question,
          body: poll.options.join(' · '),
          actions: [{ label: 'Vote', deep_link: `/poll?id=${poll.poll_id}` }],
        },
      });
    } catch (e) {
      // The person declined this particular send: degrade, do not ask again in a loop.
      if (isSvcError(e) && e.code === 'ERR_PERMISSION_DENIED') return toast('Not posted.');
      throw e;
    }
    svc.ui.toast({ message: 'Poll posted', kind: 'success' });
    return true;
  }

  /** A poll by id (from a card's deep link), with its counts and the person's vote; null once it was deleted. */
  async function getPoll(poll_id: string): Promise<PollView | null> {
    return call('GET', `/polls/${encodeURIComponent(poll_id)}`).catch(() => null);
  }

  /** Votes for `option` (voting again changes the vote); answers the new counts. */
  function vote(poll_id: string, option: string): Promise<PollView> {
    return call('POST', `/polls/${encodeURIComponent(poll_id)}/votes`, { option });
  }

  /** Turns on reminders: the backend can only notify a person who granted `notifications` in the app. */
  async function enableReminders(poll_id: string): Promise<boolean> {
    if ((await svc.permissions.request('notifications')) !== 'granted') return toast('Reminders are off.');
    await call('POST', `/polls/${poll_id}/reminders`);
    return true;
  }

  function toast(message: string): false {
    svc.ui.toast({ message, kind: 'error' });
    return false;
  }

  /**
   * Registers the actions (one handler each) and sets the title. `onCreated` hears of each poll an agent or the
   * person created through the create_poll action (the page shows the encrypted-room explanation).
   */
  async function start(onCreated: (poll: CreatedPoll) => void = () => {}): Promise<void> {
    svc.ui.setTitle(svc.app.launchParams.id ? 'Poll' : 'Polls');
    svc.app.onThemeChange((theme) => (state.theme = theme));
    svc.actions.handle('create_poll', async (input: PollInput) => {
      const poll = await createPoll(input, await currentRoom(), (m) => svc.actions.progress(m));
      onCreated(poll);
      return { poll_id: poll.poll_id };
    });
    svc.actions.handle('delete_poll', async ({ poll_id }: { poll_id: string }, context) => {
      // Agents get a tighter rule than people: the backend sees act.sub in the token and applies it too.
      await call('DELETE', `/polls/${poll_id}${context.invoked_by === 'agent' ? '?by=agent' : ''}`);
      return { deleted: poll_id };
    });
  }

  const state = { theme: svc.app.theme };
  return { start, createPoll, currentRoom, postToRoom, enableReminders, getPoll, vote, state };
}
