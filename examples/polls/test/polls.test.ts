// Team Polls against the mock host: the real svc client, a host that follows the platform's rules, a fake backend.
import { decodeMockToken, createMockHost, type MockHost, type MockHostOptions } from 'svc-sdk/mock';
import { afterEach, describe, expect, test, vi } from 'vitest';
import manifest from '../manifest.json';
import { createPollsApp, type Fetch } from '../src/polls';

const room = { room_id: '!standup:acme.example', name: 'Standup', is_encrypted: true, member_count: 6 };
const poll = { poll_id: 'p1', question: 'Lunch?', options: ['Pizza', 'Sushi'] };

let host: MockHost;
afterEach(() => host?.close());

// A stand-in for the polls backend that checks tokens the way the real one must: signature, aud, exp.
function fakeBackend() {
  const requests: { method: string; url: string; sub: string; agent?: string }[] = [];
  const fetch = vi.fn<Fetch>(async (url, init) => {
    const token = init.headers.authorization!.replace('Bearer ', '');
    const claims = decodeMockToken(token, { audience: 'polls-backend', now: Date.now() / 1000 });
    requests.push({ method: init.method, url, sub: claims.sub, ...(claims.act ? { agent: claims.act.sub } : {}) });
    return { ok: true, json: async () => ({ poll_id: 'p1' }) };
  });
  return { fetch, requests };
}

function setup(options: Partial<MockHostOptions> = {}) {
  host = createMockHost({ manifest, room, ...options });
  const backend = fakeBackend();
  return { app: createPollsApp(host.svc, backend.fetch), backend };
}

describe('Team Polls', () => {
  test('registers a handler for every declared action', async () => {
    const { app } = setup();
    await app.start();
    await host.flush(); // the client announces its handlers to the host as a message
    host.assertActionsHandled();
  });

  test('an agent creates a poll: options are elicited, progress is shown, the backend sees the agent', async () => {
    const { app, backend } = setup({ answers: { elicit: () => ['Pizza', 'Sushi'], permission: () => 'granted' } });
    await app.start();
    const out = await host.invokeAction(
      'create_poll',
      { question: 'Lunch?' },
      { invoked_by: 'agent', agent_id: 'assistant' },
    );
    expect(out).toEqual({ poll_id: 'p1' });
    expect(host.progress.map((p) => p.message)).toEqual(['Asking for the answer options', 'Saving the poll']);
    expect(backend.requests).toEqual([
      { method: 'POST', url: 'https://api.polls.example/polls', sub: host.identity.app_user_id, agent: 'assistant' },
    ]);
  });

  test('an invalid input never reaches the app', async () => {
    const { app, backend } = setup();
    await app.start();
    await expect(host.invokeAction('create_poll', { question: 'Lunch?', options: ['only one'] })).rejects.toMatchObject(
      { code: 'ERR_ACTION_INVALID_INPUT' },
    );
    expect(backend.fetch).not.toHaveBeenCalled();
  });

  test('deleting a poll is destructive: the person confirms, or nothing is deleted', async () => {
    let approve = false;
    const { app, backend } = setup({ answers: { confirmAction: () => approve } });
    await app.start();
    await expect(
      host.invokeAction('delete_poll', { poll_id: 'p1' }, { invoked_by: 'agent', agent_id: 'assistant' }),
    ).rejects.toMatchObject({ code: 'ERR_PERMISSION_DENIED' });
    expect(backend.fetch).not.toHaveBeenCalled();
    approve = true;
    await host.invokeAction('delete_poll', { poll_id: 'p1' }, { invoked_by: 'agent', agent_id: 'assistant' });
    expect(backend.requests[0]).toMatchObject({ method: 'DELETE', url: 'https://api.polls.example/polls/p1?by=agent' });
  });

  test('posts the poll into the room as a card after the person confirms the send', async () => {
    const { app } = setup({ answers: { permission: () => 'granted', send: () => true } });
    expect(await app.postToRoom(poll)).toBe(true);
    expect(host.sent).toEqual([
      expect.objectContaining({
        room_id: room.room_id,
        card: { title: 'Lunch?', body: 'Pizza · Sushi', actions: [{ label: 'Vote', deep_link: '/poll?id=p1' }] },
      }),
    ]);
    await host.flush();
    expect(host.ui.toasts).toEqual([{ message: 'Poll posted', kind: 'success' }]);
  });

  test('a declined send is not retried and tells the person', async () => {
    const send = vi.fn(() => false);
    const { app } = setup({ answers: { permission: () => 'granted', send } });
    expect(await app.postToRoom(poll)).toBe(false);
    expect(send).toHaveBeenCalledTimes(1);
    await host.flush();
    expect(host.ui.toasts[0]?.message).toBe('Not posted.');
  });

  test('launched from the home grid (no room) it explains instead of posting', async () => {
    const { app } = setup({ room: null, permissions: { 'room.context': 'granted' } });
    expect(await app.postToRoom(poll)).toBe(false);
    expect(host.callsTo('message.send')).toEqual([]);
  });

  test('reminders ask for notifications at the moment of use; refused means no backend call', async () => {
    const { app, backend } = setup({
      answers: { permission: ({ scope }) => (scope === 'notifications' ? 'denied' : 'granted') },
    });
    expect(await app.enableReminders('p1')).toBe(false);
    expect(backend.fetch).not.toHaveBeenCalled();
    host.setPermission('notifications', 'granted');
    expect(await app.enableReminders('p1')).toBe(true);
    expect(backend.requests[0]?.url).toBe('https://api.polls.example/polls/p1/reminders');
  });

  test('every backend call gets a fresh token', async () => {
    const { app } = setup({ permissions: { notifications: 'granted' } });
    await app.enableReminders('p1');
    await app.enableReminders('p2');
    expect(host.callsTo('auth.getToken')).toHaveLength(2);
    const [a, b] = host.callsTo('auth.getToken').map((c) => (c.result as { access_token: string }).access_token);
    expect(a).not.toBe(b);
  });

  test('a token failure surfaces as the app error path', async () => {
    const { app } = setup({ permissions: { notifications: 'granted' } });
    host.fail('auth.getToken', { code: 'ERR_DISCONNECTED', times: 1 });
    await expect(app.enableReminders('p1')).rejects.toMatchObject({ code: 'ERR_DISCONNECTED', retriable: true });
  });

  test('follows the host theme', async () => {
    const { app } = setup({ theme: 'light' });
    await app.start();
    await host.setTheme('dark');
    expect(app.state.theme).toBe('dark');
  });
});
