// @vitest-environment happy-dom
// The same app with a DOM, through the global svc (installMockSvc), as a page would use it.
import type {} from 'svc-sdk/global'; // types the global svc
import { installMockSvc, type InstalledMockSvc } from 'svc-sdk/mock';
import { afterEach, beforeEach, expect, test } from 'vitest';
import manifest from '../manifest.json';
import { createPollsApp } from '../src/polls';

let host: InstalledMockSvc;
beforeEach(() => {
  host = installMockSvc({ manifest, launchParams: { id: 'p1' }, theme: 'dark' });
});
afterEach(() => host.uninstall());

test('shows the poll title in the host bar and renders with the host theme', async () => {
  const app = createPollsApp(globalThis.svc, async () => ({ ok: true, json: async () => ({}) }));
  await app.start();
  document.body.dataset.theme = app.state.theme;
  await host.flush();
  expect(host.ui.title).toBe('Poll');
  expect(document.body.dataset.theme).toBe('dark');
});
