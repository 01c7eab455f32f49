// A realistic mini app (a polls app: its own fetch, DOM and strings included), measured by `npm run size` for
// information beside the budgeted miniApp.ts: the difference is the app's own code, not the SDK.
import { isSvcError, svc } from 'svc-sdk';

async function main(): Promise<void> {
  document.body.className = svc.app.theme;
  svc.app.onThemeChange((theme) => (document.body.className = theme));
  svc.ui.setTitle(svc.app.launchParams.title ?? 'Polls');
  svc.actions.handle('create_poll', async (input: { question: string }, ctx) => {
    svc.actions.progress('creating');
    const polls = ((await svc.storage.get('polls')) as string[] | undefined) ?? [];
    await svc.storage.set('polls', [...polls, input.question]);
    return { created: input.question, by: ctx.invoked_by };
  });
  const me = await svc.identity.get();
  const { access_token } = await svc.auth.getToken();
  await fetch('/api/polls', { headers: { authorization: `Bearer ${access_token}` } });
  if ((await svc.permissions.request('room.context')) !== 'granted') return;
  const room = await svc.room.current();
  if (room && (await svc.ui.confirm({ title: 'Share poll?', body: room.name ?? room.room_id })))
    await svc.message.send({
      room_id: room.room_id,
      body: `Poll by ${me.display_name}`,
      card: { title: 'Poll', body: 'Vote now' },
    });
  const [file] = await svc.files.pick({ accept: ['text/csv'] });
  if (file) svc.ui.toast({ message: `Imported ${file.name}`, kind: 'success' });
}

main().catch((e) => isSvcError(e) && e.retriable && setTimeout(main, 1000));
