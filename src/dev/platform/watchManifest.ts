import { existsSync, type FSWatcher, statSync, watch } from 'node:fs';
import { basename, join } from 'node:path';
import type { Manifest } from '../../manifest';
import { type DevApp, readAppDir } from './readAppDir';

/** What {@link watchManifest} tells of the edits of `manifest.json`. @internal */
export interface ManifestEdits {
  /** A new valid manifest, served from now on. */
  changed(next: Manifest): void;
  /** The file does not validate (the message lists each problem); the last valid manifest is still served. */
  invalid(message: string): void;
  /** The file validates again after `invalid`, and is the manifest already served (an edit undone). */
  fixed(): void;
  /** The file was written again, valid and the same as the one last told of (a rebuild that left it as it was). */
  rewritten?(manifest: Manifest): void;
}

/** How often a folder that was removed is looked for again, in ms. */
const LOOK_AGAIN_MS = 250;
/**
 * How long a manifest that does not read stays unreported, in ms: a build writes a file by truncating it, then
 * writing it, and a read between the two finds an empty or cut file that was never the developer's.
 */
const SETTLE_MS = 300;
/**
 * The least time between two manifests served, in ms: each reloads every open page, and a build tool in watch mode
 * writes the folder several times a second; the newest is served once the second is over.
 */
const MIN_CHANGE_INTERVAL_MS = 1000;

/**
 * Watches an app folder's `manifest.json` (debounced) and tells `edits` of each new valid manifest, at most one a
 * second (a build in watch mode writes it several times a second; each served reloads the open pages). One that does
 * not validate or is not there, looked at again after {@link SETTLE_MS} (a build's write caught half done, or its
 * folder caught between its removal and its new files, is none), keeps the last valid
 * one served, and is reported (each reason once): a save mid-edit should not go unnoticed. A folder removed and made
 * again (`rm -rf dist` before a build writes it anew) is looked for until it is back, then watched again and read: a
 * watch on the removed folder would never fire again. A signed package is not watched: a new version comes through
 * the store. Returns what stops the watch.
 * @internal
 */
export function watchManifest(app: DevApp, edits: ManifestEdits): () => void {
  if ('files' in app) return () => {};
  let debounce: NodeJS.Timeout | undefined;
  let looking: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  let stopped = false;
  let served = JSON.stringify(app.manifest);
  let reported = '';
  // The folder watched, by its inode (a folder made again at the same path is another one, unless the file system
  // gave it the same number), and whether the watch saw the folder itself go.
  let watched: number | undefined;
  let replaced = false;
  const folderId = () => {
    try {
      return statSync(app.dir).ino;
    } catch {
      return undefined;
    }
  };
  const report = (message: string) => {
    if (message !== reported) edits.invalid(message);
    reported = message;
  };
  // When the last manifest was served, and whether a failed read waits to be read again before it is reported.
  let lastChange = 0;
  let settling = false;
  const check = async () => {
    // Removed and made again between two looks: the watch is on the removed folder, so it moves to the new one.
    if (watcher && (replaced || folderId() !== watched)) {
      replaced = false;
      watcher.close();
      if (!arm()) watcher = undefined;
    }
    const file = join(app.dir, 'manifest.json');
    const next = existsSync(file)
      ? await readAppDir(app.dir).catch((error: Error) => error)
      : new Error(`${file} is not there (removed, or a build is writing the folder anew).`);
    if (next instanceof Error) {
      if (!existsSync(app.dir)) lost();
      // Read again once the file has settled: only a failure that lasts is the developer's (a build removes the
      // manifest, or its folder, and writes it again a moment later).
      if (!settling) {
        settling = true;
        clearTimeout(debounce);
        debounce = setTimeout(check, SETTLE_MS);
        return;
      }
      settling = false;
      return report(next.message);
    }
    settling = false;
    // Another id is another mini app (its own state, keys and tokens): not something to switch to mid-run.
    if (next.manifest.id !== app.manifest.id)
      return report(
        `${join(app.dir, 'manifest.json')}: the id changed from ${app.manifest.id} to ${next.manifest.id}, which makes it another mini app, with its own state and keys: put the id back, or restart svc dev to run the other one (with another --state).`,
      );
    const wasInvalid = reported !== '';
    reported = '';
    const text = JSON.stringify(next.manifest);
    if (text !== served) {
      // At most one a second: the newest is read again, and served, when the second is over.
      const wait = lastChange + MIN_CHANGE_INTERVAL_MS - Date.now();
      if (wait > 0) {
        clearTimeout(debounce);
        debounce = setTimeout(check, wait);
        return;
      }
      lastChange = Date.now();
      served = text;
      edits.changed(next.manifest);
    } else if (wasInvalid) edits.fixed();
    else edits.rewritten?.(next.manifest);
  };
  const later = () => {
    clearTimeout(debounce);
    settling = false;
    debounce = setTimeout(check, 100);
  };
  // The folder is gone: its watch is dead. Look for it again until it is back, then watch it and read it.
  const lost = () => {
    watcher?.close();
    watcher = undefined;
    if (stopped || looking) return;
    looking = setInterval(() => {
      if (!existsSync(app.dir)) return;
      clearInterval(looking);
      looking = undefined;
      if (arm()) later();
    }, LOOK_AGAIN_MS);
  };
  const arm = (): boolean => {
    try {
      watched = folderId();
      // The folder, not the file: editors replace the file on save, which ends a watch on the file itself.
      watcher = watch(app.dir, (_event, name) => {
        // The folder's own name: it was removed or renamed, and this watch sees nothing from now on.
        if (name === basename(app.dir)) replaced = true;
        if (name === 'manifest.json' || replaced || !existsSync(app.dir)) later();
      });
      watcher.on('error', lost);
      return true;
    } catch {
      return false;
    }
  };
  // No watch on this file system: the manifest stays the one svc dev started with.
  if (!arm()) return () => {};
  return () => {
    stopped = true;
    clearTimeout(debounce);
    clearInterval(looking);
    watcher?.close();
  };
}
