// An app with a hash router in `svc dev`, as Vue Router's hash history or React Router's HashRouter make one: the
// router owns the URL's fragment from the start, so the launch the messenger wrote there (`#svc=…`) is gone before
// the app's first call, and a reload (Vite's, after an edit) or a link to another page of the app has none.
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { exchangeManifest } from '../mock/fixtures';
import { expect, test } from './messengerTest';

const root = resolve(import.meta.dirname, '../..');
// Vue Router's hash history rewrites `#svc=…` to `#/svc=…` when the router is made, before any component runs.
const APP = `
if (!location.hash.startsWith('#/')) history.replaceState(null, '', '#/' + location.hash.slice(1));
const out = document.getElementById('out');
const before = svc.app.id;
svc.auth.state().then(
  (state) => { out.textContent = [before || '(none)', state, svc.app.id, location.hash].join(' '); },
  (e) => { out.textContent = e.code + ' ' + e.message; },
);
`;

test('a hash-routed app keeps its host after the router takes the fragment, after a reload, and on its other pages', async ({
  messenger,
}) => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-hash-router-'));
  const manifest = exchangeManifest();
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
  const page = (title: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><p id="out"></p><a id="settings" href="settings.html">Settings</a><script src="svc.global.js"></script><script src="app.js"></script></body></html>`;
  await writeFile(join(dir, 'index.html'), page('home'));
  await writeFile(join(dir, 'settings.html'), page('settings'));
  await copyFile(join(root, 'dist/svc.global.js'), join(dir, 'svc.global.js'));
  await writeFile(join(dir, 'app.js'), APP);
  const id = String(manifest.id);

  const { page: messengerPage } = await messenger({ dir, port: 0, mcp: false });
  await messengerPage.getByTestId('open-app').click();
  const app = messengerPage.frameLocator('[data-testid=app-frame]');
  const out = app.locator('#out');
  // The first load: the launch read as the page was loaded, though the router replaced the fragment first.
  await expect(out).toHaveText(new RegExp(`^${id} signed-in ${id} #/svc=`));

  // The router goes to another route and the page reloads (Vite's full reload after an edit keeps the URL).
  const frame = messengerPage.frames().find((f) => f.url().includes('/index.html'))!;
  await frame.evaluate(() => {
    history.pushState(null, '', '#/settings');
    location.reload();
  });
  // The reloaded page has no launch in its URL: it finds its host (its parent's origin, which it lists), and the
  // welcome brings the launch; the app's id is known after that first call.
  await expect(out).toHaveText(`(none) signed-in ${id} #/settings`);

  // A link to another page of the app, which has no fragment at all.
  await app.locator('#settings').click();
  await expect.poll(() => messengerPage.frames().some((f) => f.url().includes('/settings.html'))).toBe(true);
  await expect(out).toHaveText(`(none) signed-in ${id} #/`);
});
