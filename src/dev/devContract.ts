/**
 * The contract between the `svc dev` platform (Node, src/dev/platform) and the simulated messenger page
 * (src/dev/messenger): the control API's routes with their bodies and answers ({@link ControlRoutes}, which the platform
 * implements and the page calls), the server-sent events ({@link DevStreamEvents}), and the shape of the state.
 *
 * @remarks
 * Rules of the control API: served on 127.0.0.1 only, under {@link CONTROL_PREFIX}; every request carries
 * {@link CONTROL_TOKEN_HEADER} with the per-launch token, an `Origin` equal to the messenger origin and a `Host`
 * equal to the platform's own host (DNS rebinding); bodies are JSON (`content-type: application/json`).
 * Errors are problem details (`type`, `title`, `status`, `detail`, `instance`), `detail` naming the field.
 * The page's channel (`GET /__svc/channel`, a WebSocket: {@link ChannelRequest}, {@link ChannelReply}) and the
 * event stream for readers (`GET /__svc/events`) cannot send headers from a browser, so they take the token as the
 * `token` query parameter instead; Origin and Host are still checked.
 * @packageDocumentation
 */

import type * as z from 'zod';
import type { Manifest } from '../manifest';
import type { Card } from '../protocol/types';
import type { CONTROL_BODIES } from './controlSchemas';
import type { ACCESS_TOKEN_TYPE } from './tokenExchangeForm';

/** Header that carries the per-launch control token. @public */
export const CONTROL_TOKEN_HEADER = 'x-svc-dev-token';
/** Path prefix of every control API route on the messenger origin. @public */
export const CONTROL_PREFIX = '/__svc';

/**
 * The id of the page's inlined start (a `<script type="application/json">` holding {@link DevPageStart}): the page
 * renders its first screen from it without a request. @public
 */
export const PAGE_START_ID = 'svc-dev-start';

/**
 * The fragment of the messenger's URL while the app is open (`…/?token=…#app`). The page opens the app in the current
 * room when it loads with it, so a reload shows the app again, and the URL `svc dev` prints opens it at start. @public
 */
export const APP_OPEN_FRAGMENT = '#app';

/** A person in the simulated tenant. @public */
export interface DevUser {
  /** Platform user id (the subject token's `sub`); the app sees `app_user_id` instead. */
  id: string;
  /** The pairwise id the mini app sees (`sub` of the exchanged token, `app_user_id` in webhooks). */
  app_user_id: string;
  display_name: string;
  tenant_id: string;
  /** Set once the person left the tenant (`user.deprovisioned` sent); the exchange then refuses. */
  deprovisioned?: boolean;
}

/** A tenant (organisation) of the simulated messenger. @public */
export interface DevTenant {
  id: string;
  name: string;
  /** `tenant_policy.max_approval_minor` reported by `/agents/verify`. */
  max_approval_minor: number;
  currency_code: string;
}

/** One entry of a room's timeline. @public */
export type DevTimelineEntry =
  | {
      kind: 'message';
      event_id: string;
      sender: string;
      text: string;
      at: string;
      via_app?: string;
      /** A card the person sent from their own client through the app (`svc.message.send`). */
      card?: DevCard;
    }
  | { kind: 'card'; event_id: string; mini_app_id: string; app_user_id: string; card: DevCard; at: string };

/** A card as the platform keeps it: the bridge's {@link Card}, its actions always listed. @public */
export type DevCard = Required<Card>;

/** A room. @public */
export interface DevRoom {
  id: string;
  name: string;
  /** End-to-end encrypted: the server API refuses cards with 409 `room-encrypted`. */
  is_encrypted: boolean;
  /** Platform user ids of the members. */
  members: string[];
  timeline: DevTimelineEntry[];
}

/** An installation of the mini app for one person. @public */
export interface DevInstallation {
  user_id: string;
  mini_app_id: string;
  version: string;
  installed: boolean;
  installed_at: string;
}

/** Scopes granted by one person to the mini app (manifest scope names, e.g. `svc.notifications`). @public */
export interface DevGrant {
  user_id: string;
  mini_app_id: string;
  scopes: string[];
}

/** A notification the backend posted (the tray). @public */
export interface DevNotification {
  id: string;
  user_id: string;
  mini_app_id: string;
  title: string;
  body: string;
  /** Route inside the mini app; opening the notification navigates the app there. */
  deep_link: string;
  at: string;
  read: boolean;
}

