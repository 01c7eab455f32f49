import type { SvcActions } from './operations/actions';
import type { SvcAuth } from './operations/auth';
import type { SvcFiles } from './operations/files';
import type { SvcIdentity } from './operations/identity';
import type { SvcMessage } from './operations/message';
import type { SvcPermissions } from './operations/permissions';
import type { SvcRoom } from './operations/room';
import type { SvcStorage } from './operations/storage';
import type { SvcUi } from './operations/ui';
import type { Theme } from './types';

export type {
  ActionInput,
  ActionName,
  ActionOutput,
  SvcActionInputs,
  SvcActionOutputs,
  SvcActions,
} from './operations/actions';
export type { SvcAuth } from './operations/auth';
export type { SvcFiles } from './operations/files';
export type { SvcIdentity } from './operations/identity';
export type { SvcMessage } from './operations/message';
export type { SvcPermissions } from './operations/permissions';
export type { SvcRoom } from './operations/room';
export type { SvcStorage } from './operations/storage';
export type { SvcUi } from './operations/ui';

/**
 * `svc.app`: the launch snapshot, read once at start-up, and theme changes.
 * @public
 */
export interface SvcApp {
  /** The mini app's id (16 lowercase hex characters). */
  readonly id: string;
  /** The running package version (major.minor.patch). */
  readonly version: string;
  /** The person's locale, BCP 47. */
  readonly locale: string;
  /** The host's current colour scheme; kept current as theme changes arrive. */
  readonly theme: Theme;
  /** Deep-link parameters the mini app was opened with. */
  readonly launchParams: Readonly<Record<string, string>>;
  /**
   * Calls `callback` with the new theme each time the host's theme changes.
   * @returns A function that unsubscribes.
   */
  onThemeChange(callback: (theme: Theme) => void): () => void;
}

/**
 * Every member name `svc.supports()` knows, as written after `svc.` (`'room.current'`). Typed so an editor completes
 * it and flags a typo; any string is still accepted (a newer host may offer more).
 * @public
 */
export type SvcMember =
  | MethodName
  | 'version'
  | 'supports'
  | 'app.id'
  | 'app.version'
  | 'app.locale'
  | 'app.theme'
  | 'app.launchParams'
  | 'app.onThemeChange'
  | 'actions.handle';

/**
 * The `svc` global: the only non-standard global a mini app receives.
 * @public
 */
export interface Svc {
  /** The bridge version the host speaks (the SDK's own when no host is around). */
  readonly version: string;
  /**
   * Feature detection: whether `member` can be used here, e.g. `svc.supports('files.pick')` or
   * `svc.supports('svc.files.pick')`. Operations the host serves are answered from what it advertised; members the
   * app side provides (`actions.handle`, `app.onThemeChange`, the `svc.app` values, `version`, `supports`) are always
   * true. An unknown name is false.
   */
  supports(member: SvcMember | `svc.${SvcMember}` | (string & {})): boolean;
  /** `svc.app`: the launch snapshot, read once at start-up, and theme changes. */
  readonly app: SvcApp;
  /** `svc.identity`: who the person is, for display only; never authorisation (verify the token on your backend). */
  readonly identity: SvcIdentity;
  /** `svc.auth`: tokens for the mini app's own backend, in the manifest's auth mode. */
  readonly auth: SvcAuth;
  /** `svc.room`: the room the mini app was opened from (needs `room.context`); `null` from the home grid. */
  readonly room: SvcRoom;
  /** `svc.message`: send into a room as the person, from their own client; they confirm every send. */
  readonly message: SvcMessage;
  /** `svc.files`: files in the person's service storage. */
  readonly files: SvcFiles;
  /** `svc.actions`: the agent-callable actions the manifest declares. */
  readonly actions: SvcActions;
  /** `svc.ui`: the host's own UI. */
  readonly ui: SvcUi;
  /** `svc.storage`: a small (256 KB) key-value store of JSON values that survives reinstall and syncs across the person's devices. Larger data belongs on your backend: a web host's frame may get no IndexedDB (docs/app.md, "Browser storage in your frame"). */
  readonly storage: SvcStorage;
  /** `svc.permissions`: request at the moment of use, with the action visible. */
  readonly permissions: SvcPermissions;
}

// Written over Svc (not over the operation modules) so the published type names nothing internal; here, beside
// Svc, so the registry imports it one way.
/** Every operation name that crosses the wire from app to host, e.g. `'room.current'`. @public */
export type MethodName = {
  [N in Exclude<keyof Svc, 'version' | 'supports' | 'app'>]: `${N}.${Exclude<keyof Svc[N] & string, 'handle'>}`;
}[Exclude<keyof Svc, 'version' | 'supports' | 'app'>];
