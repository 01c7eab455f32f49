import { lit, obj, opt, str, text } from './shape';

/**
 * The client's runtime table of the bridge operations, one space-separated entry each: `name:args:flags`, where
 * `args` is `@` when the facade's one argument is the params object, else the positional argument names
 * (comma-separated) that make it (`@` for the operations bound to an invocation, whose params the client builds); and `flags` holds `p` (waits on a person: the long prompt timeout), `n`
 * (fire-and-forget: nothing answers) and `v` (resolves to nothing: `undefined`, whether the host sent no `result`
 * or `null`).
 *
 * @remarks
 * The operation modules (`operations/<namespace>.ts`) are the source; this string is what the browser client
 * carries of them, since an object per operation costs more of its 4,000-byte budget. `test/protocol/registry.test.ts`
 * encodes the registry and fails, printing the expected string, when the two differ.
 */
export const CALL_TABLE =
  'identity.get auth.getToken auth.signIn::pv auth.signOut::v auth.state room.current message.send:@:p files.pick:@:p files.save:@:p actions.elicit:@:p actions.progress:@:n ui.setTitle:title:n ui.toast:@:n ui.confirm:@:p ui.openExternal:url:v ui.close::n ui.share:@:pv storage.get:key storage.set:key,value:v storage.remove:key:v storage.clear::v permissions.query:scope permissions.request:scope:p';

/**
 * The params checks of the fire-and-forget operations, which the client runs before sending (nobody answers them,
 * so their facade members throw at once). The operation modules use these very checks as the params of their entries, so the host runs the same ones.
 */
export const notificationParams = {
  'actions.progress': obj({ invocation: text, message: str }),
  'ui.setTitle': obj({ title: str }),
  'ui.toast': obj({ message: text, kind: opt(lit('info', 'success', 'error')) }),
  'ui.close': obj({}),
};
