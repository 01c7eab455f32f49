import { watch } from 'node:fs';
import type { Manifest } from '../../manifest';
import { type DevApp, readAppDir } from './readAppDir';

/**
 * Watches an app folder's `manifest.json` and tells `changed` of each new valid manifest (debounced; one that does
 * not validate mid-edit keeps the last valid one). A signed package is not watched: a new version comes through the
 * store. Returns what stops the watch.
 * @internal
 */
export function watchManifest(app: DevApp, changed: (next: Manifest) => void): () => void {
  if ('files' in app) return () => {};
  let debounce: NodeJS.Timeout | undefined;
  let served = JSON.stringify(app.manifest);
  try {
    // The folder, not the file: editors replace the file on save, which ends a watch on the file itself.
    const watcher = watch(app.dir, (_event, name) => {
      if (name !== 'manifest.json') return;
      clearTimeout(debounce);
      debounce = setTimeout(async () => {
        const next = await readAppDir(app.dir).catch(() => undefined);
        if (!next || JSON.stringify(next.manifest) === served) return;
        served = JSON.stringify(next.manifest);
        changed(next.manifest);
      }, 100);
    });
    watcher.on('error', () => watcher.close());
    return () => {
      clearTimeout(debounce);
      watcher.close();
    };
  } catch {
    // No watch on this file system: the manifest stays the one svc dev started with.
    return () => {};
  }
}
