// @vitest-environment happy-dom
// The mock where a mini app's DOM tests run: happy-dom replaces globals such as Blob, window and document.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { installMockSvc, type InstalledMockSvc } from '../../src/mock';
import { exchangeManifest, room } from './fixtures';

let host: InstalledMockSvc;
beforeEach(() => {
  host = installMockSvc({
    manifest: exchangeManifest(),
    room,
    permissions: { 'room.context': 'granted', 'files.read': 'granted', 'files.write': 'granted' },
    files: [{ name: 'a.txt', type: 'text/plain', content: 'hello' }],
  });
});
afterEach(() => host.uninstall());

test('runs under happy-dom: a DOM app renders the room from the global svc', async () => {
  expect(typeof window).toBe('object');
  const r = await globalThis.svc.room.current();
  document.body.innerHTML = `<h1>${r?.name}</h1>`;
  expect(document.querySelector('h1')?.textContent).toBe('Team');
});

test('files cross the structured-cloning channel under happy-dom', async () => {
  const [file] = await globalThis.svc.files.pick();
  expect(file?.name).toBe('a.txt');
  expect(file?.blob).toBeInstanceOf(Blob);
  expect(await file?.blob.text()).toBe('hello');
  const { file_id } = await globalThis.svc.files.save({ name: 'b.txt', blob: new Blob(['bye']) });
  expect(host.saved[0]?.file_id).toBe(file_id);
  expect(await host.saved[0]?.blob.text()).toBe('bye');
});

test('fire-and-forget calls are recorded after flush()', async () => {
  globalThis.svc.ui.toast({ message: 'Saved', kind: 'success' });
  globalThis.svc.ui.setTitle('Polls');
  await host.flush();
  expect(host.ui.toasts).toEqual([{ message: 'Saved', kind: 'success' }]);
  expect(host.ui.title).toBe('Polls');
});

test('theme changes reach the page', async () => {
  globalThis.svc.app.onThemeChange((t) => (document.documentElement.dataset.theme = t));
  await host.setTheme('dark');
  expect(document.documentElement.dataset.theme).toBe('dark');
});

test('an array keeps its holes and a class instance arrives as its fields, as postMessage copies them', async () => {
  const votes: number[] = [];
  votes[2] = 5;
  await globalThis.svc.storage.set('votes', votes);
  expect(await globalThis.svc.storage.get('votes')).toEqual([null, null, 5]);
  class Item {
    constructor(readonly text: string) {}
  }
  await globalThis.svc.storage.set('item', new Item('milk') as never);
  expect(await globalThis.svc.storage.get('item')).toEqual({ text: 'milk' });
});
