/**
 * `svc-sdk/dev`: the local platform of `svc dev`: the simulated messenger page, the identity provider, the server
 * API emulator, signed webhooks, the app's package on its own origin, and a guarded control API.
 * @packageDocumentation
 */
export * from './devContract';
export { ACCESS_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT } from './tokenExchangeForm';
export {
  startDevPlatform,
  type DevNotice,
  type DevPlatform,
  type DevPlatformOptions,
} from './platform/startDevPlatform';
export { formatDevEvent, type DevEvent } from './DevEvent';
export type { AppTokenOptions, DevPlatformHandle } from './platform/platformHandle';
export { readAppDir, DevAppError, type DevApp } from './platform/readAppDir';
export {
  createPackageServer,
  type BlockedRequest,
  type PackageServerOptions,
  type PackageServer,
} from './platform/serve/createPackageServer';
export { packageCsp, blockedAdvice, type PackagePolicies } from './platform/serve/packageCsp';
