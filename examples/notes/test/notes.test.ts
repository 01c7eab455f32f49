// Quick Notes (auth none) in Vitest, through the global svc as the shipped app uses it.
import { createMockStore, installMockSvc, type InstalledMockSvc } from 'svc-sdk/mock';
import { afterEach, describe, expect, test } from 'vitest';
import manifest from '../manifest.json';
// @ts-expect-error: plain JavaScript without a declaration file
import { createNotes } from '../src/notes.cjs';

let host: InstalledMockSvc;
afterEach(() => host.uninstall());

describe('Quick Notes', () => {
  test('adds a note, stores it, toasts and updates the title', async () => {
    host = installMockSvc({ manifest });
    const notes = createNotes();
    expect(await notes.add('Buy milk')).toBe(true);
    await host.flush();
    expect(host.storage.get('notes')).toEqual([{ id: 1, text: 'Buy milk' }]);
    expect(host.ui.toasts).toEqual([{ message: 'Saved', kind: 'success' }]);
    expect(host.ui.title).toBe('Notes (1)');
  });

  test('notes survive a relaunch (a shared store), and only then', async () => {
    const storage = createMockStore();
    host = installMockSvc({ manifest, storage });
    await createNotes().add('Kept');
    host.uninstall();
    host = installMockSvc({ manifest, storage });
    expect(await createNotes().load()).toEqual([{ id: 1, text: 'Kept' }]);
    host.uninstall();
    host = installMockSvc({ manifest });
    expect(await createNotes().load()).toEqual([]);
  });

  test('a full storage shows an error instead of losing the note silently', async () => {
    host = installMockSvc({ manifest, storage: createMockStore({ notes: [{ id: 1, text: 'x'.repeat(262_100) }] }) });
    expect(await createNotes().add('one more')).toBe(false);
    await host.flush();
    expect(host.ui.toasts).toEqual([{ message: 'Storage is full: delete some notes first.', kind: 'error' }]);
  });

  test('deleting asks for confirmation; a "no" keeps the note', async () => {
    let answer = false;
    host = installMockSvc({
      manifest,
      storage: createMockStore({ notes: [{ id: 1, text: 'Keep me?' }] }),
      answers: { confirm: () => answer },
    });
    const notes = createNotes();
    expect(await notes.remove(1)).toBe(false);
    expect(host.ui.confirms).toEqual([{ title: 'Delete note?', body: 'Keep me?', answer: false }]);
    answer = true;
    expect(await notes.remove(1)).toBe(true);
    expect(host.storage.get('notes')).toEqual([]);
  });

  test('retries a load once when the host says the failure is retriable', async () => {
    host = installMockSvc({ manifest });
    host.fail('storage.get', { code: 'ERR_INTERNAL', times: 1 });
    expect(await createNotes().load()).toEqual([]);
    expect(host.callsTo('storage.get').map((c) => c.error?.code)).toEqual(['ERR_INTERNAL', undefined]);
  });

  test('opens help in the system browser and shares the app', async () => {
    host = installMockSvc({ manifest });
    const notes = createNotes();
    await notes.help();
    await notes.recommend();
    expect(host.ui.opened).toEqual(['https://notes.example/help']);
    expect(host.ui.shares).toEqual([{ title: 'Quick Notes', url: 'https://notes.example' }]);
  });

  test('has no token: auth mode none', async () => {
    host = installMockSvc({ manifest });
    await expect(host.svc.auth.getToken()).rejects.toMatchObject({ code: 'ERR_WRONG_AUTH_MODE' });
  });
});
