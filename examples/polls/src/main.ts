// The Team Polls page: a form to create a poll, the agent's create_poll action, and what happens in an
// end-to-end encrypted room. Built by build.mjs with the backend's URL (POLLS_API).
import { isSvcError, svc } from 'svc-sdk';
import { createPollsApp } from './polls';

declare const POLLS_API: string;

const app = createPollsApp(svc, (url, init) => fetch(url, init), POLLS_API);
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = (text: string, kind = 'info') => {
  $('status').textContent = text;
  $('status').dataset.kind = kind;
};

/** The room to post into, asking for the room scope at the moment of use; undefined from the home grid. */
async function currentRoom() {
  if ((await svc.permissions.request('room.context')) != 'granted') return undefined;
  return (await svc.room.current()) ?? undefined;
}

// Handlers first, synchronously: an agent may invoke create_poll as soon as the app loads.
void app.start();
svc.actions.handle('create_poll', async (input: { question: string; options?: string[] }) => {
  const room = await currentRoom();
  const poll = await app.createPoll(input, room?.room_id, (message) => svc.actions.progress(message));
  if (poll.explanation) status(poll.explanation, 'warning');
  return { poll_id: poll.poll_id };
});

document.body.dataset.theme = svc.app.theme;
svc.app.onThemeChange((theme) => {
  document.body.dataset.theme = theme;
});

$('create').addEventListener('click', async () => {
  const question = $<HTMLInputElement>('question').value.trim();
  const options = $<HTMLTextAreaElement>('options')
    .value.split('\n')
    .map((o) => o.trim())
    .filter(Boolean);
  try {
    const room = await currentRoom();
    const poll = await app.createPoll({ question, options }, room?.room_id);
    // Reminders need the notifications scope, asked for when the person turns them on, not before.
    $('remind').hidden = false;
    $('remind').onclick = async () => {
      if (await app.enableReminders(poll.poll_id)) status('Reminders on.', 'success');
    };
    if (poll.posted) return status('Poll posted to the room.', 'success');
    if (!poll.explanation) return status('Poll created (open Polls from a room to post it).');
    status(poll.explanation, 'warning');
    $('send-instead').hidden = false;
    $('send-instead').onclick = () => app.postToRoom({ poll_id: poll.poll_id, question, options });
  } catch (error) {
    status(isSvcError(error) ? `${error.code}: ${error.message}` : (error as Error).message, 'error');
  }
});

// Opened from a notification or a card's deep link (/poll?id=...): say which poll.
if (svc.app.launchParams.id) status(`Poll ${svc.app.launchParams.id}`);

svc.identity.get().then(
  (me) => ($('hello').textContent = `Hello ${me.display_name ?? 'there'}`),
  () => {},
);
