/**
 * What PROTOCOL.md's operation table says of each operation's params and result, for host implementers (Markdown).
 * The Scope and Person columns, and the result of a notification or an empty answer, come from the registry
 * (`npm run docs:tables` writes the table; a test fails when it drifts). Its type lists every operation of the
 * registry, so a new operation does not compile (tsc covers scripts/) without its row. Docs source, not shipped code.
 * @internal
 */
import type { MethodName } from '../src/protocol/methods';

/** One row's text: the wire params, and the result where the registry cannot say it (not a notification, not empty). */
export interface OperationDoc {
  params: string;
  result?: string;
}

/** The params and result of every operation, in the registry's order. @internal */
export const OPERATION_DOCS: { readonly [M in MethodName]: OperationDoc } = {
  'identity.get': {
    params: '`{}`',
    result: 'Identity `{ app_user_id, tenant_id, locale, display_name?, avatar_url?, email? }`',
  },
  'auth.getToken': { params: '`{}`', result: '`{ access_token, expires_in }` (seconds)' },
  'auth.signIn': { params: '`{}`' },
  'auth.signOut': { params: '`{}`' },
  'auth.state': { params: '`{}`', result: '`"signed-in"` or `"signed-out"`' },
  'room.current': { params: '`{}`', result: 'Room `{ room_id, name?, is_encrypted, member_count }` or `null`' },
  'message.send': {
    params: '`{ room_id, body, card? }`, card `{ title, body, actions?: [{ label, deep_link }] }`',
    result: '`{ event_id }`',
  },
  'files.pick': {
    params: '`{ accept?: string[], multiple?: boolean }`',
    result: '`[{ file_id, name, type, size, blob }]`',
  },
  'files.save': { params: '`{ name, blob }`', result: '`{ file_id }`' },
  'actions.elicit': {
    params: '`{ invocation, prompt, schema }`',
    result: 'any value, or `null` when the person declined',
  },
  'actions.progress': { params: '`{ invocation, message }`' },
  'ui.setTitle': { params: '`{ title }`' },
  'ui.toast': { params: '`{ message, kind?: "info" \\| "success" \\| "error" }`' },
  'ui.confirm': { params: '`{ title, body }`', result: '`true` or `false`' },
  'ui.openExternal': { params: '`{ url }` (http or https)' },
  'ui.close': { params: '`{}`' },
  'ui.share': { params: '`{ title, url }` (http or https)' },
  'storage.get': { params: '`{ key }`', result: 'the JSON value, or absent when there is none' },
  'storage.set': { params: '`{ key, value }` (a JSON value)' },
  'storage.remove': { params: '`{ key }`' },
  'storage.clear': { params: '`{}`' },
  'permissions.query': { params: '`{ scope }`', result: '`"granted"`, `"denied"` or `"prompt"`' },
  'permissions.request': { params: '`{ scope }`', result: '`"granted"` or `"denied"`' },
};
