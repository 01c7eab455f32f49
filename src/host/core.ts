/**
 * svc-sdk/host/core: the host's side of the bridge without the manifest validator, for a host that validated its
 * manifest at upload (see PROTOCOL.md): the bridge core and the rules as a layer over it,
 * `createHost({ handlers, rules: withRules({ manifest, validator, answers }) })`.
 * @packageDocumentation
 */
export { createHostCore as createHost } from './createHostCore';
export type {
  BridgeOptions,
  HostCall,
  HostCallContext,
  EffectsOf,
  HostEffects,
  HostEndpoint,
  HostHandlers,
  HostOptions,
  Invocation,
} from './types';
export type { AnswerName, AnswerOptions, ActionConfirmRequest, HostAnswers } from './rules/HostAnswers';
export type { ConfirmPolicy, InvokeContext } from './rules/actionRules';
export {
  withRules,
  type HostRules,
  type RuleBridge,
  type RuleOptions,
  type RulesLayer,
  type ValidatedRuleOptions,
} from './rules/createRules';
export type { SignInState } from './rules/accountRules';
export type { PermissionRules } from './rules/permissionRules';
export { createMemoryGrants, type GrantStore } from './rules/GrantStore';
export {
  checkQuota,
  createMemoryStorage,
  STORAGE_QUOTA,
  storedBytes,
  type StorageStore,
} from './rules/createMemoryStorage';
export { toApp, toHost } from '../protocol/peerMethods';
export { APP_FRAME_ALLOW } from './appFrameAllow';
export { APP_FRAME_SANDBOX } from './appFrameSandbox';
export { attachIframe } from './attachIframe';
export { tapCalls, type CallObserver } from './tapCalls';
export { launchUrl } from './launchUrl';
export { launchParamsOf } from '../manifest/launchParamsOf';
export { createMemoryPair } from '../rpc/createMemoryPair';
export { portTransport } from '../rpc/portTransport';
export { nativeTransport, NATIVE_RECEIVE } from '../rpc/nativeTransport';
export {
  installNativePort,
  NATIVE_CONTRACT,
  NATIVE_PORT,
  NATIVE_SECRET,
  type NativePort,
} from '../native/installNativePort';

export {
  methods,
  results,
  type Asks,
  type OperationDef,
  type OperationKind,
  isMethodName,
  type MethodDef,
  type MethodName,
  type MethodParams,
  type MethodResult,
} from '../protocol/methods';
export { ERROR_CODES, type KnownErrorCode, type SvcErrorCode } from '../protocol/errorCodes';
export { isSvcError, SvcError, type WireError } from '../protocol/SvcError';
export { PEER, WIRE, BRIDGE_VERSION } from '../protocol/frames';
export { parseSnapshot, type LaunchSnapshot } from '../protocol/snapshot';
export {
  SCOPE_TO_MANIFEST,
  MANIFEST_SCOPES,
  PERMISSION_SCOPES,
  manifestScopeOf,
  type PermissionScope,
  type ManifestScope,
} from '../protocol/scopes';
export type { Transport } from '../rpc/Transport';
export type * from '../protocol/types';
export type { Svc } from '../protocol/Svc';
