// biome-ignore-all lint/suspicious/noExplicitAny: (...given: any[]) matches every member's signature, whatever its parameters
import { type MethodName, methods, type Operations } from './operations';
import type { OperationDef } from './operations/define';
import type { Infer } from './shape';
import type { Svc } from './Svc';

export { isMethodName, type MethodName, methods } from './operations';
export type { Asks, OperationDef, OperationKind } from './operations/define';

/** One bridge operation in the registry. @public */
export type MethodDef = OperationDef;

/** The params object the host receives for an operation. @public */
export type MethodParams<W extends MethodName> = Infer<Operations[W]['params']>;

/** What an operation resolves to: what its facade member resolves to. @public */
export type MethodResult<W extends MethodName> = W extends `${infer N extends keyof Svc}.${infer M}`
  ? Svc[N][M & keyof Svc[N]] extends (...given: any[]) => infer R
    ? Awaited<R>
    : never
  : never;

/**
 * The shape of each operation's answer, checked by `createHost()` before the answer leaves the host, so a host
 * bug is reported to the host's developer instead of reaching the app as a malformed value; `null` marks a
 * fire-and-forget operation. Each is its operation's `result`.
 * @public
 */
export const results = Object.fromEntries(Object.entries(methods).map(([name, def]) => [name, def.result])) as {
  [W in MethodName]: Operations[W]['result'];
};
