// `svc validate` on what `svc init` writes: the starter's placeholders are warned about (valid in form, not for the
// store), and a folder is checked as a package: its entry document and icons must be there.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createStarterManifest } from '../../src/cli/starterManifest';
import { runSvc, tempProject } from './runInProcess';

describe('svc validate, the starter and packages', () => {
  test('warns about each placeholder of the starter manifest, naming what to write', async () => {
    const dir = tempProject({ 'manifest.json': createStarterManifest({ id: '0000000000000000' }) });
    const run = await runSvc(['validate'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'manifest.json:3:3  warning: $.id is the starter\'s placeholder "0000000000000000"; write the id of your developer key (`svc keygen` prints it; `svc init` writes it)',
    );
    expect(run.stdout).toContain(
      'warning: $.description is the starter\'s placeholder "Describe in one or two sentences',
    );
    expect(run.stdout).toContain('warning: $.vendor.id is the starter\'s placeholder "your-vendor-id"');
    expect(run.stdout).toMatch(/manifest.json: valid \(4 warnings\)\n$/);
  });

  test('a folder: the entry document and every icon must exist in it, or the package is invalid', async () => {
    const manifest = createStarterManifest({ id: '9f1c2b3a4d5e6f70' });
    const dir = tempProject({ 'app/manifest.json': manifest, 'app/icons/icon-192.png': 'png' });
    const run = await runSvc(['validate', 'app'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `app/manifest.json:25:3  error: $.entry names index.html, which is not in ${join(dir, 'app')}; add the entry document to the package or fix the path`,
    );
    expect(run.stdout).toContain('error: $.icons[1].src names icons/icon-512.png, which is not in');
    expect(run.stdout).not.toContain('$.icons[0].src');
    writeFileSync(join(dir, 'app/index.html'), '<!doctype html>');
    writeFileSync(join(dir, 'app/icons/icon-512.png'), 'png');
    const fixed = await runSvc(['validate', 'app'], dir);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).not.toContain('error');
  });

  test.each(['../index.html', '/index.html', 'sub/../index.html', './/index.html'])(
    'an entry that is no path inside the package, %s, is refused, as a host reading the package refuses it',
    async (entry) => {
      const manifest = createStarterManifest({ id: '9f1c2b3a4d5e6f70' });
      (manifest as { entry: string }).entry = entry;
      const dir = tempProject({
        'app/manifest.json': manifest,
        'app/index.html': '<!doctype html>',
        'app/sub/x': '',
        'index.html': '<!doctype html>',
      });
      const run = await runSvc(['validate', 'app'], dir);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(
        `$.entry names ${entry}, which is no path inside the package folder (no leading "/", no ".." or "//"); write it from the folder's root, such as icons/icon-192.png`,
      );
    },
  );

  test('an entry or icon with a leading ./, a query or a fragment names the file before them', async () => {
    const manifest = createStarterManifest({ id: '9f1c2b3a4d5e6f70' }) as { entry: string; icons: { src: string }[] };
    manifest.entry = './index.html?v=2';
    manifest.icons[0]!.src = `./${manifest.icons[0]!.src}#x`;
    const files = Object.fromEntries(
      manifest.icons.map((icon) => [`app/${icon.src.replace(/^\.\/|#x$/g, '')}`, 'png']),
    );
    const dir = tempProject({ 'app/manifest.json': manifest, 'app/index.html': '<!doctype html>', ...files });
    const run = await runSvc(['validate', 'app'], dir);
    expect(run.stdout).not.toContain('error');
    expect(run.code).toBe(0);
  });
});
