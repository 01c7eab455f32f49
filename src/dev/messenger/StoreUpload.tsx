import { signal } from '@preact/signals';
import type { Messenger } from './Messenger';

/** What the last upload came to (kept while the settings are not shown, and said again after the page's reload). */
export const storeResult = signal('');
const result = storeResult;

async function upload(m: Messenger, input: HTMLInputElement): Promise<void> {
  const file = input.files?.[0];
  if (!file) return;
  result.value = `Uploading ${file.name}…`;
  try {
    const accepted = await m.upload(await file.arrayBuffer());
    // With --app-url the frame loads the developer's own server whatever the store holds: said, not left to guess.
    const runs = m.config.devServer
      ? `recorded as installed, but the app's frame still loads your dev server (${m.config.appUrl}), not the package: to run the package, start svc dev on the .swbn file.`
      : 'the app relaunches with it.';
    result.value = `Version ${accepted.version} accepted: ${runs}${accepted.warning ? ` But ${accepted.warning}` : ''}`;
  } catch (error) {
    const { message, type } = error as Error & { type?: unknown };
    const again = typeof type === 'string' && type.endsWith('/already-published');
    result.value = `${again ? 'Already published' : 'Refused'}: ${message}`;
  }
  input.value = '';
}

/**
 * The settings' store section: the key the id is bound to, every accepted version (revoked ones marked), and an
 * upload of a new version (.swbn), whose refusal (the store's problem detail) is shown beside it.
 */
export function StoreUpload({ m }: { m: Messenger }) {
  const store = m.store.slices.store.value;
  const version = m.store.slices.version.value;
  const revoked = m.store.slices.version_revoked.value;
  const versions = (store?.versions ?? [])
    .map((v) => `${v.version}${v.revoked || (v.version === version && revoked) ? ' (revoked)' : ''}`)
    .join(', ');
  return (
    <>
      <h2>Store</h2>
      <p class="note" data-testid="store-state">
        {store
          ? `The id is bound to the key ${store.key_id}. Versions accepted: ${versions}; the next must be higher than ${store.highest}.`
          : 'Nothing published yet: the first package uploaded binds the id to its key.'}
      </p>
      <label>
        {'Upload a new version (.swbn) '}
        <input
          type="file"
          accept=".swbn"
          data-testid="store-upload"
          onChange={(e) => void upload(m, e.currentTarget as HTMLInputElement)}
        />
      </label>
      <p class="note" role="status" data-testid="store-result">
        {result.value}
      </p>
    </>
  );
}
