// Quick Notes in Jest, ESM flavour (node --experimental-vm-modules): import 'svc-sdk/mock' resolves the ESM build.
import { jest } from '@jest/globals';
import { createRequire } from 'node:module';
import { installMockSvc } from 'svc-sdk/mock';
import { createNotes } from '../src/notes.cjs';

const manifest = createRequire(import.meta.url)('../manifest.json');
let host;
afterEach(() => host.uninstall());

test('uses the global svc that installMockSvc put there', async () => {
  host = installMockSvc({ manifest });
  expect(globalThis.svc).toBe(host.svc);
  await createNotes().add('From ESM');
  expect(host.storage.get('notes')).toEqual([{ id: 1, text: 'From ESM' }]);
});

test('a slow host is still awaited (delay), with Jest fake timers', async () => {
  jest.useFakeTimers();
  try {
    host = installMockSvc({ manifest });
    host.delay('storage.get', 2000);
    const loading = createNotes().load();
    await jest.advanceTimersByTimeAsync(2000);
    expect(await loading).toEqual([]);
  } finally {
    jest.useRealTimers();
  }
});

test('uninstall removes the global again', () => {
  host = installMockSvc({ manifest });
  host.uninstall();
  expect('svc' in globalThis).toBe(false);
  host = { uninstall() {} };
});
