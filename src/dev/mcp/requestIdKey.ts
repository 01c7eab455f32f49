/**
 * A JSON-RPC request id as a key of a map or a set: one for `1` and another for `"1"`, which JSON-RPC holds apart.
 * @internal
 */
export const requestIdKey = (id: unknown): string => String(JSON.stringify(id));
