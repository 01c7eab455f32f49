// A small app with one button per person-facing prompt of the messenger (the file picker, save, share, ui.confirm,
// openExternal, toasts, the external-oauth sign-in, close): prompts.spec.ts answers each, messengerAxe.spec.ts checks
// each sheet's accessibility.
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Json } from '../mock/fixtures';

const root = resolve(import.meta.dirname, '../..');
const APP = `
const out = document.getElementById('out');
const show = (v) => { out.textContent = typeof v == 'string' ? v : JSON.stringify(v); };
// Each button is made by the script that handles it: one that shows is one that answers a click (a button in the
// page's HTML could be clicked by a test before this script had run, and the click would be lost).
const on = (id, fn) => {
  const button = Object.assign(document.createElement('button'), { id, textContent: id });
  button.addEventListener('click', () => fn().then(show, (e) => show(e.code)));
  out.before(button);
};
on('pick', async () => {
  await svc.permissions.request('files.read');
  return (await svc.files.pick({ multiple: true })).map((f) => f.name).join(',');
});
on('save', async () => {
  await svc.permissions.request('files.write');
  return (await svc.files.save({ name: 'result.txt', blob: new Blob(['42'], { type: 'text/plain' }) })).file_id;
});
on('share', async () => { await svc.ui.share({ title: 'Poll', url: 'https://polls.example/p/1' }); return 'shared'; });
on('confirm', async () => String(await svc.ui.confirm({ title: 'Delete?', body: 'The poll goes.' })));
on('external', async () => { await svc.ui.openExternal('https://polls.example/help'); return 'opened'; });
on('toast', async () => { svc.ui.toast({ message: 'Hello from the app', kind: 'success' }); return 'toasted'; });
on('errortoast', async () => { svc.ui.toast({ message: 'It broke', kind: 'error' }); return 'toasted'; });
on('signin', async () => { await svc.auth.signIn(); return svc.auth.state(); });
on('close', async () => { svc.ui.close(); return 'closing'; });
on('nowhere', async () => {
  await svc.permissions.request('room.send');
  await svc.message.send({ room_id: 'nope', body: 'hi' });
  return 'sent';
});
// A room of another tenant's, which the person is no member of.
on('elsewhere', async () => {
  await svc.message.send({ room_id: 'globex', body: 'hi' });
  return 'sent';
});
// An app that asks again and again, whatever the answer.
on('nag', async () => { for (;;) await svc.ui.confirm({ title: 'Nag', body: 'Again?' }); });
`;

/** A package: the manifest, a page whose script adds one button per prompt, the script-tag client, the app's script. */
export async function promptsApp(manifest: Json): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-prompts-'));
  manifest.routes = [{ path: '/', title: 'Home' }];
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"></head><body><p id="out"></p><script src="svc.global.js"></script><script src="app.js"></script></body></html>',
  );
  await copyFile(join(root, 'dist/svc.global.js'), join(dir, 'svc.global.js'));
  await writeFile(join(dir, 'app.js'), APP);
  return dir;
}
