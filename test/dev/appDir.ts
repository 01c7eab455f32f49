// A mini app folder for the dev platform's tests: a valid manifest, an entry page, a script, and a dotfile that
// must never be served.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exchangeManifest, type Json } from '../mock/fixtures';

/** Writes the folder; `change` edits the manifest first. Returns its path. */
export async function writeAppDir(change: (manifest: Json) => void = () => {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-app-'));
  const manifest = exchangeManifest();
  change(manifest);
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html><head><title>app</title></head><body>app</body></html>',
  );
  await mkdir(join(dir, 'js'));
  await writeFile(join(dir, 'js', 'app.js'), 'console.log("app");');
  await writeFile(join(dir, '.env'), 'SECRET=do-not-serve');
  return dir;
}
