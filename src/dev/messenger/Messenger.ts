import type { ReadonlySignal, Signal } from '@preact/signals';
import type { Manifest } from '../../manifest';
import type {
  ChangeRoute,
  ControlRoutes,
  DevBlockedRequest,
  DevConfig,
  DevRoom,
  DevState,
  DevUser,
} from '../devContract';
import type { AgentPanelModel } from './createAgentPanel';
import type { CallLogModel } from './createCallLog';
import type { StateStore } from './createStateStore';

/** A control route a button calls: one that answers the new state (a change, or reading it again). */
export type ButtonRoute = ChangeRoute | 'GET /__svc/state';
/** The body a route takes, as an argument list (none for a GET). */
export type BodyOf<R extends ButtonRoute> = ControlRoutes[R]['request'] extends undefined
  ? []
  : [ControlRoutes[R]['request']];

/** A launch: from a room (or the home grid, `null`), with deep-link parameters of a declared route. */
export interface Launch {
  room: DevRoom | null;
  params: Record<string, string>;
}

/** What the settings' buttons do that asks first and explains after. */
export interface SettingsActions {
  uninstall(): void;
  deprovision(): void;
  revokeVersion(): void;
  reset(): void;
}

/** The tabs of the developer tools, in their order. */
export const TABS = ['Agent', 'Calls', 'Webhooks', 'Blocked', 'Notifications', 'Settings'] as const;
/** A tab of the developer tools. */
export type Tab = (typeof TABS)[number];

/** The open app as the panel shows it (absent: closed). */
export interface OpenApp {
  /** Its title (the manifest's name, then what `ui.setTitle` says). */
  title: string;
  /** Where and as whom it was opened. */
  where: string;
}

/** The messenger page: the state, the app's panel and what every component may do. */
export interface Messenger {
  readonly config: DevConfig;
  /** The manifest the platform validated. */
  readonly manifest: Manifest;
  readonly store: StateStore;
  readonly log: CallLogModel;
  readonly agent: AgentPanelModel;
  /** The person on screen. */
  readonly me: ReadonlySignal<DevUser | undefined>;
  /** The rooms of the person's tenant. */
  readonly myRooms: ReadonlySignal<DevRoom[]>;
  /** The room on screen; `null` on the home grid. */
  readonly room: ReadonlySignal<DevRoom | null>;
  /** The open app (undefined: closed). */
  readonly app: Signal<OpenApp | undefined>;
  /**
   * The app's frame, while it is open: a fresh one per launch (a new src differing in its fragment alone would not
   * reload it).
   */
  readonly frame: Signal<HTMLIFrameElement | undefined>;
  /** The notice above the timeline (empty: none). */
  readonly notice: Signal<{ text: string; kind: string }>;
  /** Requests the package's policies blocked, from the start. */
  readonly blocked: Signal<DevBlockedRequest[]>;
  readonly tab: Signal<Tab>;
  /** Runs a control call from a button: its answer (the new state) is applied at once; a refusal is a toast. */
  act<R extends ButtonRoute>(route: R, ...body: BodyOf<R>): Promise<DevState | undefined>;
  /** Opens the app as a native client would; resolves whether it is open. */
  open(launch: Launch): Promise<boolean>;
  /** Launches the open app again, as it was launched. */
  reload(): void;
  close(): void;
  /** Opens a deep link (a card's button, a notification) when it matches a declared route. */
  openLink(link: string): void;
  /**
   * Uploads a package to the store; a version accepted reloads the page once the answer is in, and the new page says
   * what the answer added (a warning). Rejects with the store's problem detail.
   */
  upload(bytes: ArrayBuffer): Promise<{ version: string; warning?: string }>;
  /** Says something above the timeline (`kind` 'warn' for what the person should notice). */
  say(text: string, kind?: string): void;
  readonly settings: SettingsActions;
}
