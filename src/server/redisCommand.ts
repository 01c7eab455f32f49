/**
 * A Redis client as this SDK uses it: the official `redis` client (v4 and later, `sendCommand`) or `ioredis`
 * (`call`). Typed structurally so neither is a dependency of svc-sdk.
 * @public
 */
export type RedisClientLike =
  | { sendCommand(args: string[]): Promise<unknown> }
  | { call(command: string, ...args: (string | number)[]): Promise<unknown> };

/**
 * Sends one raw command through either client, so both speak the same `SET … NX PX` and `EVAL` (their typed
 * helpers take options in different shapes).
 */
export function redisCommand(client: RedisClientLike, args: string[]): Promise<unknown> {
  if (typeof (client as { call?: unknown }).call === 'function')
    return (client as { call(c: string, ...a: string[]): Promise<unknown> }).call(args[0]!, ...args.slice(1));
  if (typeof (client as { sendCommand?: unknown }).sendCommand === 'function')
    return (client as { sendCommand(a: string[]): Promise<unknown> }).sendCommand(args);
  throw new TypeError('redis client: pass a client of the `redis` package (v4+) or of `ioredis`.');
}
