// A host that dies without a word (its port gone, no close message): the client probes, closes the dead channel
// instead of timing out on every later call forever, fails a waiting prompt well before its ten minutes, and
// connects again on the next call, as a reload does.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSvc } from '../../src/index';
import { createHost, createMemoryPair, NATIVE_CONTRACT, portTransport } from '../../src/host/index';

const g = globalThis as any;
const app = { id: 'abcdefabcdefabcd', version: '1.0.0', locale: 'en', theme: 'light' as const, launch_params: {} };

afterEach(() => {
  vi.useRealTimers();
  delete g.window;
  delete g.__svc_port;
});

/** A native-style port (a plain object, as the native adapter leaves it) that can go silent both ways. */
function silenceablePort(state: 'signed-in' | 'signed-out') {
  const channel = new MessageChannel();
  const line = { silent: false };
  const port = {
    version: NATIVE_CONTRACT,
    onmessage: null as ((e: MessageEvent) => void) | null,
    postMessage(message: unknown) {
      if (!line.silent) channel.port1.postMessage(message);
    },
    // A native bridge cannot be closed from the page; the next endpoint uses the same one.
    close() {},
  };
  channel.port1.onmessage = (e) => !line.silent && port.onmessage?.(e);
  const host = createHost({ app, handlers: { 'auth.state': () => state } });
  host.attach(portTransport(channel.port2));
  return { port, line, channel };
}

describe('a dead channel', () => {
  it('fails a waiting prompt after a probe goes unanswered, not after its ten minutes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const [appEnd, hostEnd] = createMemoryPair();
    // A host that received the call and then died: it never answers anything again, and sends no close.
    hostEnd.listen(() => {});
    const { svc } = createSvc({ transport: appEnd, snapshot: { methods: ['ui.confirm'] }, timeout: 1000 });
    const prompt = svc.ui.confirm({ title: 't', body: 'b' }).catch((e) => e);
    let settled = false;
    void prompt.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(900);
    expect(settled).toBe(false); // a prompt may wait; nothing is decided before the default timeout
    // One default timeout for the probe to be sent, one more for it to go unanswered (and the sweep's tenth).
    await vi.advanceTimersByTimeAsync(2200);
    expect(await prompt).toMatchObject({ code: 'ERR_DISCONNECTED', retriable: true });
    expect((await prompt).message).toContain('peer gone');
  });

  it('keeps the channel when the host answers the probe: a slow person is not a dead host', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const [appEnd, hostEnd] = createMemoryPair();
    let answer!: (v: boolean) => void;
    createHost({
      app,
      transport: hostEnd,
      handlers: { 'ui.confirm': () => new Promise<boolean>((r) => (answer = r)) },
    });
    const { svc } = createSvc({ transport: appEnd, snapshot: { methods: ['ui.confirm'] }, timeout: 1000 });
    const prompt = svc.ui.confirm({ title: 't', body: 'b' });
    await vi.advanceTimersByTimeAsync(30_000); // many probes, all answered
    answer(true);
    expect(await prompt).toBe(true);
  });

  it('connects again on the next call once the probe found the channel dead', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const first = silenceablePort('signed-in');
    g.window = g;
    g.__svc_port = first.port;
    const { svc } = createSvc({ timeout: 1000 });
    expect(await svc.auth.state()).toBe('signed-in');
    first.line.silent = true; // the first bridge dies without a close message, for good
    const lost = svc.auth.state().catch((e) => e);
    await vi.advanceTimersByTimeAsync(4400); // the call times out, the probe goes unanswered
    expect(await lost).toMatchObject({ code: 'ERR_TIMEOUT' });
    // The platform installs a new bridge (as after a reload); only a closed channel lets the next call find it.
    const second = silenceablePort('signed-out');
    g.__svc_port = second.port;
    expect(await svc.auth.state()).toBe('signed-out');
    first.channel.port1.close();
    second.channel.port1.close();
  });
});
