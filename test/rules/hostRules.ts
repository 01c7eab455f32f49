// The platform's host rules as behaviour tests, written once and run against every host we ship: the mock
// (svc-sdk/mock) and a bare createHost({ manifest }) with scripted answers, as a real web host would build it.
// A rule that lives in only one of them fails here for the other.
import { describe, expect, test, vi } from 'vitest';
import type { HostAnswers, InvokeContext } from '../../src/host';
import type { PermissionScope, PermissionState, Svc } from '../../src/index';
import { exchangeManifest, type Json, noneManifest, oauthManifest } from '../mock/fixtures';
import { rejectsWith } from '../mock/helpers';

/**
 * The platform a bare host under the suite offers: its effects only (the rules decide what leaves), the same for
 * every host built on svc-sdk/host.
 */
export const SUITE_EFFECTS = {
  'identity.get': () => ({
    app_user_id: 'u-1',
    tenant_id: 't-1',
    locale: 'en',
    display_name: 'Ada',
    email: 'ada@example.com',
  }),
  'auth.getToken': () => ({ access_token: 'opaque-token', expires_in: 300 }),
  'room.current': () => null,
  'message.send': () => ({ event_id: '$1' }),
  'files.save': () => ({ file_id: 'f-1' }),
};

/**
 * `flush()` of a host over the in-memory channel: it delivers in microtasks, which all run before the next
 * macrotask, so one turn settles every chain of messages, however long.
 */
export const nextMacrotask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** What the suite needs of a host under test. */
export interface HostUnderTest {
  svc: Svc;
  invoke(name: string, input: unknown, context?: InvokeContext): Promise<unknown>;
  /** Resolves once messages already sent have arrived (the app's handler announcements). */
  flush(): Promise<void>;
}

/** Options the suite passes; each adapter maps them onto its host. */
export interface HostSetup {
  manifest: Json;
  answers?: HostAnswers;
  permissions?: Partial<Record<PermissionScope, PermissionState>>;
  confirmActions?: 'floor' | 'always';
}

