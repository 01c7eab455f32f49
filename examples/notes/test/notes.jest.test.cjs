// Quick Notes in Jest, CommonJS flavour: require('svc-sdk/mock') resolves the package's CJS build.
const { createMockHost, createMockStore, isSvcError } = require('svc-sdk/mock');
const { createNotes } = require('../src/notes.cjs');
const manifest = require('../manifest.json');

let host;
afterEach(() => host.close());

test('adds a note and shows it in the title', async () => {
  host = createMockHost({ manifest });
  const notes = createNotes(host.svc);
  await notes.add('Call Bob');
  await host.flush();
  expect(host.storage.toJSON()).toEqual({ notes: [{ id: 1, text: 'Call Bob' }] });
  expect(host.ui.title).toBe('Notes (1)');
});

test('a delete the person declines keeps the note', async () => {
  host = createMockHost({
    manifest,
    storage: createMockStore({ notes: [{ id: 7, text: 'x' }] }),
    answers: { confirm: () => false },
  });
  expect(await createNotes(host.svc).remove(7)).toBe(false);
  expect(host.storage.get('notes')).toHaveLength(1);
});

test('a prompt the test forgot to answer fails with a message that says which answer to add', async () => {
  host = createMockHost({ manifest, storage: createMockStore({ notes: [{ id: 1, text: 'x' }] }) });
  const error = await createNotes(host.svc)
    .remove(1)
    .catch((e) => e);
  expect(isSvcError(error)).toBe(true);
  expect(error.message).toMatch(/answers\.confirm/);
});
