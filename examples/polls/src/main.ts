// The Team Polls page: a form to create a poll, the agent's create_poll action, and what happens in an
// end-to-end encrypted room. Built by build.mjs with the backend's URL (POLLS_API).
import { isSvcError, svc } from 'svc-sdk';
import { createPollsApp, type PollView } from './polls';

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
    // The permission sheet, if the host showed one, took the focus out of this frame: give it back to the button.
    if (document.activeElement === document.body) $('create').focus();
    // Reminders need the notifications scope, asked for when the person turns them on, not before.
    $('remind').hidden = false;
    $('remind').onclick = async () => {
      if (await app.enableReminders(poll.poll_id)) status('Reminders on.', 'success');
    };
    if (poll.posted) return status('Poll posted to the room.', 'success');
    if (!poll.explanation) {
      // No room: opened from the home grid, or opened in a room the person would not let Polls know.
      const refused = (await svc.permissions.query('room.context')) === 'denied';
      return status(
        refused
          ? 'Poll created, not posted: Polls may not know the room it is opened in. Allow "The room it is opened in" in the settings to post polls.'
          : 'Poll created (open Polls from a room to post it).',
      );
    }
    status(poll.explanation, 'warning');
    $('send-instead').hidden = false;
    $('send-instead').onclick = async () => {
      if (!(await app.postToRoom({ poll_id: poll.poll_id, question, options }))) return;
      $('send-instead').hidden = true;
      status('Poll posted to the room from your client.', 'success');
    };
  } catch (error) {
    status(isSvcError(error) ? `${error.code}: ${error.message}` : (error as Error).message, 'error');
  }
});

// The page's HTML leaves the button disabled until now: a click before this script ran would do nothing.
$<HTMLButtonElement>('create').disabled = false;

/** Shows a poll's options as buttons with their counts; a click votes. */
function showPoll(poll: PollView): void {
  $('vote-question').textContent = poll.question;
  $('vote-options').replaceChildren(
    ...poll.options.map((option, i) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.testid = 'vote-option';
      button.setAttribute('aria-pressed', String(poll.mine === option));
      button.textContent = `${option} · ${poll.counts[i]}`;
      button.onclick = async () => {
        showPoll(await app.vote(poll.poll_id, option));
        status(`You voted ${option}.`, 'success');
      };
      return button;
    }),
  );
  $('vote').hidden = false;
}

// Opened from a notification or a card's deep link (/poll?id=...): the poll, to vote on.
const opened = svc.app.launchParams.id;
if (opened) {
  status(`Poll ${opened}`);
  void app.getPoll(opened).then((poll) => (poll ? showPoll(poll) : status('This poll was deleted.', 'warning')));
}

// Who the app is open for: the tenant (no scope needed; the person's name would need identity.basic, which Polls
// does not ask for).
svc.identity.get().then(
  (me) => ($('tenant').textContent = `Polls of ${me.tenant_id}`),
  () => {},
);
