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

// Handlers first, synchronously: an agent may invoke create_poll as soon as the app loads.
void app.start((poll) => {
  if (poll.explanation) status(poll.explanation, 'warning');
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
    const poll = await app.createPoll({ question, options }, await app.currentRoom());
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
