import { describe, expect, test, vi } from 'vitest';
import { createMockHost, createMockStore, STORAGE_QUOTA } from '../../src/mock';
import { noneManifest } from './fixtures';
import { rejectsWith } from './helpers';

describe('storage', () => {
  test('keeps JSON values, returns copies, and undefined for a missing key', async () => {
    const { svc } = createMockHost({ manifest: noneManifest() });
    const note = { title: 'a', tags: ['x'], done: false, n: 1.5, nothing: null };
    await svc.storage.set('note', note);
    note.title = 'changed after set';
    expect(await svc.storage.get('note')).toEqual({ title: 'a', tags: ['x'], done: false, n: 1.5, nothing: null });
    expect(await svc.storage.get('missing')).toBeUndefined();
    await svc.storage.remove('note');
    expect(await svc.storage.get('note')).toBeUndefined();
  });

  test('rejects values that are not JSON with ERR_INVALID_ARGUMENT', async () => {
    const { svc } = createMockHost({ manifest: noneManifest() });
    await rejectsWith(svc.storage.set('d', new Date() as never), 'ERR_INVALID_ARGUMENT');
    // The first place that is not JSON, named, in a large value.
    const items = Array.from({ length: 50 }, (_, i) => ({ text: `item ${i}`, when: i === 37 ? new Date() : 'today' }));
    const error = await rejectsWith(svc.storage.set('list', { items } as never), 'ERR_INVALID_ARGUMENT');
    expect(error.message).toBe(
      'svc.storage.set(): value.items[37].when is a Date, which is not JSON: send strings, finite numbers, booleans, null, arrays and plain objects.',
    );
    for (const [value, said] of [
      [{ n: Number.NaN }, 'value.n is NaN'],
      [{ a: undefined }, 'value.a is undefined'],
      [{ m: new Map() }, 'value.m is a Map'],
      [[1, new Set()], 'value[1] is a Set'],
      [{ name: 'caf\udc00' }, 'value.name holds a lone surrogate'],
    ] as const)
      expect((await rejectsWith(svc.storage.set('x', value as never), 'ERR_INVALID_ARGUMENT')).message).toContain(said);
  });

  test('a forgotten manifest option is named as the option', () => {
    expect(() => createMockHost({} as never)).toThrow(
      'createMockHost(): options.manifest is required: pass the parsed manifest.json (import manifest from "./manifest.json").',
    );
  });

  test('data survives across hosts only when they share a store', async () => {
    const storage = createMockStore();
    await createMockHost({ manifest: noneManifest(), storage }).svc.storage.set('k', 1);
    expect(await createMockHost({ manifest: noneManifest(), storage }).svc.storage.get('k')).toBe(1);
    expect(await createMockHost({ manifest: noneManifest() }).svc.storage.get('k')).toBeUndefined();
  });

  test('a set past the 256 KB quota rejects ERR_QUOTA_EXCEEDED naming the size and the limit, and stores nothing', async () => {
    const host = createMockHost({ manifest: noneManifest() });
    await host.svc.storage.set('big', 'x'.repeat(200_000));
    const error = await rejectsWith(host.svc.storage.set('more', 'y'.repeat(70_000)), 'ERR_QUOTA_EXCEEDED');
    expect(error.message).toMatch(/2\d{5} bytes/);
    expect(error.message).toContain(String(STORAGE_QUOTA));
    expect(await host.svc.storage.get('more')).toBeUndefined();
    // A value whose JSON is longer than a string can be (a sparse array of 2^28 items) is over the quota too, not
    // an internal error an app would retry.
    const huge = await rejectsWith(host.svc.storage.set('huge', new Array(2 ** 28) as never), 'ERR_QUOTA_EXCEEDED');
    expect([huge.retriable, huge.message]).toEqual([
      false,
      `svc.storage.set(): storing 'huge' would use more bytes than a string holds, over the ${STORAGE_QUOTA}-byte (256 KB) quota; remove keys, or keep larger data on your backend.`,
    ]);
    // Replacing a value counts the new size, not both.
    await host.svc.storage.set('big', 'x'.repeat(250_000));
    await host.svc.storage.clear();
    expect(host.storage.bytes).toBe(0);
  });

  test('the quota counts UTF-8 bytes', () => {
    const store = createMockStore();
    store.set('k', 'é'); // "é" in quotes: 4 bytes, plus the key's 1
    expect(store.bytes).toBe(5);
  });
});

describe('ui', () => {
  test('titles, toasts, opened URLs, shares and close are recorded', async () => {
    const host = createMockHost({ manifest: noneManifest() });
    const { svc } = host;
    svc.ui.setTitle('Notes');
    svc.ui.toast({ message: 'Saved', kind: 'success' });
    svc.ui.toast({ message: 'Hello' });
    await svc.ui.openExternal('https://example.com/help');
    await svc.ui.share({ title: 'My note', url: 'https://example.com/n/1' });
    svc.ui.close();
    await host.flush();
    expect(host.ui).toMatchObject({
      title: 'Notes',
      titles: ['Notes'],
      toasts: [
        { message: 'Saved', kind: 'success' },
        { message: 'Hello', kind: 'info' },
      ],
      opened: ['https://example.com/help'],
      shares: [{ title: 'My note', url: 'https://example.com/n/1' }],
      closed: 1,
    });
  });

  test('confirm asks answers.confirm and resolves its answer', async () => {
    const confirm = vi.fn(({ title }: { title: string }) => title === 'Delete?');
    const host = createMockHost({ manifest: noneManifest(), answers: { confirm } });
    expect(await host.svc.ui.confirm({ title: 'Delete?', body: 'Gone for good' })).toBe(true);
    expect(await host.svc.ui.confirm({ title: 'Other', body: '' })).toBe(false);
    expect(host.ui.confirms.map((c) => c.answer)).toEqual([true, false]);
  });

  test('confirm without answers.confirm rejects ERR_MOCK_UNANSWERED', async () => {
    const host = createMockHost({ manifest: noneManifest() });
    const error = await rejectsWith(host.svc.ui.confirm({ title: 't', body: 'b' }), 'ERR_MOCK_UNANSWERED');
    expect(error.message).toContain('answers.confirm');
  });

  test('a dismissed share sheet rejects ERR_CANCELLED', async () => {
    const host = createMockHost({ manifest: noneManifest(), answers: { share: () => false } });
    await rejectsWith(host.svc.ui.share({ title: 't', url: 'https://example.com' }), 'ERR_CANCELLED');
    expect(host.ui.shares).toEqual([]);
  });

  test('setTheme resolves after onThemeChange ran and svc.app.theme follows', async () => {
    const host = createMockHost({ manifest: noneManifest(), theme: 'light', launchParams: { poll: '7' } });
    const seen: string[] = [];
    host.svc.app.onThemeChange((t) => seen.push(t));
    expect(host.svc.app.theme).toBe('light');
    await host.setTheme('dark');
    expect(seen).toEqual(['dark']);
    expect(host.svc.app.theme).toBe('dark');
    expect(host.svc.app.launchParams).toEqual({ poll: '7' });
    expect(host.svc.app.id).toBe('0123456789abcdef');
  });
});