/** Registers the suite under `name` for hosts made by `make`. */
export function describeHostRules(name: string, make: (setup: HostSetup) => HostUnderTest): void {
  describe(`host rules: ${name}`, () => {
    describe('permissions', () => {
      test('declared scopes start at prompt; undeclared ones read denied', async () => {
        const { svc } = make({ manifest: exchangeManifest() });
        expect(await svc.permissions.query('room.context')).toBe('prompt');
        expect(await svc.permissions.query('notifications')).toBe('denied');
      });

      test('requesting an undeclared scope rejects ERR_SCOPE_NOT_DECLARED without prompting', async () => {
        const permission = vi.fn(() => 'granted' as const);
        const { svc } = make({ manifest: exchangeManifest(), answers: { permission } });
        const error = await rejectsWith(svc.permissions.request('notifications'), 'ERR_SCOPE_NOT_DECLARED');
        expect(error.message).toContain('svc.notifications');
        await rejectsWith(svc.permissions.request('identity.email'), 'ERR_SCOPE_NOT_DECLARED');
        expect(permission).not.toHaveBeenCalled();
      });

      test('the sheet shows the purpose; a decision sticks, a denial is not asked again', async () => {
        const permission = vi.fn(
          ({ scope }: { scope: PermissionScope }) =>
            (scope === 'room.context' ? 'granted' : 'denied') as 'granted' | 'denied',
        );
        const { svc } = make({ manifest: exchangeManifest(), answers: { permission } });
        expect(await svc.permissions.request('room.context')).toBe('granted');
        expect(await svc.permissions.request('room.context')).toBe('granted');
        expect(await svc.permissions.request('room.send')).toBe('denied');
        expect(await svc.permissions.request('room.send')).toBe('denied');
        expect(permission).toHaveBeenCalledTimes(2);
        expect(await svc.permissions.query('room.send')).toBe('denied');
      });

      test('two concurrent requests of one scope share one prompt', async () => {
        let answer!: (state: 'granted') => void;
        const permission = vi.fn(() => new Promise<'granted'>((resolve) => (answer = resolve)));
        const { svc, flush } = make({ manifest: exchangeManifest(), answers: { permission } });
        const both = Promise.all([svc.permissions.request('files.read'), svc.permissions.request('files.read')]);
        await flush();
        answer('granted');
        expect(await both).toEqual(['granted', 'granted']);
        expect(permission).toHaveBeenCalledTimes(1);
      });

      test('an operation whose scope is not granted rejects and never prompts by itself', async () => {
        const permission = vi.fn(() => 'granted' as const);
        const { svc } = make({ manifest: exchangeManifest(), answers: { permission } });
        const error = await rejectsWith(svc.room.current(), 'ERR_SCOPE_NOT_GRANTED');
        expect(error.message).toContain("svc.permissions.request('room.context')");
        expect(permission).not.toHaveBeenCalled();
      });

      test('the advice never sends the app to request() in a loop', async () => {
        // A denied scope gets advice to degrade, not to ask again; an undeclared one, what to declare.
        const denied = make({ manifest: exchangeManifest(), permissions: { 'room.context': 'denied' } });
        const error = await rejectsWith(denied.svc.room.current(), 'ERR_SCOPE_NOT_GRANTED');
        expect(error.message).not.toContain('permissions.request');
        expect(error.message).toMatch(/denied/);
        const manifest = exchangeManifest();
        manifest.permissions = manifest.permissions.filter((p: { scope: string }) => p.scope !== 'svc.room.context');
        const undeclared = make({ manifest });
        const advice = await rejectsWith(undeclared.svc.room.current(), 'ERR_SCOPE_NOT_GRANTED');
        expect(advice.message).toContain('svc.room.context');
        expect(advice.message).not.toContain("request('room.context')");
      });
    });

    describe('identity and auth', () => {
      test('identity fields by granted scope', async () => {
        const plain = make({ manifest: exchangeManifest() });
        const bare = await plain.svc.identity.get();
        expect(bare.display_name).toBeUndefined();
        expect(bare.avatar_url).toBeUndefined();
        expect(bare.app_user_id).toBeTruthy();
        const granted = make({ manifest: exchangeManifest(), permissions: { 'identity.basic': 'granted' } });
        const full = await granted.svc.identity.get();
        expect(full.display_name).toBeTruthy();
        expect(full.email).toBeUndefined();
      });

      test('getToken under auth none rejects ERR_WRONG_AUTH_MODE; signIn outside external-oauth too', async () => {
        const none = make({ manifest: noneManifest() });
        await rejectsWith(none.svc.auth.getToken(), 'ERR_WRONG_AUTH_MODE');
        const exchange = make({ manifest: exchangeManifest() });
        await rejectsWith(exchange.svc.auth.signIn(), 'ERR_WRONG_AUTH_MODE');
        expect(await exchange.svc.auth.state()).toBe('signed-in');
        // Neither is offered, so an app that detects features leaves them out.
        expect([none.svc.supports('auth.getToken'), exchange.svc.supports('auth.signIn')]).toEqual([false, false]);
        expect(exchange.svc.supports('auth.getToken')).toBe(true);
        const oauth = make({ manifest: oauthManifest(), answers: { signIn: () => true } });
        expect([oauth.svc.supports('auth.signIn'), oauth.svc.supports('auth.getToken')]).toEqual([true, true]);
      });

      test('external-oauth: signed out until the person signs in', async () => {
        const signIn = vi.fn(() => true);
        const { svc } = make({ manifest: oauthManifest(), answers: { signIn } });
        await rejectsWith(svc.auth.getToken(), 'ERR_SIGNED_OUT');
        await svc.auth.signIn();
        expect(await svc.auth.state()).toBe('signed-in');
        expect((await svc.auth.getToken()).access_token).toBeTruthy();
        await svc.auth.signIn();
        expect(signIn).toHaveBeenCalledTimes(1);
      });
    });

    describe('sending and storage', () => {
      test('every send is confirmed by the person; a refusal rejects ERR_PERMISSION_DENIED', async () => {
        const send = vi.fn().mockReturnValueOnce(true).mockReturnValueOnce(false);
        const { svc } = make({
          manifest: exchangeManifest(),
          answers: { send },
          permissions: { 'room.send': 'granted' },
        });
        await svc.message.send({ room_id: '!r', body: 'one' });
        await rejectsWith(svc.message.send({ room_id: '!r', body: 'two' }), 'ERR_PERMISSION_DENIED');
        expect(send).toHaveBeenCalledTimes(2);
      });

      test("only true is a yes: a <dialog>'s returnValue or another truthy answer sends and signs in nothing", async () => {
        // What an HTML <dialog> gives as its returnValue, and what a careless UI layer may.
        for (const no of ['cancel', 'false', 1]) {
          const answer = () => no as never;
          const { svc } = make({
            manifest: exchangeManifest(),
            answers: { send: answer },
            permissions: { 'room.send': 'granted' },
          });
          await rejectsWith(svc.message.send({ room_id: '!r', body: 'one' }), 'ERR_PERMISSION_DENIED');
          const oauth = make({ manifest: oauthManifest(), answers: { signIn: answer } });
          await rejectsWith(oauth.svc.auth.signIn(), 'ERR_PERMISSION_DENIED');
          expect(await oauth.svc.auth.state()).toBe('signed-out');
        }
      });

      test('a message the platform would refuse is refused naming the field, before the person is asked', async () => {
        const send = vi.fn(() => true);
        const manifest = exchangeManifest();
        manifest.routes.push({ path: '/poll/:id', title: 'Poll' }, { path: '/café', title: 'Café' });
        const { svc } = make({ manifest, answers: { send }, permissions: { 'room.send': 'granted' } });
        const card = (deep_link: string) => ({
          room_id: '!r',
          body: 'A poll',
          card: { title: 'Lunch?', body: 'Vote', actions: [{ label: 'Open', deep_link }] },
        });
        const refused = async (message: Parameters<Svc['message']['send']>[0], sentence: string) => {
          const error = await rejectsWith(svc.message.send(message), 'ERR_INVALID_ARGUMENT');
          expect(error.message).toBe(`svc.message.send(): ${sentence}`);
        };
        await refused({ room_id: '!r', body: '😀'.repeat(10_001) }, 'body has 10001 characters: send at most 10000.');
        await refused(
          card('javascript:alert(1)'),
          'card.actions[0].deep_link "javascript:alert(1)" is a URL, not a path inside the app: send the path of a route manifest.json declares, such as "/".',
        );
        await refused(
          card('//evil.example/poll/1'),
          'card.actions[0].deep_link "//evil.example/poll/1" is a URL, not a path inside the app: send the path of a route manifest.json declares, such as "/".',
        );
        await refused(
          card('/poll/%E0'),
          'card.actions[0].deep_link "/poll/%E0" has malformed percent-encoding: encode each segment of its path with encodeURIComponent.',
        );
        // A fragment would reach the app inside the poll's id ("7#votes").
        await refused(
          card('/poll/7#votes'),
          'card.actions[0].deep_link "/poll/7#votes" has a fragment ("#votes"), which no route holds: drop it, or send what it says as a query parameter (?section=…), or percent-encode a # that belongs to a value (%23).',
        );
        await refused(
          { room_id: '!r', body: 'x', card: { title: 'T\ud800', body: '' } },
          'card.title holds half of a character (a lone surrogate) at character 2: send whole characters.',
        );
        expect(send).not.toHaveBeenCalled();
        // At its bounds, and with a link as a URL library writes it, the message is asked and sent.
        await svc.message.send({ room_id: '!r', body: '😀'.repeat(10_000) });
        await svc.message.send(card('/caf%C3%A9?tab=1'));
        await svc.message.send(card('/poll/7'));
        await svc.message.send(card('/poll/7%23votes'));
        expect(send).toHaveBeenCalledTimes(4);
      });

      test('a file is saved under a file name: a path, a control or reordering character, or nothing visible is refused', async () => {
        const { svc } = make({ manifest: exchangeManifest(), permissions: { 'files.write': 'granted' } });
        const save = (name: string) => svc.files.save({ name, blob: new Blob(['42'], { type: 'text/plain' }) });
        const refused = async (name: string, sentence: string) => {
          const error = await rejectsWith(save(name), 'ERR_INVALID_ARGUMENT');
          expect(error.message).toBe(`svc.files.save(): ${sentence}`);
        };
        await refused(
          '../../etc/passwd',
          'name "../../etc/passwd" is a path: send a file name alone, such as "passwd".',
        );
        await refused('a\\b.txt', 'name "a\\\\b.txt" is a path: send a file name alone, such as "b.txt".');
        await refused('..', 'name ".." is no file name: send one such as "result.txt".');
        await refused(
          'invoice\u202efdp.exe',
          'name "invoice\\u202efdp.exe" holds U+202E at character 8, which would show another name than the one saved: remove it.',
        );
        await refused(
          'a\u0000.txt',
          'name "a\\u0000.txt" holds U+0000 at character 2, which would show another name than the one saved: remove it.',
        );
        await refused(
          '\u200b',
          'name "\\u200b" shows nothing (only spaces or invisible characters): send a visible name.',
        );
        expect(await save('Résumé 2026.pdf')).toEqual({ file_id: expect.any(String) });
      });

      test('storage keeps JSON and refuses to pass the 256 KB quota', async () => {
        const { svc } = make({ manifest: exchangeManifest() });
        await svc.storage.set('a', { n: 1 });
        expect(await svc.storage.get('a')).toEqual({ n: 1 });
        await rejectsWith(svc.storage.set('big', 'x'.repeat(256 * 1024)), 'ERR_QUOTA_EXCEEDED');
        expect(await svc.storage.get('big')).toBeUndefined();
      });
    });

    describe('actions', () => {
      const handled = async (setup: HostSetup) => {
        const host = make(setup);
        const seen: { input: unknown; context: unknown }[] = [];
        for (const action of ['list_polls', 'create_poll', 'delete_poll', 'close_poll'])
          host.svc.actions.handle(action, (input, context) => {
            seen.push({ input, context });
            return { ok: action };
          });
        await host.flush();
        return { ...host, seen };
      };

      test('an undeclared action rejects ERR_ACTION_NOT_DECLARED', async () => {
        const host = await handled({ manifest: exchangeManifest() });
        await rejectsWith(host.invoke('drop_tables', {}), 'ERR_ACTION_NOT_DECLARED');
      });

      test('input is checked against input_schema before the person or the handler sees it', async () => {
        const confirmAction = vi.fn(() => true);
        const host = await handled({ manifest: exchangeManifest(), answers: { confirmAction } });
        await rejectsWith(host.invoke('close_poll', { poll_id: 7 }), 'ERR_ACTION_INVALID_INPUT');
        expect(confirmAction).not.toHaveBeenCalled();
        expect(host.seen).toEqual([]);
      });

      test('an action without a registered handler rejects before anyone is asked', async () => {
        const confirmAction = vi.fn(() => true);
        const host = make({ manifest: exchangeManifest(), answers: { confirmAction } });
        await rejectsWith(host.invoke('close_poll', { poll_id: 'p' }), 'ERR_ACTION_NO_HANDLER');
        expect(confirmAction).not.toHaveBeenCalled();
      });

      test('the confirm floor: always and if_destructive ask, never does not; confirmed only when approved', async () => {
        const confirmAction = vi.fn(() => true);
        const host = await handled({ manifest: exchangeManifest(), answers: { confirmAction } });
        await host.invoke('list_polls', {});
        await host.invoke('create_poll', { question: 'q', options: ['a', 'b'] });
        expect(confirmAction).not.toHaveBeenCalled();
        await host.invoke('close_poll', { poll_id: 'p' });
        await host.invoke('delete_poll', { poll_id: 'p' });
        expect(confirmAction).toHaveBeenCalledTimes(2);
        expect(host.seen.map((s) => (s.context as { confirmed: boolean }).confirmed)).toEqual([
          false,
          false,
          true,
          true,
        ]);
      });

      test('a refused confirmation rejects ERR_PERMISSION_DENIED and the handler never runs', async () => {
        const host = await handled({ manifest: exchangeManifest(), answers: { confirmAction: () => false } });
        await rejectsWith(host.invoke('close_poll', { poll_id: 'p' }), 'ERR_PERMISSION_DENIED');
        expect(host.seen).toEqual([]);
      });

      test("a stricter policy ('always') confirms every invocation", async () => {
        const confirmAction = vi.fn(() => true);
        const host = await handled({
          manifest: exchangeManifest(),
          answers: { confirmAction },
          confirmActions: 'always',
        });
        await host.invoke('list_polls', {});
        expect(confirmAction).toHaveBeenCalledTimes(1);
        expect((host.seen[0]!.context as { confirmed: boolean }).confirmed).toBe(true);
      });

      test('an agent invocation must name its agent, and the handler sees who invoked it', async () => {
        const host = await handled({ manifest: exchangeManifest() });
        // A type error too: checked at run time for a JavaScript host.
        await rejectsWith(host.invoke('list_polls', {}, { invoked_by: 'agent' } as never), 'ERR_INVALID_ARGUMENT');
        await host.invoke('list_polls', {}, { invoked_by: 'agent', agent_id: 'agent-7' });
        expect(host.seen[0]!.context).toEqual({
          invoked_by: 'agent',
          agent_id: 'agent-7',
          confirmed: false,
          signal: expect.any(AbortSignal),
        });
      });

      test('an output that does not fit output_schema rejects ERR_ACTION_FAILED', async () => {
        const manifest = exchangeManifest();
        manifest.actions[0].output_schema = { type: 'object', required: ['polls'] };
        const host = await handled({ manifest });
        await rejectsWith(host.invoke('list_polls', {}), 'ERR_ACTION_FAILED');
      });

      test('an output that is no JSON (the handler returned nothing) rejects ERR_ACTION_FAILED, saying so', async () => {
        const manifest = exchangeManifest();
        manifest.actions[0].output_schema = { type: 'object', required: ['polls'] };
        const host = make({ manifest });
        host.svc.actions.handle('list_polls', () => undefined as never);
        await host.flush();
        await expect(host.invoke('list_polls', {})).rejects.toMatchObject({
          code: 'ERR_ACTION_FAILED',
          message: expect.stringContaining(
            "invokeAction('list_polls'): the handler's output does not fit output_schema: $ is undefined, which is not JSON",
          ),
        });
      });
    });
  });
}
