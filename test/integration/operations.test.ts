import { afterEach, describe, expect, it } from 'vitest';
import { answers, connect, settle, transports } from '../helpers/connect';

describe.each(Object.keys(transports) as (keyof typeof transports)[])(
  'every operation over the %s transport',
  (kind) => {
    let c: ReturnType<typeof connect>;
    afterEach(() => c?.close());

    it('answers the synchronous members from the launch snapshot', () => {
      c = connect(kind);
      const { svc } = c;
      expect(svc.version).toBe('1.0');
      expect([svc.app.id, svc.app.version, svc.app.locale, svc.app.theme]).toEqual([
        '0123456789abcdef',
        '1.2.3',
        'en-GB',
        'light',
      ]);
      expect(svc.app.launchParams).toEqual({ poll: '7' });
    });

    it('answers supports() from what the host advertised, not from a static table', () => {
      c = connect(kind, { handlers: { 'room.current': () => null } });
      expect(c.svc.supports('room.current')).toBe(true);
      expect(c.svc.supports('files.pick')).toBe(false);
      expect(c.svc.supports('camera.take')).toBe(false);
    });

    it('supports() takes the name with or without svc., and answers for the members the app side provides', () => {
      c = connect(kind, { handlers: { 'room.current': () => null } });
      expect(c.svc.supports('svc.room.current')).toBe(true);
      expect(c.svc.supports('svc.files.pick')).toBe(false);
      for (const member of [
        'actions.handle',
        'app.onThemeChange',
        'app.theme',
        'app.launchParams',
        'version',
        'svc.supports',
      ])
        expect(c.svc.supports(member), member).toBe(true);
      for (const member of ['actions.elicit', 'room.foo', 'app.toString', '__proto__', 'constructor.keys', '', 'svc.'])
        expect(c.svc.supports(member), member).toBe(false);
    });

    it('sends identity, auth and room calls with empty params and returns the answers', async () => {
      c = connect(kind);
      const { svc, seen } = c;
      expect(await svc.identity.get()).toEqual(answers.identity);
      expect(await svc.auth.getToken()).toEqual(answers.token);
      await expect(svc.auth.signIn()).resolves.toBeUndefined();
      await expect(svc.auth.signOut()).resolves.toBeUndefined();
      expect(await svc.auth.state()).toBe('signed-in');
      expect(await svc.room.current()).toEqual(answers.room);
      expect(seen.map((s) => s.method)).toEqual([
        'identity.get',
        'auth.getToken',
        'auth.signIn',
        'auth.signOut',
        'auth.state',
        'room.current',
      ]);
      expect(seen.every((s) => JSON.stringify(s.params) === '{}')).toBe(true);
    });

    it('asks the host for a token on every call: nothing is cached', async () => {
      c = connect(kind);
      await c.svc.auth.getToken();
      await c.svc.auth.getToken();
      expect(c.seen.filter((s) => s.method === 'auth.getToken')).toHaveLength(2);
    });

    it('sends a message with its card', async () => {
      c = connect(kind);
      const message = {
        room_id: '!r:example.org',
        body: 'Vote',
        card: { title: 'Poll', body: 'Lunch?', actions: [{ label: 'Open', deep_link: '/poll/7' }] },
      };
      expect(await c.svc.message.send(message)).toEqual({ event_id: '$e1' });
      expect(c.seen).toEqual([{ method: 'message.send', params: message }]);
    });

    it('picks files with their content and saves a Blob', async () => {
      c = connect(kind);
      const [file] = await c.svc.files.pick({ accept: ['text/plain'], multiple: false });
      expect(file).toMatchObject({ file_id: 'f1', name: 'a.txt', type: 'text/plain', size: 2 });
      expect(await file!.blob.text()).toBe('hi');
      await expect(c.svc.files.pick()).resolves.toHaveLength(1);
      expect(await c.svc.files.save({ name: 'b.txt', blob: new Blob(['yo']) })).toEqual({ file_id: 'f2' });
      const saved = c.seen.find((s) => s.method === 'files.save')!.params as { name: string; blob: Blob };
      expect(saved.name).toBe('b.txt');
      expect(await saved.blob.text()).toBe('yo');
      expect(c.seen.filter((s) => s.method === 'files.pick').map((s) => s.params)).toEqual([
        { accept: ['text/plain'], multiple: false },
        {},
      ]);
    });

    it('sends the fire-and-forget UI members synchronously and the awaited ones as calls', async () => {
      c = connect(kind);
      const { svc, seen } = c;
      expect(svc.ui.setTitle('Polls')).toBeUndefined();
      expect(svc.ui.toast({ message: 'Saved', kind: 'success' })).toBeUndefined();
      expect(svc.ui.close()).toBeUndefined();
      expect(await svc.ui.confirm({ title: 'Sure?', body: 'Delete the poll' })).toBe(true);
      await expect(svc.ui.openExternal('https://example.com/help')).resolves.toBeUndefined();
      await expect(svc.ui.share({ title: 'Poll', url: 'https://example.com/p/7' })).resolves.toBeUndefined();
      await settle();
      expect(seen).toEqual([
        { method: 'ui.setTitle', params: { title: 'Polls' } },
        { method: 'ui.toast', params: { message: 'Saved', kind: 'success' } },
        { method: 'ui.close', params: {} },
        { method: 'ui.confirm', params: { title: 'Sure?', body: 'Delete the poll' } },
        { method: 'ui.openExternal', params: { url: 'https://example.com/help' } },
        { method: 'ui.share', params: { title: 'Poll', url: 'https://example.com/p/7' } },
      ]);
    });

    it('maps positional storage arguments to named params', async () => {
      c = connect(kind);
      const { svc, seen } = c;
      expect(await svc.storage.get('k')).toEqual({ n: 1 });
      await svc.storage.set('k', { list: [1, 'two', null, true] });
      await svc.storage.remove('k');
      await svc.storage.clear();
      expect(seen.map((s) => s.params)).toEqual([
        { key: 'k' },
        { key: 'k', value: { list: [1, 'two', null, true] } },
        { key: 'k' },
        {},
      ]);
    });

    it('queries and requests permissions by short scope', async () => {
      c = connect(kind);
      expect(await c.svc.permissions.query('room.context')).toBe('prompt');
      expect(await c.svc.permissions.request('room.send')).toBe('granted');
      expect(c.seen.map((s) => s.params)).toEqual([{ scope: 'room.context' }, { scope: 'room.send' }]);
    });

    it('delivers host theme changes to onThemeChange listeners and updates svc.app.theme', async () => {
      c = connect(kind);
      const heard: string[] = [];
      const stop = c.svc.app.onThemeChange((t) => heard.push(t));
      c.host.setTheme('dark');
      await settle();
      expect(heard).toEqual(['dark']);
      expect(c.svc.app.theme).toBe('dark');
      stop();
      c.host.setTheme('light');
      await settle();
      expect(heard).toEqual(['dark']);
      expect(c.svc.app.theme).toBe('light');
    });
  },
);
