// A person who cannot get a token, in Chromium on the messenger page: the app's svc.auth.getToken() rejects with
// ERR_TOKEN_REFUSED, not retriable, with the identity provider's reason (not a retriable ERR_INTERNAL).
import { copyFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, test } from './messengerTest';
import { writeAppDir } from './appDir';

let dir: string;

test.beforeAll(async () => {
  dir = await writeAppDir();
  await copyFile(resolve('dist/svc.global.js'), join(dir, 'svc.global.js'));
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html><html><head><title>token</title><script src="svc.global.js"></script><script src="js/app.js" defer></script></head>
<body><button id="get" data-testid="get">Get token</button><p data-testid="out"></p></body></html>`,
  );
  await writeFile(
    join(dir, 'js', 'app.js'),
    `document.getElementById('get').onclick = () => svc.auth.getToken().then(
  () => { document.querySelector('[data-testid=out]').textContent = 'token'; },
  (e) => { document.querySelector('[data-testid=out]').textContent = e.code + ' ' + e.retriable + ' ' + e.message; });`,
  );
});

test('getToken for a person the app is not installed for rejects with ERR_TOKEN_REFUSED and the reason', async ({
  messenger,
}) => {
  // The app is open when the administrator's change lands (the page itself would show the install step first).
  const { platform, page } = await messenger({ dir, port: 0 });
  await page.getByTestId('open-app').click();
  const app = page.frameLocator('[data-testid=app-frame]');
  await app.getByTestId('get').click();
  await expect(app.getByTestId('out')).toHaveText('token');
  await platform.uninstall('alice');
  await app.getByTestId('get').click();
  await expect(app.getByTestId('out')).toContainText('ERR_TOKEN_REFUSED false');
  await expect(app.getByTestId('out')).toContainText('not installed for this person');
  await platform.install('alice');
  await platform.deprovision('alice');
  await app.getByTestId('get').click();
  await expect(app.getByTestId('out')).toContainText('ERR_TOKEN_REFUSED false');
  await expect(app.getByTestId('out')).toContainText('left the tenant');
});
