// The host-to-app registry (toApp) is checked by the app on receipt, and the app's handler announcement (toHost)
// by the host: a malformed message is refused, never trusted.
import { describe, expect, it } from 'vitest';
import { createSvc } from '../../src/client/createSvc';
import { createHost, createMemoryPair, PEER, WIRE } from '../../src/host';
import { exchangeManifest } from '../mock/fixtures';

// The memory pair delivers in microtasks, which all run before the next macrotask: one turn settles every chain of
// messages, however long.
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the channel registries', () => {
  it('the app answers a malformed actions.invoke with ERR_INVALID_ARGUMENT and never runs the handler', async () => {
    const [appEnd, hostEnd] = createMemoryPair();
    const { svc } = createSvc({ transport: appEnd, snapshot: {} });
    let ran = false;
    svc.actions.handle('list_polls', () => {
      ran = true;
    });
    const answers: any[] = [];
    hostEnd.listen((m) => answers.push(m));
    await settle();
    const context = { invoked_by: 'someone', confirmed: 'yes' };
    hostEnd.send({
      svc: WIRE,
      id: 'x1',
      method: PEER.invoke,
      params: { invocation: 'i', name: 'list_polls', input: {}, context },
    });
    await settle();
    const answer = answers.find((m) => m.id === 'x1');
    expect(answer.error).toMatchObject({ code: 'ERR_INVALID_ARGUMENT' });
    expect(answer.error.message).toContain('context.invoked_by');
    expect(ran).toBe(false);
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
});
