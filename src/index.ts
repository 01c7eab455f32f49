/**
 * svc-sdk: the typed client of the svc mini app bridge.
 *
 * @example
 * ```ts
 * import { svc } from 'svc-sdk';
 * const room = await svc.room.current();
 * ```
 * @packageDocumentation
 */
import { createSvc } from './client/createSvc';
import type { Svc } from './protocol/Svc';

export { createSvc, type SvcClient, type SvcOptions } from './client/createSvc';
export { isSvcError, SvcError, type WireError } from './protocol/SvcError';
export { ERROR_CODES, type KnownErrorCode, type SvcErrorCode } from './protocol/errorCodes';
export { BRIDGE_VERSION } from './protocol/frames';
export type { LaunchSnapshot } from './protocol/snapshot';
export type { PermissionScope } from './protocol/scopes';
export type { MethodName } from './protocol/methods';
export type { JsonCompatible, JsonValue } from './protocol/shape';
export type { Transport } from './rpc/Transport';
export type * from './protocol/types';
export type * from './protocol/Svc';

/**
 * The `svc` bridge for this page. It connects to its host on first use; importing it has no side effects.
 * @public
 */
export const svc: Svc = /* @__PURE__ */ createSvc().svc;
