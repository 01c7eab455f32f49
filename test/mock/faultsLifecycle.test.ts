import { afterEach, describe, expect, test, vi } from 'vitest';
import { createMockHost, installMockSvc, isSvcError } from '../../src/mock';
import { exchangeManifest, noneManifest, room } from './fixtures';
import { rejectsWith } from './helpers';

const granted = { 'room.context': 'granted' } as const;

describe('fault injection', () => {
  test('fail rejects with the code (retriable from the known codes) for `times` calls, then answers normally', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), room, permissions: granted });
    host.fail('room.current', { code: 'ERR_INTERNAL', times: 1 });
    const error = await rejectsWith(host.svc.room.current(), 'ERR_INTERNAL');
    expect(error.retriable).toBe(true);
    expect(await host.svc.room.current()).toEqual(room);
  });

  test('fail with a custom code and message, until clearFaults', async () => {
    const host = createMockHost({ manifest: noneManifest() });
    host.fail('storage.get', { code: 'ERR_RATE_LIMITED', message: 'slow down' });
    const error = await rejectsWith(host.svc.storage.get('k'), 'ERR_RATE_LIMITED');
    expect(error.message).toMatch(/slow down/);
    await rejectsWith(host.svc.storage.get('k'), 'ERR_RATE_LIMITED');
    host.clearFaults();
    expect(await host.svc.storage.get('k')).toBeUndefined();
  });

  test('delay answers late (fake timers work too)', async () => {
    vi.useFakeTimers();
    try {
      const host = createMockHost({ manifest: noneManifest() });
      host.delay('storage.get', 5000);
      let done = false;
      const pending = host.svc.storage.get('k').then(() => (done = true));
      await vi.advanceTimersByTimeAsync(4000);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1000);
      await pending;
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  test('hang never answers: the client timeout rejects ERR_TIMEOUT', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), timeout: 20 });
    host.hang('identity.get', { times: 1 });
    const error = await rejectsWith(host.svc.identity.get(), 'ERR_TIMEOUT');
    expect(error.retriable).toBe(true);
    expect((await host.svc.identity.get()).tenant_id).toBe('tenant-mock');
  });

  test('handlers replace the mock answer of one operation; removing one makes it unsupported', async () => {
    const host = createMockHost({
      manifest: exchangeManifest(),
      permissions: granted,
      handlers: {
        'room.current': () => ({ room_id: '!other', is_encrypted: false, member_count: 2 }),
        'files.pick': undefined,
      },
    });
    expect(await host.svc.room.current()).toMatchObject({ room_id: '!other' });
    expect(host.svc.supports('files.pick')).toBe(false);
    expect(host.svc.supports('room.current')).toBe(true);
    await rejectsWith(host.svc.files.pick(), 'ERR_UNSUPPORTED');
  });

  test('every rejection is an SvcError, also an answer that threw', async () => {
    const host = createMockHost({
      manifest: noneManifest(),
      answers: {
        confirm: () => {
          throw new Error('oops');
        },
      },
    });
    const error = await rejectsWith(host.svc.ui.confirm({ title: 't', body: 'b' }), 'ERR_MOCK_ANSWER_THREW');
    expect(error.message).toMatch(/answers\.confirm threw: oops/);
    const failures = await Promise.allSettled([
      host.svc.auth.getToken(),
      host.svc.room.current(),
      host.svc.storage.set('k', undefined as never),
      host.svc.permissions.request('room.send'),
      host.invokeAction('x', {}),
    ]);
    for (const f of failures) expect(f.status === 'rejected' && isSvcError(f.reason)).toBe(true);
  });
});

describe('records and lifecycle', () => {
  test('calls records every bridge call with its params and outcome', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), room });
    await host.svc.room.current().catch(() => {});
    await host.svc.storage.set('k', 1);
    expect(host.calls.map(({ method, params }) => ({ method, params }))).toEqual([
      { method: 'room.current', params: {} },
      { method: 'storage.set', params: { key: 'k', value: 1 } },
    ]);
    expect(host.calls[0]!.error?.code).toBe('ERR_SCOPE_NOT_GRANTED');
    expect(host.callsTo('storage.set')[0]!.result).toBeUndefined();
    expect(typeof host.calls[0]!.at).toBe('number');
  });

  test('an invalid manifest throws, naming each problem', () => {
    const manifest = exchangeManifest();
    manifest.id = 'NOT-HEX';
    manifest.auth = { type: 'svc-exchange' };
    expect(() => createMockHost({ manifest })).toThrow(/\$\.id[\s\S]*\$\.auth/);
  });

  test('reset clears the records and faults but keeps state', async () => {
    const host = createMockHost({ manifest: noneManifest() });
    await host.svc.storage.set('k', 1);
    host.svc.ui.toast({ message: 'x' });
    host.fail('storage.get', { code: 'ERR_INTERNAL' });
    await host.flush();
    host.reset();
    expect(host.calls).toEqual([]);
    expect(host.ui.toasts).toEqual([]);
    expect(await host.svc.storage.get('k')).toBe(1);
  });

  test('close rejects pending calls with ERR_DISCONNECTED', async () => {
    const host = createMockHost({ manifest: noneManifest() });
    host.hang('storage.get');
    const pending = host.svc.storage.get('k');
    await host.flush();
    host.close();
    await rejectsWith(pending, 'ERR_DISCONNECTED');
  });

  test('a call after close rejects ERR_DISCONNECTED at once, also when none came before it', async () => {
    // An effect that runs after a test's afterEach(() => host.close()) waited out its 10 s timeout here.
    for (const callFirst of [false, true]) {
      // A call timeout past the test's own: a call left to wait fails the test instead of rejecting.
      const host = createMockHost({ manifest: noneManifest(), timeout: 60_000 });
      if (callFirst) await host.svc.storage.get('k');
      host.close();
      await rejectsWith(host.svc.storage.get('k'), 'ERR_DISCONNECTED');
    }
  });
});

describe('installMockSvc', () => {
  const g = globalThis as { svc?: unknown };
  afterEach(() => void delete g.svc);

  test('puts the host svc on globalThis and uninstall removes it', async () => {
    expect(g.svc).toBeUndefined();
    const host = installMockSvc({ manifest: noneManifest() });
    expect(g.svc).toBe(host.svc);
    await (g.svc as typeof host.svc).storage.set('k', 2);
    expect(host.storage.get('k')).toBe(2);
    host.uninstall();
    expect('svc' in globalThis).toBe(false);
  });

  test('uninstall restores a global that was there before', () => {
    const before = { mine: true };
    g.svc = before;
    const host = installMockSvc({ manifest: noneManifest() });
    host.uninstall();
    host.uninstall();
    expect(g.svc).toBe(before);
  });
});