/** One HTTP attempt of a webhook delivery. @public */
export interface DevDeliveryAttempt {
  at: string;
  /** HTTP status, or absent when the request failed (see `error`). */
  status?: number;
  /** Network error or `timeout` (5 s answer budget). Never contains a secret. */
  error?: string;
  duration_ms: number;
  /** The backend's answer, its first 2,000 characters: a duplicate says so here. */
  response_body?: string;
}

/** A webhook delivery with its attempts. @public */
export interface DevDelivery {
  id: string;
  event: string;
  payload: Record<string, unknown>;
  url: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: DevDeliveryAttempt[];
  /** ISO time of the next retry while pending. */
  next_attempt_at?: string;
  /** The headers of the last attempt as sent, the signature cut to its prefix. */
  headers?: Record<string, string>;
  /** The delivery this one sends again ("send again"). */
  resend_of?: string;
}

/** Settings the messenger page shows. @public */
export interface DevSettings {
  /** The messenger's theme; 'system' (a new state's) follows the system's colour scheme, in the page and the app. */
  theme: 'system' | 'light' | 'dark';
  locale: string;
  /** The person the page acts as (platform user id). */
  current_user_id: string;
  /** The room the app is opened in. */
  current_room_id: string;
}

/** Secret state (the secret itself is only returned by `startDevPlatform`, never over the control API). @public */
export interface DevSecretState {
  /** Incremented on each rotation. */
  generation: number;
  /** While set (ISO time), the previous secret still verifies. */
  previous_valid_until?: string;
}

/** The whole state, as `GET /__svc/state` returns it and as the state file stores it (minus secrets). @public */
export interface DevState {
  /** Incremented on every change: a page applies a state only if it is newer than the one it has. */
  revision?: number;
  mini_app_id: string;
  version: string;
  /** Set when the administrator revoked the running version (server calls then return 409). */
  version_revoked?: boolean;
  users: DevUser[];
  tenants: DevTenant[];
  rooms: DevRoom[];
  installations: DevInstallation[];
  grants: DevGrant[];
  notifications: DevNotification[];
  deliveries: DevDelivery[];
  settings: DevSettings;
  secret: DevSecretState;
  /**
   * The port the app's package was served on: kept with `--state`, so the app's origin (which a backend allows by
   * name) stays the same across restarts.
   */
  package_port?: number;
  /** The local store's record of the app, once a package was run or published (`svc dev <file.swbn>`, `svc publish`). */
  store?: DevStoreState;
  /**
   * The app's `svc.storage` of each person (by user id: key to JSON value), kept by the platform as a host keeps
   * it for the person's devices: a page reload, another tab and a restart with `--state` see it; a reset empties it.
   */
  storage?: Record<string, Record<string, unknown>>;
}

/** The local store's record of the app: the key its id is bound to, and every version it accepted. @public */
export interface DevStoreState {
  /** The key the id is bound to (SPKI DER, base64): the first upload's, moved by a rotation. */
  key: string;
  /** The id derived from that key (after a rotation, no longer the app's id). */
  key_id: string;
  /** The highest version ever accepted, revoked ones included: an upload must be higher. */
  highest: string;
  /** Every accepted version, oldest first. */
  versions: DevStoreVersion[];
  /**
   * The keys the id moved away from (SPKI DER, base64), oldest first: a rotation never moves it back to one, and a
   * release they sign with the bound key leaves the binding where it is.
   */
  retired_keys?: string[];
}

/** One version the local store accepted. @public */
export interface DevStoreVersion {
  version: string;
  /** SHA-256 of the package, hex. */
  sha256: string;
  /** The ids of the keys that signed it. */
  signers: string[];
  accepted_at: string;
  /** Set once the administrator revoked it. */
  revoked?: boolean;
  /** The tenants it is offered to, for a `tenant-private` package; absent for the store channel. */
  tenants?: string[];
}

