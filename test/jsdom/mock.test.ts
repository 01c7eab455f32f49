/**
 * svc-sdk/mock inside Jest's jsdom environment (no node:crypto, Buffer or structuredClone assumed), loaded from the
 * built package as an app's Jest suite would load it.
 */
import { describe, expect, jest, test } from '@jest/globals';
import { exchangeManifest } from '../mock/fixtures';

const { createMockHost, isSvcError } = require('../../dist/mock.cjs');

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (e: unknown) => (isSvcError(e) ? (e as { code: string }).code : String(e)),
  );

describe('svc-sdk/mock under jsdom', () => {
  test('runs in a jsdom window', () => {
    expect(typeof window).toBe('object');
    expect(typeof document.createElement).toBe('function');
  });

  test('storage round-trips JSON and enforces the quota', async () => {
    const host = createMockHost({ manifest: exchangeManifest() });
    await host.svc.storage.set('k', { a: [1, 'two'] });
    expect(await host.svc.storage.get('k')).toEqual({ a: [1, 'two'] });
    expect(await codeOf(host.svc.storage.set('big', 'x'.repeat(300 * 1024)))).toBe('ERR_QUOTA_EXCEEDED');
    host.close();
  });

  test('permissions: a decision sticks; an undeclared scope rejects without prompting', async () => {
    const permission = jest.fn(() => 'granted' as const);
    const host = createMockHost({ manifest: exchangeManifest(), answers: { permission } });
    expect(await host.svc.permissions.query('room.context')).toBe('prompt');
    expect(await host.svc.permissions.request('room.context')).toBe('granted');
    expect(await host.svc.permissions.request('room.context')).toBe('granted');
    expect(permission).toHaveBeenCalledTimes(1);
    expect(await codeOf(host.svc.permissions.request('identity.email'))).toBe('ERR_SCOPE_NOT_DECLARED');
    expect(permission).toHaveBeenCalledTimes(1);
    host.close();
  });

  test('actions: input is checked before the handler, confirmation sets confirmed', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), answers: { confirmAction: () => true } });
    const handler = jest.fn((_input: unknown, context: { confirmed: boolean }) => ({ confirmed: context.confirmed }));
    host.svc.actions.handle('close_poll', handler);
    expect(await codeOf(host.invokeAction('close_poll', {}))).toBe('ERR_ACTION_INVALID_INPUT');
    expect(handler).not.toHaveBeenCalled();
    expect(await host.invokeAction('close_poll', { poll_id: 'p1' })).toEqual({ confirmed: true });
    host.close();
  });

  test("works under Jest's default fake timers, which fake queueMicrotask too", async () => {
    jest.useFakeTimers();
    try {
      const host = createMockHost({ manifest: exchangeManifest() });
      await host.svc.storage.set('k', 1);
      expect(await host.svc.storage.get('k')).toBe(1);
      host.svc.ui.toast({ message: 'saved' });
      await host.flush();
      expect(host.ui.toasts.map((t: { message: string }) => t.message)).toEqual(['saved']);
      host.close();
    } finally {
      jest.useRealTimers();
    }
  });

  test('copies what the app sends as postMessage would, without structuredClone', async () => {
    expect(typeof structuredClone).toBe('undefined');
    const host = createMockHost({ manifest: exchangeManifest() });
    class Item {
      constructor(readonly text: string) {}
    }
    await host.svc.storage.set('item', new Item('milk'));
    expect(await host.svc.storage.get('item')).toEqual({ text: 'milk' });
    const votes: number[] = [];
    votes[2] = 5;
    await host.svc.storage.set('votes', votes);
    expect(await host.svc.storage.get('votes')).toEqual([null, null, 5]);
    // A Map crosses the channel, and the host refuses it where JSON is needed, naming where it is.
    const map = await host.svc.storage.set('m', { m: new Map() }).catch((e: Error) => e.message);
    expect(map).toContain('value.m is a Map, which is not JSON');
    // A function cannot cross: refused before sending, and flush does not wait for it.
    expect(await codeOf(host.svc.storage.set('f', () => 1))).toBe('ERR_INVALID_ARGUMENT');
    await host.flush();
    host.close();
  });

  test('getToken mints a signed token with Web Crypto', async () => {
    const host = createMockHost({ manifest: exchangeManifest() });
    const { access_token } = await host.svc.auth.getToken();
    expect(access_token.split('.')).toHaveLength(3);
    host.close();
  });
});
