import type { MethodName, MethodResult } from './methods';
import { any, arr, blob, bool, type Check, json, lit, nullable, num, obj, opt, str, text } from './shape';

const none: Check<void> = (v, path) => (v == null ? undefined : `${path} must be empty`);
const file = obj({ file_id: str, name: str, type: str, size: num, blob }, true);

/**
 * The shape of each operation's answer, checked by `createHost()` before the answer leaves the host, so a host
 * bug is reported to the host's developer instead of reaching the app as a malformed value.
 *
 * @remarks
 * Kept beside the registry rather than in it so that the client bundle does not carry them (the client's budget
 * is 4 KB). The compiler keeps the two in step: every operation has an entry here, typed from the facade's return
 * type; `null` marks a fire-and-forget operation.
 * @public
 */
export const results = {
  'identity.get': obj(
    { app_user_id: str, tenant_id: str, locale: str, display_name: opt(str), avatar_url: opt(str), email: opt(str) },
    true,
  ),
  'auth.getToken': obj({ access_token: text, expires_in: num }, true),
  'auth.signIn': none,
  'auth.signOut': none,
  'auth.state': lit('signed-in', 'signed-out'),
  'room.current': nullable(obj({ room_id: str, name: opt(str), is_encrypted: bool, member_count: num }, true)),
  'message.send': obj({ event_id: str }, true),
  'files.pick': arr(file),
  'files.save': obj({ file_id: str }, true),
  'actions.elicit': any,
  'actions.progress': null,
  'ui.setTitle': null,
  'ui.toast': null,
  'ui.confirm': bool,
  'ui.openExternal': none,
  'ui.close': null,
  'ui.share': none,
  'storage.get': opt(json),
  'storage.set': none,
  'storage.remove': none,
  'storage.clear': none,
  'permissions.query': lit('granted', 'denied', 'prompt'),
  'permissions.request': lit('granted', 'denied'),
} as const satisfies { [W in MethodName]: Check<MethodResult<W>> | null };
