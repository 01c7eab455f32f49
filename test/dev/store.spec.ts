// The local store in the messenger, driven in Chromium as a developer would: Settings → Store uploads a package; a
// version that is not higher is refused with both versions named; a higher one relaunches the open app with it.
// And verifyPackage (svc-sdk/package) bundled for the browser verifies a package in the page, WebCrypto only.
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test as plain } from '@playwright/test';
import { build } from 'esbuild';
import { idOfKey } from '../../src/cli/developerKeys';
import { packApp } from '../../src/cli/packApp';
import { writeAppDir } from './appDir';
import { expect, test } from './messengerTest';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const key = { file: 'key.pem', privateKey, publicKey, id: idOfKey(publicKey) };

async function pack(version: string): Promise<Buffer> {
  const dir = await writeAppDir((m) => {
    m.id = key.id;
    m.version = version;
  });
  await writeFile(join(dir, 'index.html'), `<!doctype html><html><head></head><body>version ${version}</body></html>`);
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  for (const icon of manifest.icons) {
    await mkdir(dirname(join(dir, icon.src)), { recursive: true });
    await writeFile(join(dir, icon.src), 'png');
  }
  const packed = await packApp({ dir, keys: [key] });
  if (!packed.ok) throw new Error(packed.problems.join('\n'));
  return Buffer.from(packed.bytes);
}

test('an upload in the settings: a lower version is refused naming both, a higher one relaunches the app', async ({
  messenger,
}) => {
  const first = join(await mkdtemp(join(tmpdir(), 'svc-store-ui-')), 'app-1.0.0.swbn');
  await writeFile(first, await pack('1.0.0'));
  const { platform, page } = await messenger({ package: first, port: 0, mcp: false });
  await page.getByTestId('room-general').click();
  await page.getByTestId('open-app').click();
  const app = page.frameLocator('[data-testid=app-frame]');
  await expect(app.locator('body')).toHaveText('version 1.0.0');
  await expect(page.getByTestId('app-version')).toHaveText(' · version 1.0.0');

  await page.getByTestId('tab-Settings').click();
  await expect(page.getByTestId('store-state')).toContainText(`The id is bound to the key ${key.id}`);
  await page
    .getByTestId('store-upload')
    .setInputFiles({ name: 'app-1.0.0.swbn', mimeType: 'application/octet-stream', buffer: await readFile(first) });
  // The same bytes again: nothing to do, said as such.
  await expect(page.getByTestId('store-result')).toContainText(
    `Already published: This package is ${key.id} 1.0.0 as the store accepted it`,
  );
  await page
    .getByTestId('store-upload')
    .setInputFiles({ name: 'app-0.9.0.swbn', mimeType: 'application/octet-stream', buffer: await pack('0.9.0') });
  await expect(page.getByTestId('store-result')).toContainText(
    'Refused: Version 0.9.0 is not higher than 1.0.0, the highest version this store accepted',
  );

  await page
    .getByTestId('store-upload')
    .setInputFiles({ name: 'app-1.1.0.swbn', mimeType: 'application/octet-stream', buffer: await pack('1.1.0') });
  // The page reloads with the new manifest and reopens the app, now the new version.
  await expect(page.frameLocator('[data-testid=app-frame]').locator('body')).toHaveText('version 1.1.0');
  await expect(page.getByTestId('toasts')).toContainText('1.1.0 is installed');
  await expect(page.getByTestId('app-version')).toHaveText(' · version 1.1.0');
  // The keyboard's place is kept across the reload: the settings, the upload focused, its status saying the outcome.
  await expect(page.getByTestId('tab-Settings')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('store-upload')).toBeFocused();
  await expect(page.getByTestId('store-result')).toContainText('1.1.0 is installed');
  expect(platform.state.version).toBe('1.1.0');
  expect(platform.state.installations.find((i) => i.user_id === 'alice')?.version).toBe('1.1.0');

  // Revoked: the upload's "is installed" goes, and the app's notice says the way out.
  await page.getByTestId('revoke-version').click();
  await page.getByTestId('revoke-version-sheet-yes').click();
  await expect(page.getByTestId('store-result')).toHaveText('');
  await expect(page.getByTestId('store-state')).toContainText('Versions accepted: 1.0.0, 1.1.0 (revoked)');
  await page.getByTestId('open-app').click();
  await expect(page.getByTestId('notice')).toContainText(
    'Version 1.1.0 of Polls was revoked: it cannot be opened. Publish a higher version (svc publish, or Settings → Store), or reset to start again.',
  );
});

