/**
 * svc-sdk/host: the host's side of the bridge, for web and native host implementers (see PROTOCOL.md). Its
 * `createHost` validates a raw manifest; `svc-sdk/host/core` is the same without the validator.
 * @packageDocumentation
 */
export * from './core';
export { createHost } from './createHost';
