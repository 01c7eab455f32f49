import type { DevState } from '../devContract';
import { uploadPackage } from './api';
import { h } from './dom';

/**
 * The settings' store section: the key the id is bound to, every accepted version (revoked ones marked), and an
 * upload of a new version (.swbn), whose refusal (the store's problem detail) is shown beside it.
 */
export function storeUpload(state: DevState): HTMLElement[] {
  const result = h('p', { class: 'note', role: 'status', 'data-testid': 'store-result' });
  const input = h('input', { type: 'file', accept: '.swbn', 'data-testid': 'store-upload' });
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    if (!file) return;
    result.textContent = `Uploading ${file.name}…`;
    try {
      const accepted = await uploadPackage(await file.arrayBuffer());
      result.textContent = `Version ${accepted.version} accepted: the app relaunches with it.`;
    } catch (error) {
      result.textContent = `Refused: ${(error as Error).message}`;
    }
    input.value = '';
  });
  const store = state.store;
  const versions = (store?.versions ?? [])
    .map(
      (v) => `${v.version}${v.revoked || (v.version === state.version && state.version_revoked) ? ' (revoked)' : ''}`,
    )
    .join(', ');
  return [
    h('h2', {}, 'Store'),
    h(
      'p',
      { class: 'note', 'data-testid': 'store-state' },
      store
        ? `The id is bound to the key ${store.key_id}. Versions accepted: ${versions}; the next must be higher than ${store.highest}.`
        : 'Nothing published yet: the first package uploaded binds the id to its key.',
    ),
    h('label', {}, 'Upload a new version (.swbn) ', input),
    result,
  ];
}
