import { describe, expect, test, vi } from 'vitest';
import { createMockHost } from '../../src/mock';
import { exchangeManifest, room } from './fixtures';
import { rejectsWith } from './helpers';

describe('permissions', () => {
  test('declared scopes start at prompt unless the options set them', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), permissions: { 'room.send': 'denied' } });
    expect(await host.svc.permissions.query('room.context')).toBe('prompt');
    expect(await host.svc.permissions.query('room.send')).toBe('denied');
  });

  test('request of a declared scope asks answers.permission and resolves what the person answered', async () => {
    const permission = vi.fn(
      ({ scope }: { scope: string }) => (scope === 'room.context' ? 'granted' : 'denied') as 'granted' | 'denied',
    );
    const host = createMockHost({ manifest: exchangeManifest(), answers: { permission } });
    expect(await host.svc.permissions.request('room.context')).toBe('granted');
    expect(await host.svc.permissions.request('files.read')).toBe('denied');
    // The host's sheet request: the short scope, the manifest scope and the manifest's purpose.
    expect(permission.mock.calls.map(([request]) => request.scope)).toEqual(['room.context', 'files.read']);
    expect(permission.mock.calls[0]![0]).toMatchObject({ manifestScope: 'svc.room.context' });
    expect(await host.svc.permissions.query('room.context')).toBe('granted');
  });

  test('an answer may be a promise', async () => {
    const host = createMockHost({
      manifest: exchangeManifest(),
      answers: { permission: async () => 'granted' as const },
    });
    expect(await host.svc.permissions.request('identity.basic')).toBe('granted');
  });

  test('a decided scope is not asked again: granted stays granted, denied stays denied', async () => {
    const permission = vi.fn(() => 'denied' as const);
    const host = createMockHost({
      manifest: exchangeManifest(),
      answers: { permission },
      permissions: { 'room.context': 'granted' },
    });
    expect(await host.svc.permissions.request('room.context')).toBe('granted');
    expect(await host.svc.permissions.request('room.send')).toBe('denied');
    expect(await host.svc.permissions.request('room.send')).toBe('denied');
    expect(permission).toHaveBeenCalledTimes(1);
  });

  test('an undeclared scope rejects ERR_SCOPE_NOT_DECLARED without prompting', async () => {
    const permission = vi.fn(() => 'granted' as const);
    const manifest = exchangeManifest();
    manifest.permissions = manifest.permissions.filter((p: { scope: string }) => p.scope !== 'svc.room.context');
    const host = createMockHost({ manifest, answers: { permission } });
    await rejectsWith(host.svc.permissions.request('room.context'), 'ERR_SCOPE_NOT_DECLARED');
    await rejectsWith(host.svc.permissions.request('notifications'), 'ERR_SCOPE_NOT_DECLARED');
    expect(permission).not.toHaveBeenCalled();
    expect(await host.svc.permissions.query('room.context')).toBe('denied');
  });

  test('identity.email and camera have no manifest scope, so they can never be declared or granted', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), answers: { permission: () => 'granted' } });
    const error = await rejectsWith(host.svc.permissions.request('identity.email'), 'ERR_SCOPE_NOT_DECLARED');
    expect(error.message).toMatch(/no manifest scope/);
    await rejectsWith(host.svc.permissions.request('camera'), 'ERR_SCOPE_NOT_DECLARED');
    expect(() => createMockHost({ manifest: exchangeManifest(), permissions: { camera: 'granted' } })).toThrow(
      /no manifest scope/,
    );
  });

  test('granting an undeclared scope in the options throws, naming the manifest scope to add', () => {
    expect(() => createMockHost({ manifest: exchangeManifest(), permissions: { notifications: 'granted' } })).toThrow(
      /svc\.notifications/,
    );
  });

  test('an operation whose scope is not granted rejects ERR_SCOPE_NOT_GRANTED and does not prompt', async () => {
    const permission = vi.fn(() => 'granted' as const);
    const host = createMockHost({ manifest: exchangeManifest(), room, answers: { permission, send: () => true } });
    await rejectsWith(host.svc.room.current(), 'ERR_SCOPE_NOT_GRANTED');
    await rejectsWith(host.svc.message.send({ room_id: room.room_id, body: 'hi' }), 'ERR_SCOPE_NOT_GRANTED');
    await rejectsWith(host.svc.files.pick(), 'ERR_SCOPE_NOT_GRANTED');
    await rejectsWith(host.svc.files.save({ name: 'a.txt', blob: new Blob(['a']) }), 'ERR_SCOPE_NOT_GRANTED');
    expect(permission).not.toHaveBeenCalled();
    expect(host.sent).toEqual([]);
  });

  test('a scope revoked in settings (setPermission) makes the operation reject again', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), room, permissions: { 'room.context': 'granted' } });
    expect(await host.svc.room.current()).toEqual(room);
    host.setPermission('room.context', 'denied');
    await rejectsWith(host.svc.room.current(), 'ERR_SCOPE_NOT_GRANTED');
    expect(host.permission('room.context')).toBe('denied');
  });

  test('a prompt without an answer rejects ERR_MOCK_UNANSWERED naming answers.permission', async () => {
    const host = createMockHost({ manifest: exchangeManifest() });
    const error = await rejectsWith(host.svc.permissions.request('room.context'), 'ERR_MOCK_UNANSWERED');
    expect(error.message).toMatch(/answers\.permission/);
    expect(host.unanswered).toEqual(['permission']);
    expect(await host.svc.permissions.query('room.context')).toBe('prompt');
  });
});
