import { describe, expect, test, vi } from 'vitest';
import { createMockHost, deriveAppUserId } from '../../src/mock';
import { exchangeManifest, room } from './fixtures';
import { rejectsWith } from './helpers';

describe('identity.get', () => {
  test('without identity.basic it returns only app_user_id, tenant_id and locale', async () => {
    const host = createMockHost({
      manifest: exchangeManifest(),
      identity: { display_name: 'Ada', email: 'ada@x.example' },
      locale: 'de-CH',
    });
    const me = await host.svc.identity.get();
    expect(me).toEqual({ app_user_id: me.app_user_id, tenant_id: 'tenant-mock', locale: 'de-CH' });
  });

  test('with identity.basic granted it adds display_name and avatar_url, never email', async () => {
    const host = createMockHost({
      manifest: exchangeManifest(),
      identity: {
        display_name: 'Ada',
        avatar_url: 'https://a.example/ada.png',
        email: 'ada@x.example',
        tenant_id: 't-1',
      },
      permissions: { 'identity.basic': 'granted' },
    });
    const me = await host.svc.identity.get();
    expect(me).toMatchObject({ display_name: 'Ada', avatar_url: 'https://a.example/ada.png', tenant_id: 't-1' });
    expect(me).not.toHaveProperty('email');
  });

  test('app_user_id is the HMAC of the user and the mini app id: stable per app, different across apps', async () => {
    const other = { ...exchangeManifest(), id: 'fedcba9876543210' };
    const a1 = await createMockHost({ manifest: exchangeManifest(), userId: 'u-42' }).svc.identity.get();
    const a2 = await createMockHost({ manifest: exchangeManifest(), userId: 'u-42' }).svc.identity.get();
    const b = await createMockHost({ manifest: other, userId: 'u-42' }).svc.identity.get();
    expect(a1.app_user_id).toBe(a2.app_user_id);
    expect(a1.app_user_id).toBe(deriveAppUserId('u-42', '0123456789abcdef'));
    expect(a1.app_user_id).toMatch(/^[0-9a-f]{64}$/);
    expect(b.app_user_id).not.toBe(a1.app_user_id);
  });

  test('an app_user_id given in the options is used as it is', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), identity: { app_user_id: 'fixed' } });
    expect((await host.svc.identity.get()).app_user_id).toBe('fixed');
  });
});

describe('room.current', () => {
  test('is null by default (launched from the home grid)', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), permissions: { 'room.context': 'granted' } });
    expect(await host.svc.room.current()).toBeNull();
  });

  test('returns the configured room', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), room, permissions: { 'room.context': 'granted' } });
    expect(await host.svc.room.current()).toEqual(room);
  });
});

describe('message.send', () => {
  const granted = { 'room.send': 'granted' } as const;
  test('asks answers.send on every send and records confirmed messages', async () => {
    const send = vi.fn(() => true);
    const host = createMockHost({ manifest: exchangeManifest(), room, permissions: granted, answers: { send } });
    const card = { title: 'Lunch?', body: 'Vote', actions: [{ label: 'Vote', deep_link: '/' }] };
    const first = await host.svc.message.send({ room_id: room.room_id, body: 'one', card });
    await host.svc.message.send({ room_id: room.room_id, body: 'two' });
    expect(send).toHaveBeenCalledTimes(2);
    expect(host.sent).toEqual([
      { room_id: room.room_id, body: 'one', card, event_id: first.event_id },
      { room_id: room.room_id, body: 'two', event_id: expect.any(String) },
    ]);
  });

  test('a refused send rejects ERR_PERMISSION_DENIED and sends nothing', async () => {
    const host = createMockHost({
      manifest: exchangeManifest(),
      room,
      permissions: granted,
      answers: { send: () => false },
    });
    await rejectsWith(host.svc.message.send({ room_id: room.room_id, body: 'x' }), 'ERR_PERMISSION_DENIED');
    expect(host.sent).toEqual([]);
  });
});

describe('files', () => {
  const permissions = { 'files.read': 'granted', 'files.write': 'granted' } as const;
  const files = [
    { name: 'a.csv', type: 'text/csv', content: 'x,y' },
    { name: 'b.png', type: 'image/png' },
    { name: 'c.csv', type: 'text/csv', content: 'z' },
  ];

  test('pick offers the configured files filtered by accept: the first, or all with multiple', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), permissions, files });
    const [one, ...rest] = await host.svc.files.pick({ accept: ['text/csv'] });
    expect(rest).toEqual([]);
    expect(one).toMatchObject({ name: 'a.csv', type: 'text/csv', size: 3 });
    expect(await one!.blob.text()).toBe('x,y');
    expect((await host.svc.files.pick({ accept: ['text/*'], multiple: true })).map((f) => f.name)).toEqual([
      'a.csv',
      'c.csv',
    ]);
    // Nothing to offer: the person can only cancel, and the test is told which option gives files.
    const none = await rejectsWith(host.svc.files.pick({ accept: ['application/pdf'] }), 'ERR_CANCELLED');
    expect(none.message).toMatch(/offered no file that accept \["application\/pdf"\] allows.*createMockHost\(\{ files/);
    const empty = createMockHost({ manifest: exchangeManifest(), permissions });
    expect((await rejectsWith(empty.svc.files.pick(), 'ERR_CANCELLED')).message).toMatch(
      /^svc\.files\.pick\(\): the picker offered no file, so the person cancelled; pass createMockHost/,
    );
  });

  test('answers.pick chooses among the offered files, and null cancels with ERR_CANCELLED', async () => {
    let cancel = false;
    const host = createMockHost({
      manifest: exchangeManifest(),
      permissions,
      files,
      answers: { pick: ({ offered }) => (cancel ? null : offered.slice(-1)) },
    });
    expect((await host.svc.files.pick()).map((f) => f.name)).toEqual(['c.csv']);
    cancel = true;
    await rejectsWith(host.svc.files.pick(), 'ERR_CANCELLED');
  });

  test('save is recorded with its content', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), permissions });
    const { file_id } = await host.svc.files.save({ name: 'results.csv', blob: new Blob(['yes,3']) });
    expect(host.saved).toHaveLength(1);
    expect(host.saved[0]).toMatchObject({ file_id, name: 'results.csv' });
    expect(await host.saved[0]!.blob.text()).toBe('yes,3');
  });
});
