// Type-level contract, checked by `tsc --noEmit` (npm test): code written straight from the platform's bridge
// table compiles against the published types/svc.d.ts, and what the platform rules out does not.
import { isSvcError, svc, type ActionContext, type Identity, type Room, type SvcError, type SvcFile } from 'svc-sdk';

export async function everyRowOfTheBridgeTable(): Promise<void> {
  const version: string = svc.version;
  const supported: boolean = svc.supports('files.pick');
  // Typed as the union of member names (the editor completes them), with the svc. prefix too and any string accepted.
  const member: Parameters<typeof svc.supports>[0] = 'svc.actions.handle';
  svc.supports(member);
  svc.supports('app.onThemeChange');
  svc.supports(String(Math.random()));
  const app: [string, string, string, 'light' | 'dark', Readonly<Record<string, string>>] = [
    svc.app.id,
    svc.app.version,
    svc.app.locale,
    svc.app.theme,
    svc.app.launchParams,
  ];
  const unsubscribe: () => void = svc.app.onThemeChange((theme: 'light' | 'dark') => void theme);
  const me: Identity = await svc.identity.get();
  const token: { access_token: string; expires_in: number } = await svc.auth.getToken();
  const signedIn: void = await svc.auth.signIn();
  const signedOut: void = await svc.auth.signOut();
  const state: 'signed-in' | 'signed-out' = await svc.auth.state();
  const room: Room | null = await svc.room.current();
  const sent: { event_id: string } = await svc.message.send({
    room_id: 'r',
    body: 'b',
    card: { title: 't', body: 'b', actions: [{ label: 'l', deep_link: '/x' }] },
  });
  const files: SvcFile[] = await svc.files.pick({ accept: ['image/png'], multiple: true });
  const saved: { file_id: string } = await svc.files.save({ name: 'a.png', blob: new Blob([]) });
  const stop: () => void = svc.actions.handle('do', async (input: unknown, ctx: ActionContext) => {
    const by: 'agent' | 'user' = ctx.invoked_by;
    const agent: string | undefined = ctx.agent_id;
    const confirmed: boolean = ctx.confirmed;
    const more: unknown = await svc.actions.elicit({ prompt: 'p', schema: { type: 'object' } });
    const nothing: void = svc.actions.progress('half way');
    return { input, by, agent, confirmed, more, nothing };
  });
  const ui: void[] = [
    svc.ui.setTitle('t'),
    svc.ui.toast({ message: 'm' }),
    svc.ui.toast({ message: 'm', kind: 'error' }),
    svc.ui.close(),
  ];
  const yes: boolean = await svc.ui.confirm({ title: 't', body: 'b' });
  const opened: void = await svc.ui.openExternal('https://example.com');
  const shared: void = await svc.ui.share({ title: 't', url: 'https://example.com' });
  const value: unknown = await svc.storage.get('k');
  const stored: void[] = [
    await svc.storage.set('k', { a: [1, 'b', null, true] }),
    await svc.storage.remove('k'),
    await svc.storage.clear(),
  ];
  const permission: 'granted' | 'denied' | 'prompt' = await svc.permissions.query('room.context');
  const answered: 'granted' | 'denied' = await svc.permissions.request('notifications');
  void [
    version,
    supported,
    app,
    unsubscribe,
    me,
    token,
    signedIn,
    signedOut,
    state,
    room,
    sent,
    files,
    saved,
    stop,
    ui,
    yes,
    opened,
    shared,
    value,
    stored,
    permission,
    answered,
  ];
  try {
    await svc.room.current();
  } catch (e) {
    if (isSvcError(e)) {
      void (e satisfies SvcError).code;
      void e.retriable;
      void e.message;
    }
  }
}

export function whatTheInterfaceRulesOut(): void {
  // @ts-expect-error no camera wrapper: the standard web API is used
  svc.camera.take();
  // @ts-expect-error no geolocation wrapper
  svc.getLocation();
  // @ts-expect-error no device contacts
  svc.getDeviceContacts();
  // @ts-expect-error no payments API
  svc.payments.request();
  // @ts-expect-error no embedded web view
  svc.ui.openWebView('https://example.com');
  // @ts-expect-error toast kinds are info, success and error only
  svc.ui.toast({ message: 'm', kind: 'warning' });
  // @ts-expect-error themes are light and dark only
  const theme: 'light' | 'dark' | 'sepia' extends typeof svc.app.theme ? true : never = true;
  // @ts-expect-error scopes are the platform's short names
  void svc.permissions.request('location');
  // @ts-expect-error request resolves granted or denied, never prompt
  void svc.permissions.request('room.context').then((s: 'prompt') => s);
  // @ts-expect-error storage keeps JSON values
  void svc.storage.set('k', new Date());
  // @ts-expect-error invoked_by is agent or user
  svc.actions.handle('x', (_input, ctx) => ctx.invoked_by === 'robot');
  // @ts-expect-error the launch snapshot is read-only
  svc.app.theme = 'dark';
  void theme;
}
