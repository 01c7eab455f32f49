import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSvc, isSvcError, SvcError } from '../../src/index';
import { PEER, WIRE } from '../../src/host/index';
import { answers, connect, settle } from '../helpers/connect';

describe('errors', () => {
  let c: ReturnType<typeof connect>;
  afterEach(() => {
    c?.close();
    vi.useRealTimers();
  });

  it.each([
    ['storage.set', (s: any) => s.storage.set('', 1), 'key must be a non-empty string'],
    ['storage.set', (s: any) => s.storage.set('k', Number.NaN), 'value is NaN, which is not JSON'],
    ['storage.set', (s: any) => s.storage.set('k', { when: new Date() }), 'value.when is a Date, which is not JSON'],
    ['storage.get', (s: any) => s.storage.get(7), 'key must be a non-empty string'],
    ['message.send', (s: any) => s.message.send({ body: 'x' }), 'room_id must be a non-empty string'],
    [
      'message.send',
      (s: any) => s.message.send({ room_id: 'r', body: 'x', card: { title: 't' } }),
      'card.body must be a string',
    ],
    ['message.send', (s: any) => s.message.send({ room_id: 'r', body: 'x', extra: 1 }), 'unknown field extra'],
    ['files.pick', (s: any) => s.files.pick({ accept: 'image/png' }), 'accept must be an array'],
    ['files.save', (s: any) => s.files.save({ name: 'a', blob: 'text' }), 'blob must be a Blob'],
    ['ui.confirm', (s: any) => s.ui.confirm({ title: 'x' }), 'body must be a string'],
    ['ui.openExternal', (s: any) => s.ui.openExternal('javascript:alert(1)'), 'url must be an http(s) URL'],
    ['ui.share', (s: any) => s.ui.share({ title: 't', url: 'file:///etc/passwd' }), 'url must be an http(s) URL'],
    ['permissions.query', (s: any) => s.permissions.query('location'), 'scope must be one of'],
    ['permissions.request', (s: any) => s.permissions.request(), 'scope must be one of'],
  ])(
    '%s: the host rejects a bad argument with ERR_INVALID_ARGUMENT naming the field (%#)',
    async (method, run, text) => {
      c = connect();
      const error = await run(c.svc).catch((e: unknown) => e);
      expect(isSvcError(error)).toBe(true);
      expect(error).toMatchObject({ code: 'ERR_INVALID_ARGUMENT', retriable: false, method });
      expect(error.message).toContain(`svc.${method}(): `);
      expect(error.message).toContain(text);
      // The host received the call, refused it, and never ran its handler.
      expect(c.calls.map((call) => call.method)).toEqual([method]);
      expect(c.seen).toEqual([]);
    },
  );

  it.each([
    ['ui.toast', (s: any) => s.ui.toast({ message: 'x', kind: 'warning' })],
    ['ui.setTitle', (s: any) => s.ui.setTitle(5)],
    ['actions.progress', (s: any) => s.actions.progress(5)],
  ])('%s, which returns void, throws ERR_INVALID_ARGUMENT synchronously', async (_method, run) => {
    c = connect();
    expect(() => run(c.svc)).toThrow(SvcError);
    await settle();
    expect(c.calls).toEqual([]);
  });

  it('maps a host error to an SvcError, keeping codes it does not know', async () => {
    c = connect('memory', {
      handlers: {
        'room.current': () => {
          throw new SvcError('ERR_FROM_THE_FUTURE', 'a newer host says no', true);
        },
      },
    });
    const e = await c.svc.room.current().catch((x) => x);
    expect(e).toBeInstanceOf(SvcError);
    expect(e).toMatchObject({ code: 'ERR_FROM_THE_FUTURE', retriable: true, method: 'room.current' });
    expect(e.message).toBe('svc.room.current(): a newer host says no');
  });

  it('turns a host handler crash into a retriable ERR_INTERNAL without its message or stack', async () => {
    c = connect('memory', {
      handlers: {
        'identity.get': () => {
          throw new Error(`db at postgres://admin:hunter2@10.0.0.1 failed`);
        },
      },
    });
    const e = await c.svc.identity.get().catch((x) => x);
    expect(e).toMatchObject({ code: 'ERR_INTERNAL', retriable: true });
    expect(e.message).not.toContain('hunter2');
  });

  it('rejects an operation the host does not offer with ERR_UNSUPPORTED', async () => {
    c = connect('memory', { handlers: {} });
    await expect(c.svc.files.pick()).rejects.toMatchObject({
      code: 'ERR_UNSUPPORTED',
      retriable: false,
      method: 'files.pick',
    });
  });

  it('rejects with ERR_SCOPE_NOT_GRANTED when the host says a needed scope is not granted', async () => {
    c = connect('memory', { host: { granted: (scope) => scope !== 'room.context' } });
    await expect(c.svc.room.current()).rejects.toMatchObject({
      code: 'ERR_SCOPE_NOT_GRANTED',
      message: expect.stringContaining("permissions.request('room.context')"),
    });
    await expect(c.svc.message.send({ room_id: 'r', body: 'b' })).resolves.toEqual({ event_id: '$e1' });
  });

  it('reports a host handler that answers the wrong shape to the host, not as garbage in the app', async () => {
    c = connect('memory', { handlers: { 'room.current': () => ({ room: 'nope' }) as never } });
    await expect(c.svc.room.current()).rejects.toMatchObject({
      code: 'ERR_INTERNAL',
      message: expect.stringContaining('malformed answer'),
    });
  });

  it("passes on only an answer's documented fields: a host's own room object keeps its internal token", async () => {
    const room = { room_id: '!r', is_encrypted: false, member_count: 3, admin_token: 'tok-secret', at: new Date() };
    const file = { file_id: 'f1', name: 'a.txt', type: 'text/plain', size: 1, blob: new Blob(['a']), path: '/srv/a' };
    c = connect('memory', {
      handlers: {
        'room.current': () => room,
        'message.send': async () => ({ event_id: '$e', server_secret: 'x' }),
        'files.pick': () => [file],
        'auth.getToken': () => ({ ...answers.token, refresh_token: 'r-secret' }),
      },
    });
    expect(await c.svc.room.current()).toEqual({ room_id: '!r', is_encrypted: false, member_count: 3 });
    expect(await c.svc.message.send({ room_id: '!r', body: 'hi' })).toEqual({ event_id: '$e' });
    const [picked] = await c.svc.files.pick();
    expect(Object.keys(picked!).sort()).toEqual(['blob', 'file_id', 'name', 'size', 'type']);
    expect(await c.svc.auth.getToken()).toEqual(answers.token);
    // The host's own object is left as it was.
    expect(room.admin_token).toBe('tok-secret');
  });

  it('times out a call the host never answers with a retriable ERR_TIMEOUT naming the call', async () => {
    // Fake clocks, not wall-clock bounds: it must not fire before its deadline, and must fire after it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    c = connect('memory', { handlers: { 'storage.get': () => new Promise(() => {}) }, client: { timeout: 50 } });
    let settled = false;
    const pending = c.svc.storage.get('k').catch((x) => x);
    void pending.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(40);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(settled).toBe(true);
    const e = await pending;
    expect(e).toMatchObject({ code: 'ERR_TIMEOUT', retriable: true, method: 'storage.get' });
    expect(e.message).toMatch(/^svc\.storage\.get\(\): no answer within 50 ms/);
  });

  it('gives person-paced calls the long prompt timeout instead of the short one', async () => {
    vi.useFakeTimers();
    c = connect('memory', {
      handlers: { 'ui.confirm': () => new Promise(() => {}) },
      client: { timeout: 100, promptTimeout: 60_000 },
    });
    const result = c.svc.ui.confirm({ title: 't', body: 'b' }).catch((e) => e);
    await vi.advanceTimersByTimeAsync(30_000);
    const early = await Promise.race([result, Promise.resolve('pending')]);
    expect(early).toBe('pending');
    await vi.advanceTimersByTimeAsync(31_000);
    expect(await result).toMatchObject({ code: 'ERR_TIMEOUT' });
  });

  it('never puts a token into an error message, whoever wrote it', async () => {
    const jwt = answers.token.access_token;
    c = connect('memory', {
      handlers: {
        'auth.getToken': () => {
          throw new SvcError('ERR_RATE_LIMITED', `refused token ${jwt} (Authorization: Bearer abc.def-123)`, true);
        },
      },
    });
    const e = await c.svc.auth.getToken().catch((x) => x);
    expect(e.code).toBe('ERR_RATE_LIMITED');
    expect(e.message).not.toContain(jwt);
    expect(e.message).not.toContain('abc.def-123');
    expect(e.message).toContain('[redacted]');
    c.svc.actions.handle('leaky', () => {
      throw new Error(`upstream rejected ${jwt}`);
    });
    const fromAction: any = await c.host
      .invokeAction('leaky', {}, { invoked_by: 'user', confirmed: false })
      .catch((x) => x);
    expect(fromAction.message).not.toContain(jwt);
  });

  it('rejects a malformed error answer with ERR_PROTOCOL and ignores answers to ids it never sent', async () => {
    c = connect('memory', { client: { timeout: 200 } });
    // Take over the host's end of the pipe, so the test answers (or not) each call by hand.
    const inbound: any[] = [];
    await settle();
    c.hostEnd.listen((m) => inbound.push(m));
    const first = c.svc.storage.get('first').catch((e) => e);
    const second = c.svc.storage.get('second').catch((e) => e);
    await settle();
    // The calls only: the client also announces its action handlers on a new channel.
    const [a, b] = inbound.filter((m) => m.id !== undefined);
    c.hostEnd.send({ svc: WIRE, id: 'not-a-call', result: 'forged' });
    c.hostEnd.send({ svc: WIRE, id: b.id, error: 'not an error object' });
    c.hostEnd.send({ svc: WIRE, id: b.id, result: 'a second answer to a settled call' });
    expect(await second).toMatchObject({ code: 'ERR_PROTOCOL', method: 'storage.get' });
    expect(await first).toMatchObject({ code: 'ERR_TIMEOUT' });
    expect(a.params).toEqual({ key: 'first' });
  });

  it('isSvcError recognises an SvcError made by another copy of the SDK, and nothing else', () => {
    // Another copy of the SDK has its own class; the brand is a global symbol every copy shares.
    class OtherCopy extends Error {
      code = 'ERR_TIMEOUT';
    }
    Object.defineProperty(OtherCopy.prototype, Symbol.for('svc-sdk.error'), { value: 'SvcError' });
    const foreign = new OtherCopy('x');
    expect(isSvcError(foreign)).toBe(true);
    expect(foreign instanceof SvcError).toBe(true);
    expect(isSvcError(Object.assign(new Error('x'), { name: 'SvcError', code: 'ERR_TIMEOUT' }))).toBe(false);
    expect(isSvcError(new Error('x'))).toBe(false);
    expect(isSvcError({ name: 'SvcError', code: 'ERR_TIMEOUT' })).toBe(false);
    expect(isSvcError(null)).toBe(false);
    // A brand that is an object: no conversion to a string, so no throw and no match.
    const brand = Symbol.for('svc-sdk.error');
    expect(isSvcError({ [brand]: new String('SvcError') })).toBe(false);
    expect(() => isSvcError({ [brand]: { toString: new String('') } })).not.toThrow();
    expect(() => ({ [brand]: { toString: 1 } }) instanceof SvcError).not.toThrow();
  });

  it('rejects every pending call with ERR_DISCONNECTED when the host closes, and later calls too', async () => {
    c = connect('channel', { handlers: { 'ui.confirm': () => new Promise(() => {}) } });
    const pending = c.svc.ui.confirm({ title: 't', body: 'b' }).catch((e) => e);
    await settle();
    c.host.close();
    expect(await pending).toMatchObject({ code: 'ERR_DISCONNECTED', retriable: true, method: 'ui.confirm' });
  });

  it('rejects pending calls when the client is closed, and later calls at once', async () => {
    c = connect('memory', { handlers: { 'ui.confirm': () => new Promise(() => {}) } });
    const pending = c.svc.ui.confirm({ title: 't', body: 'b' }).catch((e) => e);
    c.client.close();
    expect(await pending).toMatchObject({ code: 'ERR_DISCONNECTED', retriable: true });
    expect(await c.svc.auth.state().catch((e) => e)).toMatchObject({ code: 'ERR_DISCONNECTED', method: 'auth.state' });
  });

  it('refuses a value that cannot be cloned before sending it, with ERR_INVALID_ARGUMENT', async () => {
    c = connect();
    const e: any = await c.svc.storage.set('k', (() => 1) as never).catch((x) => x);
    expect(e).toMatchObject({ code: 'ERR_INVALID_ARGUMENT', retriable: false, method: 'storage.set' });
    expect(e.message).toMatch(/^svc\.storage\.set\(\): not sendable: /);
    await settle();
    expect(c.calls).toEqual([]);
  });

  it('reports a value that cannot be cloned as ERR_INVALID_ARGUMENT, not a hang', async () => {
    c = connect('channel', { handlers: { 'actions.elicit': () => 1 } });
    c.svc.actions.handle('clone', () => c.svc.actions.elicit({ prompt: 'p', schema: { f: () => 1 } as never }));
    const e: any = await c.host.invokeAction('clone', {}, { invoked_by: 'user', confirmed: false }).catch((x) => x);
    expect(e.code).toBe('ERR_INVALID_ARGUMENT');
  });

  it('fails fast with ERR_NO_HOST where there is no window (SSR, Node), and importing did not throw', async () => {
    expect(typeof window).toBe('undefined');
    const { svc } = createSvc();
    const e = await svc.room.current().catch((x) => x);
    expect(e).toMatchObject({ code: 'ERR_NO_HOST', retriable: false, method: 'room.current' });
    // Which case it is, and no "undefined" where no host origin could be known.
    expect(e.message).toBe('svc.room.current(): no window (SSR, Node): call svc in a browser');
    expect(svc.app.theme).toBe('light');
    expect(svc.supports('room.current')).toBe(false);
  });

  it('ignores notifications for unknown methods and host-to-app calls it does not handle', async () => {
    c = connect();
    c.hostEnd.send({ svc: WIRE, method: 'no.such.thing', params: {} });
    c.hostEnd.send({ svc: WIRE, method: PEER.theme, params: { theme: 'purple' } });
    await settle();
    expect(c.svc.app.theme).toBe('light');
    expect(await c.svc.auth.state()).toBe('signed-in');
    // The same on the open channel (the sends above came before the first call opened it), and a String object is
    // not a theme either (a loose comparison would let it through, as an object); the string is.
    c.hostEnd.send({ svc: WIRE, method: PEER.theme, params: { theme: 'purple' } });
    c.hostEnd.send({ svc: WIRE, method: PEER.theme, params: { theme: new String('dark') } });
    await settle();
    expect(c.svc.app.theme).toBe('light');
    c.hostEnd.send({ svc: WIRE, method: PEER.theme, params: { theme: 'dark' } });
    await settle();
    expect(c.svc.app.theme).toBe('dark');
  });
});
