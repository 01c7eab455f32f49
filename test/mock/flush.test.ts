// host.flush() waits for what is in flight on the mock channel (messages in transit, notifications' effects), not a
// fixed number of turns; it never waits on a person, an injected fault, a clock or a closed channel.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createMockHost } from '../../src/mock';
import { exchangeManifest, noneManifest } from './fixtures';

afterEach(() => vi.useRealTimers());

describe('flush', () => {
  test('waits for a toast sent after a chain of twenty round trips, which a fixed number of turns did not', async () => {
    const host = createMockHost({ manifest: noneManifest() });
    const chain = (async () => {
      for (let i = 0; i < 20; i++) await host.svc.storage.set(`k${i}`, i);
      host.svc.ui.toast({ message: 'saved twenty' });
    })();
    await host.flush();
    expect(host.ui.toasts.map((t) => t.message)).toEqual(['saved twenty']);
    await chain;
  });

  test('waits for every fire-and-forget call already made, in order', async () => {
    const host = createMockHost({ manifest: noneManifest() });
    for (let i = 0; i < 50; i++) host.svc.ui.setTitle(`title ${i}`);
    await host.flush();
    expect(host.ui.titles).toHaveLength(50);
    expect(host.ui.title).toBe('title 49');
  });

  test('does not wait on a person: a request whose prompt is unanswered leaves flush free', async () => {
    let answer!: (state: 'granted') => void;
    const permission = vi.fn(() => new Promise<'granted'>((resolve) => (answer = resolve)));
    const host = createMockHost({ manifest: exchangeManifest(), answers: { permission } });
    const request = host.svc.permissions.request('files.read');
    await host.flush();
    expect(permission).toHaveBeenCalledTimes(1);
    answer('granted');
    expect(await request).toBe('granted');
  });

  test('does not wait on an injected hang or delay, and works under fake timers', async () => {
    vi.useFakeTimers();
    const host = createMockHost({ manifest: noneManifest(), timeout: 60_000 });
    host.hang('storage.get');
    host.delay('storage.set', 30_000);
    const hung = host.svc.storage.get('k').catch((e) => e);
    const late = host.svc.storage.set('k', 1);
    host.svc.ui.setTitle('still shown');
    await host.flush();
    expect(host.ui.title).toBe('still shown');
    await vi.advanceTimersByTimeAsync(30_000);
    await late;
    expect(host.storage.get('k')).toBe(1);
    host.close();
    expect(await hung).toMatchObject({ code: 'ERR_DISCONNECTED' });
  });

  test('does not wait for a call the client refused before sending (a value that cannot be cloned)', async () => {
    const host = createMockHost({ manifest: noneManifest() });
    await expect(host.svc.storage.set('k', (() => 1) as never)).rejects.toMatchObject({ code: 'ERR_INVALID_ARGUMENT' });
    await host.flush();
    host.svc.ui.setTitle('after');
    await host.flush();
    expect(host.ui.title).toBe('after');
    host.close();
  });

  test('delivers and flushes when fake timers replace queueMicrotask too (as Jest does by default)', async () => {
    vi.useFakeTimers({ toFake: ['queueMicrotask', 'setTimeout', 'setInterval', 'Date'] });
    const host = createMockHost({ manifest: noneManifest() });
    await host.svc.storage.set('k', 1);
    expect(await host.svc.storage.get('k')).toBe(1);
    host.svc.ui.toast({ message: 'under fake timers' });
    await host.flush();
    expect(host.ui.toasts.map((t) => t.message)).toEqual(['under fake timers']);
    host.close();
  });

  test('resolves after close, with messages still in transit', async () => {
    const host = createMockHost({ manifest: noneManifest() });
    host.svc.ui.setTitle('never arrives');
    host.close();
    await host.flush();
    expect(host.ui.title).toBeUndefined();
  });
});
