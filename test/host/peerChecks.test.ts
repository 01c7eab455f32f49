// The host-to-app registry (toApp) is checked by the host before it sends (test/host has those); the app trusts its
// host, except that only `confirmed: true` reads as a person's approval and a theme it cannot style is ignored. The
// app's handler announcement (toHost) is checked by the host on receipt: a malformed one is dropped, never trusted.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSvc } from '../../src/client/createSvc';
import { createHost, createMemoryPair, PEER, WIRE } from '../../src/host';
import { exchangeManifest, noneManifest } from '../mock/fixtures';

// The memory pair delivers in microtasks, which all run before the next macrotask: one turn settles every chain of
// messages, however long.
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the channel registries', () => {
  it("the app takes an invocation's confirmed as true only when it is true, and answers one it cannot read", async () => {
    const [appEnd, hostEnd] = createMemoryPair();
    const { svc } = createSvc({ transport: appEnd, snapshot: {} });
    const seen: unknown[] = [];
    svc.actions.handle('list_polls', (_input, context) => {
      seen.push(context.confirmed);
      return 'ran';
    });
    const answers: any[] = [];
    hostEnd.listen((m) => answers.push(m));
    await settle();
    const invoke = (id: string, params: unknown) => hostEnd.send({ svc: WIRE, id, method: PEER.invoke, params });
    // The host checks what it sends; a host's bug (a string, a missing field) must not read as a person's approval.
    for (const [id, confirmed] of [
      ['x1', 'yes'],
      ['x2', 1],
      ['x3', undefined],
      ['x4', true],
    ] as const)
      invoke(id, { invocation: id, name: 'list_polls', input: {}, context: { invoked_by: 'user', confirmed } });
    // No params at all: answered with an error, and the channel goes on.
    invoke('x5', null);
    invoke('x6', {
      invocation: 'x6',
      name: 'list_polls',
      input: {},
      context: { invoked_by: 'user', confirmed: false },
    });
    await settle();
    expect(seen).toEqual([false, false, false, true, false]);
    const answer = (id: string) => answers.find((m) => m.id === id);
    expect(['x1', 'x2', 'x3', 'x4', 'x6'].map((id) => answer(id).result)).toEqual(Array(5).fill('ran'));
    expect(answer('x5').error).toMatchObject({ code: 'ERR_INTERNAL', message: 'svc.actions.invoke failed' });
  });

  it('the app ignores a malformed theme change', async () => {
    const [appEnd, hostEnd] = createMemoryPair();
    const { svc } = createSvc({ transport: appEnd, snapshot: { app: { theme: 'light' } } as never });
    const seen: string[] = [];
    svc.app.onThemeChange((t) => seen.push(t));
    hostEnd.send({ svc: WIRE, method: PEER.theme, params: { theme: 'sepia' } });
    hostEnd.send({ svc: WIRE, method: PEER.theme, params: { theme: 'dark' } });
    await settle();
    expect(seen).toEqual(['dark']);
  });

  it('the host keeps the last well-formed handler announcement, and drops a malformed one', async () => {
    const [appEnd, hostEnd] = createMemoryPair();
    const host = createHost({ manifest: exchangeManifest(), transport: hostEnd });
    const { svc } = createSvc({ transport: appEnd, snapshot: host.snapshot });
    const off = svc.actions.handle('list_polls', () => null);
    svc.actions.handle('close_poll', () => null);
    await settle();
    expect(host.handledActions().sort()).toEqual(['close_poll', 'list_polls']);
    off();
    await settle();
    expect(host.handledActions()).toEqual(['close_poll']);
    appEnd.send({ svc: WIRE, method: PEER.handlers, params: { names: [7] } });
    await settle();
    expect(host.handledActions()).toEqual(['close_poll']);
  });

  it('an invocation waits for a just-launched app to announce its handlers, then runs', async () => {
    const [appEnd, hostEnd] = createMemoryPair();
    const host = createHost({ manifest: exchangeManifest(), transport: hostEnd, handlerWait: 5_000 });
    const result = host.invokeAction('list_polls', {}, { invoked_by: 'user' });
    await settle();
    // The app loads only now, and registers its handler.
    const { svc } = createSvc({ transport: appEnd, snapshot: host.snapshot });
    svc.actions.handle('list_polls', () => ['p1']);
    expect(await result).toEqual(['p1']);
  });

  it('an invocation made while the app reloads itself waits for the reloaded app and runs there', async () => {
    const [appEnd, hostEnd] = createMemoryPair();
    const host = createHost({ manifest: exchangeManifest(), transport: hostEnd, handlerWait: 5_000 });
    const first = createSvc({ transport: appEnd, snapshot: host.snapshot });
    first.svc.actions.handle('list_polls', () => ['old']);
    await settle();
    // The app leaves (its page says goodbye as it unloads): what it handled is gone with it.
    first.close();
    await settle();
    expect(host.handledActions()).toEqual([]);
    const result = host.invokeAction('list_polls', {}, { invoked_by: 'agent', agent_id: 'a-1' });
    await settle();
    const [againApp, againHost] = createMemoryPair();
    host.attach(againHost);
    createSvc({ transport: againApp, snapshot: host.snapshot }).svc.actions.handle('list_polls', () => ['new']);
    expect(await result).toEqual(['new']);
  });

  it('an invocation whose app left and did not come back is refused as disconnected, safe to call again', async () => {
    const [appEnd, hostEnd] = createMemoryPair();
    const host = createHost({ manifest: exchangeManifest(), transport: hostEnd, handlerWait: 50 });
    const app = createSvc({ transport: appEnd, snapshot: host.snapshot });
    app.svc.actions.handle('list_polls', () => ['p1']);
    await settle();
    app.close();
    await settle();
    await expect(host.invokeAction('list_polls', {}, { invoked_by: 'user' })).rejects.toMatchObject({
      code: 'ERR_DISCONNECTED',
      message: expect.stringContaining('the app left (reload or navigation) and did not come back.'),
      retriable: true,
    });
  });

  it('an operation whose answer the host lacks is not offered, and its call is refused naming that answer', async () => {
    const [appEnd, hostEnd] = createMemoryPair();
    // A host that can ask the person one thing only: whether a message may be sent.
    const host = createHost({
      manifest: exchangeManifest(),
      transport: hostEnd,
      answers: { send: () => true },
      handlers: { 'message.send': () => ({ event_id: '$1' }) },
    });
    const { svc } = createSvc({ transport: appEnd, snapshot: host.snapshot });
    expect(svc.supports('message.send')).toBe(true);
    const asking = ['ui.confirm', 'ui.share', 'permissions.request', 'files.pick'] as const;
    expect(asking.map((name) => svc.supports(name))).toEqual([false, false, false, false]);
    await expect(svc.ui.confirm({ title: 'Delete?', body: 'It cannot be undone.' })).rejects.toMatchObject({
      code: 'ERR_UNSUPPORTED',
      message: 'svc.ui.confirm(): this host cannot ask the person (it gives no answers.confirm).',
    });
    await expect(svc.permissions.request('room.context')).rejects.toMatchObject({
      code: 'ERR_UNSUPPORTED',
      message: 'svc.permissions.request(): this host cannot ask the person (it gives no answers.permission).',
    });
    // Reading a scope's state asks nobody: it is offered.
    expect(await svc.permissions.query('room.context')).toBe('prompt');
  });

  it('refuses in one order: an operation not offered before its scope, whether an answer or an effect is missing', async () => {
    const [appEnd, hostEnd] = createMemoryPair();
    // files.read and files.write are not declared, and the host has neither the pick sheet nor the save effect.
    const host = createHost({ manifest: exchangeManifest(), transport: hostEnd, answers: { send: () => true } });
    const { svc } = createSvc({ transport: appEnd, snapshot: host.snapshot });
    await expect(svc.files.pick({ accept: ['image/png'] })).rejects.toMatchObject({
      code: 'ERR_UNSUPPORTED',
      message: 'svc.files.pick(): this host cannot ask the person (it gives no answers.pick).',
    });
    await expect(svc.files.save({ name: 'a.txt', blob: new Blob(['a']) })).rejects.toMatchObject({
      code: 'ERR_UNSUPPORTED',
    });
    // The auth mode's rule for an auth call the mode has not: svc-exchange has no sign-in.
    await expect(svc.auth.signIn()).rejects.toMatchObject({ code: 'ERR_WRONG_AUTH_MODE' });
  });

  it("refuses params the platform's rules refuse first: before the offer, the scope and the person", async () => {
    const [appEnd, hostEnd] = createMemoryPair();
    // No save effect, no send answer, and files.write undeclared: the name and the card are still the first fault.
    const host = createHost({ manifest: noneManifest(), transport: hostEnd });
    const { svc } = createSvc({ transport: appEnd, snapshot: host.snapshot });
    for (const name of [
      '../x',
      'a/b',
      '..',
      'a\u0001',
      '   ',
      'a\u202eb.txt',
      'a\u200fb.txt',
      'a\u2028b',
      'a\u200bb',
      'a\u2060b.txt',
      'a\u00adb',
      'a\u3164b',
      '\ufe0f',
      '\u2800',
      '\u200d.',
    ])
      await expect(svc.files.save({ name, blob: new Blob(['a']) })).rejects.toMatchObject({
        code: 'ERR_INVALID_ARGUMENT',
      });
    // The joiners of an emoji sequence or a script, a flag's tags and an emoji's variation selector are part of a name.
    for (const name of [
      '👨\u200d👩\u200d👧.txt',
      '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}.txt',
      '❤\ufe0f.txt',
      'क्\u200dष.txt',
    ])
      await expect(svc.files.save({ name, blob: new Blob(['a']) })).rejects.toMatchObject({ code: 'ERR_UNSUPPORTED' });
    const card = (title: string, links: string[]) => ({
      room_id: '!r',
      body: 'Poll',
      card: { title, body: '', actions: links.map((deep_link) => ({ label: 'Open', deep_link })) },
    });
    await expect(svc.message.send(card('x'.repeat(257), []))).rejects.toMatchObject({
      code: 'ERR_INVALID_ARGUMENT',
      message: 'svc.message.send(): card.title has 257 characters: send at most 256.',
    });
    await expect(svc.message.send(card('T', Array(6).fill('/')))).rejects.toMatchObject({
      code: 'ERR_INVALID_ARGUMENT',
      message: 'svc.message.send(): card.actions has 6 actions: send at most 5.',
    });
    await expect(svc.message.send(card('T', ['polls/7']))).rejects.toMatchObject({
      code: 'ERR_INVALID_ARGUMENT',
      message:
        'svc.message.send(): card.actions[0].deep_link "polls/7" does not start with "/": a deep link is a path inside the app; send "/polls/7".',
    });
    // A well-formed card reaches the next rule: this host cannot ask the person to send it.
    await expect(svc.message.send(card('T', ['/']))).rejects.toMatchObject({ code: 'ERR_UNSUPPORTED' });
  });

  it('refuses an auth call the mode has not by the mode, whether or not the host implements it', async () => {
    for (const handlers of [{}, { 'auth.getToken': () => ({ access_token: 't', expires_in: 60 }) }]) {
      const [appEnd, hostEnd] = createMemoryPair();
      const host = createHost({ manifest: noneManifest(), transport: hostEnd, handlers });
      const { svc } = createSvc({ transport: appEnd, snapshot: host.snapshot });
      expect([svc.supports('auth.getToken'), svc.supports('auth.signIn')]).toEqual([false, false]);
      await expect(svc.auth.getToken()).rejects.toMatchObject({
        code: 'ERR_WRONG_AUTH_MODE',
        message: "svc.auth.getToken(): there is no token under auth mode 'none'; the manifest's auth mode decides.",
      });
      await expect(svc.auth.signIn()).rejects.toMatchObject({ code: 'ERR_WRONG_AUTH_MODE' });
    }
  });

  it('past actionTimeout, the app is told to stop the handler, as for a cancel', async () => {
    const [appEnd, hostEnd] = createMemoryPair();
    const host = createHost({ manifest: exchangeManifest(), transport: hostEnd, actionTimeout: 200 });
    const { svc } = createSvc({ transport: appEnd, snapshot: host.snapshot });
    let signal: AbortSignal | undefined;
    // A handler that never answers by itself: only its signal says the host gave up.
    svc.actions.handle('list_polls', (_input, context) => {
      signal = context.signal;
      return new Promise(() => {});
    });
    await settle();
    await expect(host.invokeAction('list_polls', {}, { invoked_by: 'user' })).rejects.toMatchObject({
      code: 'ERR_TIMEOUT',
    });
    await settle();
    expect(signal?.aborted).toBe(true);
  });

  it("refuses the rules' options without the rules, rather than ignore them and let every call through", async () => {
    const core = await import('../../src/host/core');
    const answers = { send: () => false };
    // A host moved from svc-sdk/host to svc-sdk/host/core that kept its options.
    expect(() => core.createHost({ manifest: exchangeManifest(), answers } as never)).toThrow(
      "createHost(): manifest takes effect only with the rules: svc-sdk/host's createHost with the manifest, or svc-sdk/host/core's with rules: withRules({ manifest, validator })",
    );
    // svc-sdk/host without the manifest is the bare bridge, which has no rules to answer with.
    expect(() => createHost({ answers, handlers: {} })).toThrow(
      'createHost(): answers takes effect only with the rules',
    );
    expect(() => createHost({ grants: { get: () => undefined, set: () => {} }, handlers: {} })).toThrow(
      'createHost(): grants takes effect only',
    );
    for (const option of ['storage', 'signedIn', 'handlerWait'])
      expect(() => core.createHost({ handlers: {}, [option]: option === 'signedIn' ? true : 5 } as never)).toThrow(
        `createHost(): ${option} takes effect only with the rules`,
      );
    // Beside the rules, as much ignored: said where it goes.
    const { createInputValidator } = await import('../../src/manifest');
    const rules = core.withRules({ manifest: exchangeManifest(), validator: createInputValidator });
    for (const option of ['storage', 'confirmActions', 'grants', 'answers', 'signedIn', 'handlerWait'])
      expect(() => core.createHost({ handlers: {}, rules, [option]: 'always' } as never)).toThrow(
        `createHost(): ${option} is an option of the rules: pass it to withRules({ manifest, validator, ${option} })`,
      );
    expect(() => core.createHost({ handlers: {}, rules, manifest: {} } as never)).toThrow(
      'createHost(): manifest is an option of the rules: pass it to withRules({ manifest, validator })',
    );
    // A misspelt option would leave its default; `granted` beside the rules would be theirs to overrule.
    expect(() => core.createHost({ handlers: {}, rules, storagE: {} } as never)).toThrow(
      'createHost(): storagE is no option of createHost: its options are rules, handlers, app, transport, granted, onCall, around, actionTimeout, hostOrigin',
    );
    expect(() => core.createHost({ handlers: {}, rules, granted: () => true })).toThrow(
      'createHost(): granted decides scopes without the rules; with them, pass grants to withRules()',
    );
    expect(() =>
      core.withRules({
        manifest: exchangeManifest(),
        validator: createInputValidator,
        confirmAction: 'always',
      } as never),
    ).toThrow(
      'withRules(): confirmAction is no option of the rules: they are manifest, validator, answers, grants, storage, signedIn, confirmActions, handlerWait',
    );
  });

  it('withRules() refuses, as the host is set up, a manifest that would fail open and a validator that is missing', async () => {
    const core = await import('../../src/host/core');
    const { createInputValidator } = await import('../../src/manifest');
    const manifest = exchangeManifest();
    // The key spelt as in prose (`mode`), or a mode not known here: tokens would be handed out to a `none` app.
    for (const auth of [{ mode: 'none' }, { type: 'magic' }, undefined])
      expect(() =>
        core.withRules({ manifest: { ...manifest, auth } as never, validator: createInputValidator }),
      ).toThrow(
        `withRules(): manifest.auth.type is ${JSON.stringify(auth && (auth as { type?: string }).type)}: pass the manifest validateManifest() returns, whose auth.type is svc-exchange, external-oauth, none`,
      );
    expect(() => core.withRules({ manifest: null as never, validator: createInputValidator })).toThrow(
      'withRules(): manifest.auth.type is undefined',
    );
    expect(() => core.withRules({ manifest } as never)).toThrow(
      'withRules(): validator is not a function: pass createInputValidator from svc-sdk/manifest',
    );
  });

  describe('an app that announced other handlers', () => {
    // Only the timeouts are faked: the memory pair delivers on promise turns, and settle() waits for a real turn.
    beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
    afterEach(() => vi.useRealTimers());

    it('is refused a second after its latest announcement, not after the whole handlerWait', async () => {
      const [appEnd, hostEnd] = createMemoryPair();
      const host = createHost({ manifest: exchangeManifest(), transport: hostEnd });
      const { svc } = createSvc({ transport: appEnd, snapshot: host.snapshot });
      svc.actions.handle('close_poll', () => null);
      await settle();
      const result = host.invokeAction('list_polls', {}, { invoked_by: 'agent', agent_id: 'a-1' });
      const outcome = result.then(
        () => 'ran',
        (error) => error.code,
      );
      await settle();
      await vi.advanceTimersByTimeAsync(999);
      expect(await Promise.race([outcome, 'waiting'])).toBe('waiting');
      await vi.advanceTimersByTimeAsync(1);
      expect(await outcome).toBe('ERR_ACTION_NO_HANDLER');
    });

    it('still waits for the rest of its handle() calls, each announcement giving it another second', async () => {
      const [appEnd, hostEnd] = createMemoryPair();
      const host = createHost({ manifest: exchangeManifest(), transport: hostEnd });
      const result = host.invokeAction('list_polls', {}, { invoked_by: 'user' });
      await settle();
      // The app loads its modules one after another: one handler now, one 800 ms later, the invoked one 1.6 s later.
      const { svc } = createSvc({ transport: appEnd, snapshot: host.snapshot });
      svc.actions.handle('close_poll', () => null);
      await vi.advanceTimersByTimeAsync(800);
      svc.actions.handle('delete_poll', () => null);
      await vi.advanceTimersByTimeAsync(800);
      svc.actions.handle('list_polls', () => ['p1']);
      expect(await result).toEqual(['p1']);
    });
  });
});
