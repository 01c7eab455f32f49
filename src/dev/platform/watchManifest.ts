import { watch } from 'node:fs';
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
}

/**
 * Watches an app folder's `manifest.json` (debounced) and tells `edits` of each new valid manifest. One that does
 * not validate keeps the last valid one served, and is reported (each reason once): a save mid-edit should not go
 * unnoticed. A signed package is not watched: a new version comes through the store. Returns what stops the watch.
 * @internal
 */
export function watchManifest(app: DevApp, edits: ManifestEdits): () => void {
  if ('files' in app) return () => {};
  let debounce: NodeJS.Timeout | undefined;
  let served = JSON.stringify(app.manifest);
  let reported = '';
  try {
    // The folder, not the file: editors replace the file on save, which ends a watch on the file itself.
    const watcher = watch(app.dir, (_event, name) => {
      if (name !== 'manifest.json') return;
      clearTimeout(debounce);
      debounce = setTimeout(async () => {
        const next = await readAppDir(app.dir).catch((error: Error) => error);
        if (next instanceof Error) {
          if (next.message !== reported) edits.invalid(next.message);
          reported = next.message;
          return;
        }
        const wasInvalid = reported !== '';
        reported = '';
        const text = JSON.stringify(next.manifest);
        if (text !== served) {
          served = text;
          edits.changed(next.manifest);
        } else if (wasInvalid) edits.fixed();
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
