// Quick Notes: a mini app with auth mode `none`, written in plain JavaScript (CommonJS, no build step).
// Notes live in svc.storage, which syncs across the person's devices and has a 256 KB quota.
'use strict';

const HELP = 'https://notes.example/help';

/**
 * @param {import('svc-sdk').Svc} [svc] the bridge; the global `svc` by default, as in the shipped app
 */
function createNotes(svc = globalThis.svc) {
  /** @returns {Promise<{ id: number, text: string }[]>} */
  async function list() {
    return /** @type {any} */ (await svc.storage.get('notes')) ?? [];
  }

  async function render() {
    const notes = await list();
    svc.ui.setTitle(notes.length ? `Notes (${notes.length})` : 'Notes');
    return notes;
  }

  /** Adds a note; false (and an error toast) when storage is full. */
  async function add(text) {
    const notes = await list();
    const note = { id: notes.reduce((max, n) => Math.max(max, n.id), 0) + 1, text };
    try {
      await svc.storage.set('notes', [...notes, note]);
    } catch (e) {
      if (e && e.code === 'ERR_QUOTA_EXCEEDED') {
        svc.ui.toast({ message: 'Storage is full: delete some notes first.', kind: 'error' });
        return false;
      }
      throw e;
    }
    svc.ui.toast({ message: 'Saved', kind: 'success' });
    await render();
    return true;
  }

  /** Deletes a note after the person confirms. */
  async function remove(id) {
    const notes = await list();
    const note = notes.find((n) => n.id === id);
    if (!note) return false;
    if (!(await svc.ui.confirm({ title: 'Delete note?', body: note.text.slice(0, 80) }))) return false;
    await svc.storage.set(
      'notes',
      notes.filter((n) => n.id !== id),
    );
    await render();
    return true;
  }

  /** Loads the notes; on a failure the host says is worth retrying, tries once more. */
  async function load() {
    try {
      return await render();
    } catch (e) {
      if (e?.retriable) return render();
      svc.ui.toast({ message: 'Could not load your notes.', kind: 'error' });
      return [];
    }
  }

  const help = () => svc.ui.openExternal(HELP);
  const recommend = () => svc.ui.share({ title: 'Quick Notes', url: 'https://notes.example' });

  return { list, load, add, remove, help, recommend };
}

module.exports = { createNotes };