test('a published version revoked, then the folder served again: the page names the version revoked (recheck48b F2)', async ({
  messenger,
}) => {
  const dir = await writeAppDir((m) => {
    m.id = key.id;
    m.version = '1.0.0';
  });
  await writeFile(join(dir, 'index.html'), '<!doctype html><html><head></head><body>folder</body></html>');
  const { platform, page } = await messenger({ dir, port: 0, mcp: false });
  await page.getByTestId('tab-Settings').click();
  await page
    .getByTestId('store-upload')
    .setInputFiles({ name: 'app-1.1.0.swbn', mimeType: 'application/octet-stream', buffer: await pack('1.1.0') });
  await expect(page.getByTestId('toasts')).toContainText('1.1.0 is installed');
  await page.getByTestId('tab-Settings').click();
  await page.getByTestId('revoke-version').click();
  await page.getByTestId('revoke-version-sheet-yes').click();
  // A rebuild serves the folder's 1.0.0 again; the revocation holds, and the page says which version it was.
  const manifestFile = join(dir, 'manifest.json');
  await writeFile(manifestFile, await readFile(manifestFile, 'utf8'));
  await expect.poll(() => platform.state.version, { timeout: 10_000 }).toBe('1.0.0');
  // The page reloads itself for the manifest served: tried again until that reload is behind the clicks.
  await expect(async () => {
    await page.getByTestId('room-general').click();
    await page.getByTestId('open-app').click();
    await expect(page.getByTestId('notice')).toContainText(
      'Version 1.1.0 of Polls was revoked, and the revocation holds for the 1.0.0 served now: it cannot be opened.',
      { timeout: 1000 },
    );
  }).toPass({ timeout: 15_000 });
});

test('a version published from the terminal reloads the page with the focus where it was, and says it after the page is drawn', async ({
  messenger,
}) => {
  const first = join(await mkdtemp(join(tmpdir(), 'svc-store-ui-')), 'app-1.0.0.swbn');
  await writeFile(first, await pack('1.0.0'));
  const { platform, page } = await messenger({ package: first, port: 0, mcp: false });
  // A field of the tools being typed in: its text, and the focus on it, kept over the reload.
  await page.getByTestId('tab-Agent').click();
  await page.getByTestId('agent-id').fill('agent-typed-7');
  // Which live regions held the news when the new page's first render put them there (a screen reader reads only
  // a region that changes after it is there).
  await page.addInitScript(() => {
    const seen = new MutationObserver(() => {
      const toasts = document.querySelector('[data-testid=toasts]');
      if (!toasts) return;
      (window as { firstStatus?: string }).firstStatus = toasts.textContent ?? '';
      seen.disconnect();
    });
    seen.observe(document, { childList: true, subtree: true });
  });
  const answer = await fetch(`${platform.origin}/__svc/store/packages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${platform.publishToken}`, 'content-type': 'application/octet-stream' },
    body: new Uint8Array(await pack('1.1.0')),
  });
  expect(answer.status).toBe(201);
  await expect(page.getByTestId('toasts')).toContainText('1.1.0 is installed');
  await expect(page.getByTestId('tab-Agent')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('agent-id')).toBeFocused();
  await expect(page.getByTestId('agent-id')).toHaveValue('agent-typed-7');
  expect(await page.evaluate(() => (window as { firstStatus?: string }).firstStatus)).not.toContain('is installed');
});

