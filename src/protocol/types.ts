// biome-ignore-all lint/suspicious/noExplicitAny: a handler's input defaults to what the handler itself declares
import type { JsonCompatible, JsonValue } from './shape';

/**
 * The colour scheme the host shows: `svc.app.theme`.
 * @public
 */
export type Theme = 'light' | 'dark';

/**
 * Who the person is, as far as the mini app needs for display. A suggestion until the backend validates a token.
 * @public
 */
export interface Identity {
  /** Stable for the pair (user, mini app); two mini apps serving one person get different, non-correlatable ids. */
  app_user_id: string;
  /** Needs `identity.basic`. */
  display_name?: string;
  /** Needs `identity.basic`. */
  avatar_url?: string;
  /** Needs `identity.email`. */
  email?: string;
  /** The tenant (organisation) the person belongs to. */
  tenant_id: string;
  /** BCP 47 locale of the person. */
  locale: string;
}

/**
 * The room the mini app was opened from.
 * @public
 */
export interface Room {
  /** The room's id, as `svc.message.send({ room_id })` takes it. */
  room_id: string;
  /** Display name, when the room has one. */
  name?: string;
  /** Whether the room is end-to-end encrypted (a backend cannot post cards into it; `svc.message.send` can). */
  is_encrypted: boolean;
  /** Number of members. */
  member_count: number;
}

/**
 * One button of a {@link Card}.
 * @public
 */
export interface CardAction {
  /** Button text. */
  label: string;
  /** A route inside the mini app, opened when the button is pressed. */
  deep_link: string;
}

/**
 * A rich message card. The bridge's shape is not given by the platform's specification; we use the server API's Card.
 * @public
 */
export interface Card {
  /** Card title. */
  title: string;
  /** Card body text. */
  body: string;
  /** Buttons; may be omitted for a card without buttons. */
  actions?: CardAction[];
}

/**
 * A message the person sends from their own client: `svc.message.send()`.
 * @public
 */
export interface OutgoingMessage {
  /** The room to send into (from `svc.room.current()`). */
  room_id: string;
  /** Message text. */
  body: string;
  /** An optional card shown with the message. */
  card?: Card;
}

/**
 * A file from the person's service storage, as `svc.files.pick()` returns it. The platform's specification does not give the
 * fields; these are our decision (README).
 * @public
 */
export interface SvcFile {
  /** The file's id in the person's storage. */
  file_id: string;
  /** File name with extension. */
  name: string;
  /** MIME type. */
  type: string;
  /** Size in bytes. */
  size: number;
  /** The content. */
  blob: Blob;
}

/**
 * Options of `svc.files.pick()`.
 * @public
 */
export interface PickOptions {
  /** MIME types to offer, e.g. `['image/png', 'application/pdf']`; all types when omitted. */
  accept?: string[];
  /** Whether the person may pick more than one file. */
  multiple?: boolean;
}

/**
 * A file to save into the person's service storage: `svc.files.save()`.
 * @public
 */
export interface SaveFile {
  /** File name with extension. */
  name: string;
  /** The content. */
  blob: Blob;
}

/**
 * A short-lived access token from `svc.auth.getToken()`. Call before each use; never cache, store or log it.
 * @public
 */
export interface Token {
  /** The bearer token for the mini app's own backend. */
  access_token: string;
  /** Lifetime in seconds (the platform's specification does not give the unit; seconds as in OAuth 2.0). */
  expires_in: number;
}

/**
 * `svc.auth.state()`.
 * @public
 */
export type AuthState = 'signed-in' | 'signed-out';

/**
 * `svc.permissions.query()`.
 * @public
 */
export type PermissionState = 'granted' | 'denied' | 'prompt';

/**
 * Who started an action invocation, handed to the handler of `svc.actions.handle()`.
 * @public
 */
export interface ActionContext {
  /** An AI agent or the person. */
  invoked_by: 'agent' | 'user';
  /** The agent's id, when an agent invoked the action. */
  agent_id?: string;
  /**
   * True when a human approved this specific call. The client passes `true` only when the host sent the boolean
   * `true`.
   */
  confirmed: boolean;
  /**
   * Aborts when the invoker cancels the invocation (an agent's cancelled tool call): stop, and pass it to `fetch`.
   * Given to handlers by the client; absent from the context a host sends.
   */
  signal?: AbortSignal;
}

/**
 * A handler registered with `svc.actions.handle()`: gets the action input (already checked by the host against
 * the manifest's `input_schema`) and returns the output (of `Output`, from the `output_schema`, once `svc types`
 * declared it), or a promise of it.
 * @public
 */
export type ActionHandler<Input = any, Output = unknown> = (
  input: Input,
  context: ActionContext,
) => Output | Promise<Output>;

/**
 * What `svc.actions.elicit()` asks the person.
 * @public
 */
export interface ElicitRequest {
  /** The question, shown to the person. */
  prompt: string;
  /** A JSON Schema of the answer. */
  schema: Record<string, unknown>;
}

/**
 * `svc.ui.toast()`.
 * @public
 */
export interface Toast {
  /** The text shown. */
  message: string;
  /** Styling; `'info'` when omitted. */
  kind?: 'info' | 'success' | 'error';
}

/**
 * `svc.ui.confirm()`.
 * @public
 */
export interface ConfirmRequest {
  /** Dialog title. */
  title: string;
  /** Dialog text. */
  body: string;
}

/**
 * `svc.ui.share()`.
 * @public
 */
export interface ShareRequest {
  /** What is shared, as a title. */
  title: string;
  /** The URL shared. */
  url: string;
}

export type { JsonCompatible, JsonValue };
