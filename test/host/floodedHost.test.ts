// An app that floods its host (a loop of calls that never awaits) through the real client and host: past 256 calls
// waiting for their answers, another is refused at once, retriable, and the host serves the app again as they settle.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSvc, isSvcError } from '../../src/index';
import { createHost, createMemoryPair } from '../../src/host/index';

const app = { id: '0123456789abcdef', version: '1.0.0', locale: 'en', theme: 'light' as const, launch_params: {} };

describe('a host flooded by its app', () => {
  it('refuses a call over 256 waiting ones at once with ERR_RATE_LIMITED, and serves again as they settle', async () => {
    const held: Array<() => void> = [];
    const host = createHost({
      app,
      handlers: {
        'storage.get': ({ key }) =>
          new Promise((answer, refuse) => {
            held.push(() => (key === 'fail' ? refuse(new Error('no')) : answer(1)));
          }),
      },
    });
    const [hostEnd, appEnd] = createMemoryPair();
    host.attach(hostEnd);
    const { svc } = createSvc({ transport: appEnd, snapshot: host.snapshot, timeout: 10_000 });
    const settled = (call: Promise<unknown>) =>
      call.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
    const failing = settled(svc.storage.get('fail'));
    const calls = Array.from({ length: 299 }, () => settled(svc.storage.get('k')));
    const refused = await Promise.race([Promise.all(calls.slice(255)), new Promise((wait) => setTimeout(wait, 2000))]);
    expect(held).toHaveLength(256);
    expect(refused).toHaveLength(44);
    for (const { error } of refused as Array<{ error: unknown }>) {
      expect(isSvcError(error) && [error.code, error.retriable, error.message]).toEqual([
        'ERR_RATE_LIMITED',
        true,
        'svc.storage.get(): 256 calls wait for their answers: await some before making more.',
      ]);
    }
    // A failed call frees its place as an answered one does.
    held.shift()!();
    expect(await failing).toMatchObject({ error: expect.anything() });
    const next = settled(svc.storage.get('k'));
    await new Promise((wait) => setTimeout(wait, 50));
    expect(held).toHaveLength(256);
    for (const release of held.splice(0)) release();
    const answers = await Promise.all([...calls.slice(0, 255), next]);
    expect(answers.every((r) => 'value' in r && r.value === 1)).toBe(true);
  });

  afterEach(() => vi.useRealTimers());

  it("stops counting a call the app no longer waits for: past the client's default timeout, or on a new channel", async () => {
    // A host handler that never settles (a backend call without a timeout of its own).
    let reached = 0;
    const host = createHost({ app, handlers: { 'identity.get': () => new Promise(() => void reached++) } });
    const connect = () => {
      const [hostEnd, appEnd] = createMemoryPair();
      host.attach(hostEnd);
      return createSvc({ transport: appEnd, snapshot: host.snapshot, timeout: 600_000 }).svc;
    };
    const refusal = (call: Promise<unknown>) =>
      Promise.race([
        call.then(
          () => 'answered',
          (error: unknown) => (isSvcError(error) ? error.code : String(error)),
        ),
        new Promise((wait) => setTimeout(() => wait('waiting'), 200)),
      ]);
    vi.useFakeTimers({ toFake: ['Date'] });
    let svc = connect();
    for (let i = 0; i < 256; i++) void svc.identity.get().catch(() => {});
    expect(await refusal(svc.identity.get())).toBe('ERR_RATE_LIMITED');
    expect(reached).toBe(256);
    // The app's client gives up after its default 10 s: the host no longer counts them.
    vi.setSystemTime(Date.now() + 10_001);
    expect(await refusal(svc.identity.get())).toBe('waiting');
    expect(reached).toBe(257);
    for (let i = 0; i < 255; i++) void svc.identity.get().catch(() => {});
    expect(await refusal(svc.identity.get())).toBe('ERR_RATE_LIMITED');
    // The app reloads (a new channel): the old channel's calls are nobody's, and the new page is served at once.
    svc = connect();
    expect(await refusal(svc.identity.get())).toBe('waiting');
    expect(reached).toBe(513);
  });
});
