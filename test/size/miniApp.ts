// The mini app `npm run size` budgets: every namespace of svc used through the package entry, and SvcError imported
// for `instanceof`, with as little app logic as possible, so the figure is the SDK's footprint in any such app. The facade is built from the whole
// registry, so it carries every operation whichever ones an app calls.
import { isSvcError, SvcError, svc } from 'svc-sdk';

async function main(): Promise<void> {
  svc.app.onThemeChange((theme) => svc.ui.toast({ message: theme }));
  svc.actions.handle('create_poll', async (input: { question: string }) => {
    svc.actions.progress(input.question);
    return svc.actions.elicit({ prompt: 'Close when?', schema: {} });
  });
  if (!svc.supports('room.current')) return;
  const me = await svc.identity.get();
  await svc.auth.getToken();
  await svc.storage.set('me', me.app_user_id);
  if ((await svc.permissions.request('room.send')) !== 'granted') return;
  const room = await svc.room.current();
  if (room) await svc.message.send({ room_id: room.room_id, body: svc.app.locale });
  await svc.files.pick();
}

// Both guards, as apps write them: `instanceof` within one bundle, `isSvcError` across bundles.
main().catch((e) => (e instanceof SvcError || isSvcError(e)) && e.retriable && setTimeout(main, 1000));
