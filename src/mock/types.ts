import type { HostHandlers } from '../host/types';
import type { PermissionScope } from '../protocol/scopes';
import type { MockAnswers } from './mockAnswers';
import type { Identity, Room, Theme } from '../protocol/types';
import type { StorageStore as MockStore } from '../host/rules/createMemoryStorage';

export type { MockUi } from './MockUi';

/**
 * A file the person has in their service storage, offered by `svc.files.pick()`.
 * @public
 */
export interface MockFile {
  /** File name with extension. */
  name: string;
  /** MIME type; default `application/octet-stream`. */
  type?: string;
  /** The content; default empty. */
  content?: string | Blob;
  /** Default `file-<n>`. */
  file_id?: string;
}

/**
 * Options of {@link createMockHost}.
 * @public
 */
export interface MockHostOptions {
  /** The mini app's manifest (the parsed `manifest.json`); validated, and an invalid one throws naming each problem. */
  manifest: unknown;
  /** Who the person is. `app_user_id` defaults to the HMAC of `userId` and the manifest id; `tenant_id` to `'tenant-mock'`. */
  identity?: Partial<Identity>;
  /** The platform user id `app_user_id` is derived from. Default `'user-1'`. */
  userId?: string;
  /** The tenant key of that HMAC. Default `'mock-tenant-key'`. */
  tenantKey?: string;
  /** The room the app was opened from; default `null` (launched from the home grid). */
  room?: Room | null;
  /** Default `'light'`. */
  theme?: Theme;
  /** BCP 47; default the identity's locale, else the manifest's `default_locale`, else `'en'`. */
  locale?: string;
  /** Deep-link parameters; default `{}`. */
  launchParams?: Record<string, string>;
  /** Initial state of declared scopes; the others start at `prompt`. Setting an undeclared scope throws. */
  permissions?: Partial<Record<PermissionScope, 'granted' | 'denied' | 'prompt'>>;
  /** How the person answers prompts: the host's answers, with test defaults for the picker and the share sheet. */
  answers?: MockAnswers;
  /** Files offered by `svc.files.pick()`. */
  files?: MockFile[];
  /** A store shared between hosts, so data survives a relaunch; default a fresh one per host. */
  storage?: MockStore;
  /** `external-oauth`: whether the person starts signed in. Default false. */
  signedIn?: boolean;
  /** The `iss` of minted tokens (`svc-exchange`). Default `'https://auth.svc.mock/realms/mock'`. */
  issuer?: string;
  /** Lifetime of minted tokens in seconds. Default 300. */
  tokenLifetime?: number;
  /** `'floor'` (default) follows each action's `confirm`; `'always'` plays a stricter tenant policy. */
  confirmActions?: 'floor' | 'always';
  /** Replaces the mock's handler of an operation (scope checks and faults still apply). */
  handlers?: HostHandlers;
  /** The client's timeout (ms) for calls that do not wait on a person. Default 10 000. */
  timeout?: number;
  /** The client's timeout (ms) for calls that wait on a person. Default 600 000. */
  promptTimeout?: number;
}

/**
 * One bridge call the host saw, with its outcome once it has one.
 * @public
 */
export interface MockCall {
  /** The wire name, e.g. `'room.current'`. */
  method: string;
  /** The params as the host received them. */
  params: unknown;
  /** `Date.now()` when it arrived. */
  at: number;
  /** The answer, once it resolved (absent for fire-and-forget operations). */
  result?: unknown;
  /** The error code and message, once it rejected. */
  error?: { code: string; message: string };
}

/**
 * A fault to inject into an operation's answer.
 * @public
 */
export interface MockFault {
  /** Reject with this code. */
  code?: string;
  /** The message of that rejection. */
  message?: string;
  /** Its `retriable`; default from the known codes' table, else false. */
  retriable?: boolean;
  /** Answer this many ms late (then normally, unless `code` or `hang`). */
  delay?: number;
  /** Never answer: the client's timeout fires. */
  hang?: boolean;
  /** How many calls it applies to; default every call until {@link MockHost.clearFaults}. */
  times?: number;
}
