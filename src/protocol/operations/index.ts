import type { MethodName } from '../Svc';
import { actions } from './actions';
import { auth } from './auth';
import type { OperationDef } from './define';
import { files } from './files';
import { identity } from './identity';
import { message } from './message';
import { permissions } from './permissions';
import { room } from './room';
import { storage } from './storage';
import { ui } from './ui';

/** The namespaces of the operations, in the order of the facade (and of the client's table). */
const namespaces = { identity, auth, room, message, files, actions, ui, storage, permissions };
type Namespaces = typeof namespaces;

export type { MethodName } from '../Svc';

/** Every operation by wire name, each entry as its namespace module defines it. */
export type Operations = {
  [W in MethodName]: W extends `${infer N extends keyof Namespaces}.${infer M}`
    ? Namespaces[N][M & keyof Namespaces[N]]
    : never;
};

/**
 * The registry: every bridge operation by wire name (`'room.current'` is `svc.room.current`), as the namespace
 * modules define them. The host's dispatch and checks, its answers and effects, the mock, the dev page, the
 * client's table (by a drift test) and the docs' tables all come from it.
 * @public
 */
export const methods = Object.fromEntries(
  Object.entries(namespaces).flatMap(([ns, defs]) =>
    Object.entries(defs as Record<string, OperationDef>).map(([member, def]) => [`${ns}.${member}`, def]),
  ),
) as Operations;

/** Whether `name` is a registry operation (own key only: no prototype walk). */
export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.hasOwn(methods, name);
}
