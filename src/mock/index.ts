/**
 * `svc-sdk/mock`: a mock host for unit tests of a mini app in Vitest or Jest. It runs the real `svc` client against
 * a host that follows the platform's rules, with the person's prompts answered by the test.
 *
 * @example
 * ```ts
 * import { createMockHost } from 'svc-sdk/mock';
 * const host = createMockHost({ manifest, answers: { permission: () => 'granted' } });
 * expect(await host.svc.permissions.request('room.context')).toBe('granted');
 * ```
 * @packageDocumentation
 */
export { createMockHost } from './createMockHost';
export { installMockSvc, type InstalledMockSvc } from './installMockSvc';
export type { MockHost } from './MockHost';
export type { MockAnswers } from './mockAnswers';
export type { MockCall, MockFault, MockFile, MockHostOptions, MockUi } from './types';
export type { MockSavedFile, MockSentMessage } from './MockState';
export type { InvokeContext as MockInvokeContext } from '../host/rules/actionRules';
export {
  createMemoryStorage as createMockStore,
  STORAGE_QUOTA,
  type StorageStore as MockStore,
} from '../host/rules/createMemoryStorage';
export {
  decodeMockToken,
  deriveAppUserId,
  MOCK_TOKEN_KEY,
  type DecodeMockTokenOptions,
  type MockTokenClaims,
} from './mockToken';
export { isSvcError, SvcError } from '../protocol/SvcError';
export type { Manifest } from '../manifest';