test('what an upload was answered with beyond the acceptance is said after the relaunch: a warning, a failed save', async ({
  messenger,
}) => {
  const folder = await mkdtemp(join(tmpdir(), 'svc-store-ui-'));
  const first = join(folder, 'app-1.0.0.swbn');
  await writeFile(first, await pack('1.0.0'));
  const warning = '--backend-env .env could not be rewritten (EISDIR), so your backend still has the version before.';
  const stateFolder = join(folder, 'state');
  const { page } = await messenger({
    package: first,
    port: 0,
    mcp: false,
    statePath: join(stateFolder, 'state.json'),
    onVersionServed: () => warning,
  });
  await page.getByTestId('room-general').click();
  await page.getByTestId('open-app').click();
  const upload = async (version: string) => {
    await page.getByTestId('tab-Settings').click();
    await page.getByTestId('store-upload').setInputFiles({
      name: `app-${version}.swbn`,
      mimeType: 'application/octet-stream',
      buffer: await pack(version),
    });
    // The page reloads for the new version, the app open again: what the answer added is above the timeline.
    await expect(page.frameLocator('[data-testid=app-frame]').locator('body')).toHaveText(`version ${version}`);
    await expect(page.getByTestId('toasts')).toContainText(`${version} is installed`);
  };
  await upload('1.1.0');
  await expect(page.getByTestId('notice')).toHaveText(`Polls 1.1.0 is installed. The store also said: ${warning}`);

  // A file where the state's folder was: the version is served, and its save fails (500).
  await rm(stateFolder, { recursive: true });
  await writeFile(stateFolder, 'not a folder');
  await upload('1.2.0');
  await expect(page.getByTestId('notice')).toContainText(
    'Polls 1.2.0 is installed. The store also said: The change is applied but not saved',
  );
  await expect(page.getByTestId('notice')).toContainText('Do not send the request again');
  await rm(stateFolder);
});

// A plain page (no platform): `test` from messengerTest would give the Polls session's.
plain(
  'verifyPackage runs in the browser: it verifies the shipped vectors and names the check a changed one fails',
  async ({ page }) => {
    const root = resolve(import.meta.dirname, '../..');
    const bundle = await build({
      entryPoints: [join(root, 'src/package/index.ts')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const files: Record<string, [string, Buffer | string]> = {
      '/': ['text/html', '<!doctype html><title>verify</title>'],
      '/package.js': ['text/javascript', bundle.outputFiles[0]!.text],
      '/valid.swbn': ['application/octet-stream', await readFile(join(root, 'vectors/package/valid.swbn'))],
      '/valid-p256.swbn': ['application/octet-stream', await readFile(join(root, 'vectors/package/valid-p256.swbn'))],
    };
    const server = createServer((req, res) => {
      const file = files[req.url ?? ''];
      if (!file) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const result = await page.evaluate(async () => {
        const { verifyPackage } = await import('/package.js' as string);
        const out: string[] = [];
        for (const name of ['valid.swbn', 'valid-p256.swbn']) {
          const bytes = new Uint8Array(await (await fetch(`/${name}`)).arrayBuffer());
          const pkg = await verifyPackage(bytes);
          out.push(`${pkg.signers[0].type} ${pkg.id} ${pkg.version}`);
          bytes[bytes.length - 20]! ^= 1;
          out.push(
            await verifyPackage(bytes).then(
              () => 'valid',
              (e: { code: string }) => e.code,
            ),
          );
        }
        return out;
      });
      const vectors = JSON.parse(await readFile(join(root, 'vectors/package/vectors.json'), 'utf8'));
      expect(result).toEqual([
        `ed25519 ${vectors[0].id} 0.1.0`,
        'bad-signature',
        `ecdsa-p256 ${vectors[1].id} 0.1.0`,
        'bad-signature',
      ]);
    } finally {
      server.close();
    }
  },
);