/** What the page needs at start (`GET /__svc/config`). @public */
export interface DevConfig {
  /** Origin of the app package (a second loopback origin). */
  appOrigin: string;
  /** The URL the iframe loads (the package entry, or `--app-url`). */
  appUrl: string;
  /**
   * The frame loads the developer's own server (`--app-url`): a version the store accepts is recorded, not what runs.
   */
  devServer?: boolean;
  /** The manifest, validated once by the platform: the page builds its host from it without validating it again. */
  manifest: Manifest;
  /** `{authUrl}` (no realm); the token endpoint is `{authUrl}/realms/{realm}/protocol/openid-connect/token`. */
  authUrl: string;
  realm: string;
  /** `{base_url}` of the server API, ending in `/v1`. */
  baseUrl: string;
  /**
   * This start of svc dev, an opaque id: a page served by an earlier one (its launch token kept with `--state`) is
   * told on its channel to reload.
   */
  run: string;
  /** Requests the package's policies blocked so far, each with what to change. */
  blocked: DevBlockedRequest[];
  /** Where the state is saved (`--state`), absolute; absent when it lives in memory only. */
  statePath?: string;
  /** The backend's webhook URL (`--webhooks`); absent when the platform sends no webhook. */
  webhooks?: string;
  /**
   * The MCP endpoint, the header an MCP client sends, and the server's name in the configurations svc dev prints
   * (`svc-` and the app's name); absent when the platform serves none.
   */
  mcp?: { url: string; header: string; name: string };
}

/**
 * What the messenger page starts from, inlined in its HTML: the configuration (`GET /__svc/config`) and the state
 * (`GET /__svc/state`) as they were when the page was served; the page's channel sends the state again only if it
 * changed since (the page names the revision it has). @public
 */
export interface DevPageStart {
  config: DevConfig;
  state: DevState;
}

/** A request the package's policies blocked, as the platform logs it. @public */
export interface DevBlockedRequest {
  /** What was blocked (a URL, or `inline`/`eval`). */
  blocked: string;
  /** The CSP directive that blocked it, or `svc pack` for a file whose name no package can hold. */
  directive: string;
  /** What to change: the host to add to `network`, or the `--allow` flag. */
  advice: string;
  at: string;
}

/**
 * The body a control route takes, as the page sends it: the input of the route's schema
 * (src/dev/platform/controlSchemas.ts), the one place a body is written. @public
 */
export type ControlBody<K extends keyof typeof CONTROL_BODIES> = z.input<(typeof CONTROL_BODIES)[K]>;

/** Body of `POST /__svc/subject-token`: the page, as native runtime, gets the person's platform token. @public */
export type SubjectTokenRequest = ControlBody<'POST /__svc/subject-token'>;
/** Body of `POST /__svc/message`: the page posts into a room after the person confirmed `svc.message.send`. @public */
export type PostMessageRequest = ControlBody<'POST /__svc/message'>;
/** Body of install and deprovision (grant, revoke and uninstall add their field). @public */
export type UserActionRequest = ControlBody<'POST /__svc/install'>;
/** Body of `PATCH /__svc/settings`: any subset. @public */
export type SettingsPatch = ControlBody<'PATCH /__svc/settings'>;
/** Body of `POST /__svc/rooms`. @public */
export type CreateRoomRequest = ControlBody<'POST /__svc/rooms'>;

/** Answer of `POST /__svc/subject-token`. @public */
export interface SubjectTokenResponse {
  subject_token: string;
  actor_token?: string;
  expires_in: number;
}

/** Answer of the IdP token endpoint (RFC 8693). @public */
export interface TokenExchangeResponse {
  access_token: string;
  issued_token_type: typeof ACCESS_TOKEN_TYPE;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/** An MCP tool call the platform relays to the page (the `mcp-invoke` event). @public */
export interface McpInvoke {
  id: string;
  name: string;
  input: unknown;
  /** The input as the page may show it: tokens and the platform's secrets redacted. */
  shown_input: unknown;
  agent_id: string;
  /** `agent`: the app's `elicit` goes to the MCP client first (`--elicit agent`). */
  elicit: 'sheet' | 'agent';
}

/**
 * An MCP tool call svc dev refused before it reached the page (a tool the app does not have, arguments that do not
 * fit its inputSchema), as the agent was told: the page lists it with the calls that ran. @public
 */
export interface McpRefused {
  name: string;
  /** The arguments as the page may show them: tokens and the platform's secrets redacted. */
  shown_input: unknown;
  agent_id: string;
  /** The error's code and sentence, as the agent got them (redacted). */
  code: string;
  message: string;
}

/** Body of the page's answers to a relayed MCP call; `id` names the call. @public */
export interface McpPageBody {
  id?: string;
  /** `progress`: a progress message for the agent. */
  message?: string;
  /** `progress`: whether the call waits for the person (a sheet is open). */
  waiting?: boolean;
  /** `progress`, with `waiting`: the sheet asks the person to confirm the call, so its handler has not run. */
  confirming?: boolean;
  /** `result`: the action's result. */
  result?: unknown;
  /** `result`: the SvcError the invocation ended with. */
  error?: { code: string; message: string; retriable: boolean };
  /** `elicit`: the app's question and the JSON Schema of the answer. */
  prompt?: string;
  schema?: Record<string, unknown>;
}

/** What the agent was sent for a relayed MCP call: its result, or the error it ended with. @public */
export type McpSent = { result: unknown } | { error: { code: string; message: string; retriable: boolean } };

/**
 * Control API routes (method + path under the messenger origin) with request and response bodies: each body is
 * its route's schema ({@link ControlBody}); the platform's control app serves each route
 * (src/dev/platform/createControlApp.ts, held to this table by test/types/devContract.ts), its action is typed by it
 * (controlActions.ts; the compiler refuses a missing one), and the page calls it by name through Hono's typed client
 * (src/dev/messenger/api.ts). A route whose action changes the state answers the new {@link DevState}.
 * @public
 */
export interface ControlRoutes {
  'GET /__svc/config': { request: undefined; response: DevConfig };
  'GET /__svc/state': { request: undefined; response: DevState };
  'POST /__svc/subject-token': { request: SubjectTokenRequest; response: SubjectTokenResponse };
  'POST /__svc/message': { request: PostMessageRequest; response: DevState };
  'POST /__svc/install': { request: UserActionRequest; response: DevState };
  'POST /__svc/uninstall': { request: ControlBody<'POST /__svc/uninstall'>; response: DevState };
  'POST /__svc/deprovision': { request: ControlBody<'POST /__svc/deprovision'>; response: DevState };
  'POST /__svc/grant': { request: ControlBody<'POST /__svc/grant'>; response: DevState };
  'POST /__svc/revoke': { request: ControlBody<'POST /__svc/revoke'>; response: DevState };
  'POST /__svc/revoke-version': { request: ControlBody<'POST /__svc/revoke-version'>; response: DevState };
  'POST /__svc/rotate-secret': { request: ControlBody<'POST /__svc/rotate-secret'>; response: DevState };
  'POST /__svc/rooms': { request: CreateRoomRequest; response: DevState };
  'PATCH /__svc/settings': { request: SettingsPatch; response: DevState };
  /** Sets, removes or clears the app's `svc.storage` of a person (`op`, `key`, `value`), within its quota. */
  'POST /__svc/storage': { request: ControlBody<'POST /__svc/storage'>; response: DevState };
  'POST /__svc/notifications/read': { request: ControlBody<'POST /__svc/notifications/read'>; response: DevState };
  /** Send a delivery again (a new delivery with the same payload). */
  'POST /__svc/deliveries/resend': { request: ControlBody<'POST /__svc/deliveries/resend'>; response: DevState };
  /**
   * Send again every failed delivery not sent again yet (the webhook panel's "Send the failed ones again"), oldest
   * first: for a backend that was down longer than the retries last.
   */
  'POST /__svc/deliveries/resend-failed': { request: Record<string, never>; response: DevState };
  /**
   * Send a test event: the contract's example of `event` about the person using the messenger now, signed and
   * delivered like any other (the webhook panel's "Send a test event").
   */
  // A <select>'s value: the route's schema refuses an unknown name with a 400 naming the events.
  'POST /__svc/deliveries/test': { request: { event: string }; response: DevState };
  /** What only the page knows, for the terminal: a launch, or an app that never said hello (204). */
  'POST /__svc/page-event': {
    request: ControlBody<'POST /__svc/page-event'>;
    response: undefined;
  };
  /** Back to the first launch's state (people, rooms, installations, nothing granted, no history). */
  'POST /__svc/reset': { request: Record<string, never>; response: DevState };
  /** Progress of the relayed MCP call, or whether it waits for the person; answers the message as the agent got it. */
  'POST /__svc/mcp/progress': {
    request: ControlBody<'POST /__svc/mcp/progress'>;
    response: { ok: true; message?: string };
  };
  /** The relayed MCP call's result or error; answers what the agent got (tokens and secrets redacted). */
  'POST /__svc/mcp/result': { request: ControlBody<'POST /__svc/mcp/result'>; response: McpSent };
  /** The app's elicit, sent to the agent: its answer, if the agent gave one. */
  'POST /__svc/mcp/elicit': {
    request: ControlBody<'POST /__svc/mcp/elicit'>;
    response: { answered: boolean; value?: unknown };
  };
}

/** A route of the control API, `METHOD /path`. @public */
export type ControlRoute = keyof ControlRoutes;

/** The routes the page answers relayed MCP calls through. @public */
export type McpRoute = Extract<ControlRoute, `POST /__svc/mcp/${string}`>;

/**
 * The page's answers to a relayed MCP call, by control route: what the agent bridge offers the platform's routes.
 * @public
 */
export type McpRouteHandlers = {
  [K in McpRoute]: (
    body: ControlRoutes[K]['request'],
  ) => ControlRoutes[K]['response'] | Promise<ControlRoutes[K]['response']>;
};

/** The routes answered from the state: all but the page's configuration and the MCP relay's. @public */
export type StateRoute = Exclude<ControlRoute, 'GET /__svc/config' | McpRoute | 'POST /__svc/page-event'>;

/** The routes that take a body and answer the new state: what the page's buttons call. @public */
export type ChangeRoute = {
  [K in ControlRoute]: ControlRoutes[K]['response'] extends DevState
    ? ControlRoutes[K]['request'] extends undefined
      ? never
      : K
    : never;
}[ControlRoute];

/**
 * The events on `GET /__svc/events?token=…` (server-sent events), by name, with their JSON data. `state` is sent
 * first on connect and after every change, so a page may simply re-render from it.
 * @public
 */
export interface DevStreamEvents {
  state: { type: 'state'; state: DevState };
  /** A request the package's policies blocked. */
  blocked: { type: 'blocked'; request: DevBlockedRequest };
  /** What the developer must fix: a change that could not be saved, an edit of manifest.json that does not validate. */
  problem: { type: 'problem'; message: string };
  /** An MCP tool call to run in the open app. */
  'mcp-invoke': McpInvoke;
  /** The agent cancelled the relayed call with this id. */
  'mcp-cancel': {
    id: string;
    /** The error the agent was told (cancelled by it, or the person did not answer in time): the page's row says it. */
    told?: { code: string; message: string };
  };
  /** An MCP call svc dev refused before it could reach the page: listed with the calls that ran. */
  'mcp-refused': McpRefused;
  /** manifest.json changed (and is valid): the page loads again to use it. */
  manifest: { type: 'manifest' };
  /**
   * The page was served by an earlier start of svc dev (its launch token kept with `--state`), whose configuration it
   * holds: it loads again. Sent alone, first, on a channel that names another `run` than {@link DevConfig}'s.
   */
  restarted: { type: 'restarted' };
  /** manifest.json validates again, the same as the one served: the problem said of it is over, nothing reloads. */
  'manifest-valid': { type: 'manifest-valid' };
}

/**
 * The page's WebSocket: the platform sends each event of {@link DevStreamEvents} (and `patch`) as
 * `{"event": type, "data": …}`; the page sends its answers to a relayed MCP call on it ({@link ChannelRequest}),
 * which an event stream plus a request per answer made several times slower. @public
 */
export const CHANNEL_PATH = `${CONTROL_PREFIX}/channel`;

/** What the page sends on its channel: one answer to a relayed MCP call, by its control route, numbered `n`. @public */
export interface ChannelRequest<R extends McpRoute = McpRoute> {
  n: number;
  route: R;
  body: ControlRoutes[R]['request'];
}

/**
 * The page's probe of svc dev on its channel, `{n, route: "ping"}`, replied to with `{re: n, answer: "pong"}` by the
 * platform itself: an open socket says nothing of a platform that stopped answering (paused at a debugger's
 * breakpoint in the backend it runs, or SIGSTOP), a reply that does not come does. @public
 */
export const CHANNEL_PING = 'ping';

/** The platform's reply to the page's request `re`: the route's answer, or the sentence saying why not. @public */
export type ChannelReply = { re: number; answer: unknown } | { re: number; error: string };
