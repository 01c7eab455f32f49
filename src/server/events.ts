/**
 * Fields every webhook event carries. `user.deprovisioned`'s payload is the platform's; the other events'
 * payloads are "not shown" there, so they follow the same shape plus what each event is about (docs/decisions.md).
 * @public
 */
export interface WebhookEventBase {
  /** The event name. */
  event: string;
  /** ISO 8601 UTC. */
  occurred_at: string;
  mini_app_id: string;
  tenant_id: string;
}

/** A person left the tenant: delete their data (a deletion instruction). @public */
export interface UserDeprovisionedEvent extends WebhookEventBase {
  event: 'user.deprovisioned';
  app_user_id: string;
}
/** A person installed the mini app. @public */
export interface InstallationCreatedEvent extends WebhookEventBase {
  event: 'installation.created';
  app_user_id: string;
  /** The installed version. */
  version: string;
}
/** Uninstalled, or removed by an administrator; the token exchange is already revoked. @public */
export interface InstallationDeletedEvent extends WebhookEventBase {
  event: 'installation.deleted';
  app_user_id: string;
  /** Who removed it. */
  removed_by: 'user' | 'admin';
}
/** A permission was granted. @public */
export interface ScopeGrantedEvent extends WebhookEventBase {
  event: 'scope.granted';
  app_user_id: string;
  /** The manifest scope, e.g. `svc.notifications`. */
  scope: string;
}
/** A permission was revoked. @public */
export interface ScopeRevokedEvent extends WebhookEventBase {
  event: 'scope.revoked';
  app_user_id: string;
  scope: string;
}
/** The service revoked a published version: stop serving it. @public */
export interface AppRevokedEvent extends WebhookEventBase {
  event: 'app.revoked';
  /** The revoked version. */
  version: string;
  /** A sentence, when the service gives one. */
  reason?: string;
}
/** An event this SDK does not know yet (a newer platform): kept whole, never a crash. @public */
export interface UnknownWebhookEvent extends WebhookEventBase {
  [field: string]: unknown;
}

/** The platform's webhook events, by name. @public */
export interface WebhookEventMap {
  'installation.created': InstallationCreatedEvent;
  'installation.deleted': InstallationDeletedEvent;
  'scope.granted': ScopeGrantedEvent;
  'scope.revoked': ScopeRevokedEvent;
  'user.deprovisioned': UserDeprovisionedEvent;
  'app.revoked': AppRevokedEvent;
}

/** A known event name. @public */
export type WebhookEventName = keyof WebhookEventMap;

/** Every webhook event the platform sends. @public */
export type WebhookEvent = WebhookEventMap[WebhookEventName];

/** The known event names, in the platform's order. @public */
export const WEBHOOK_EVENTS = [
  'installation.created',
  'installation.deleted',
  'scope.granted',
  'scope.revoked',
  'user.deprovisioned',
  'app.revoked',
] as const satisfies readonly WebhookEventName[];

/**
 * Whether `event` (from `verifyWebhook`) is the known event `name`, narrowing it to that event's type. A plain
 * `event.event === name` does not narrow, since an event this SDK does not know has a string `event` too.
 * @example
 * ```ts
 * const event = await verifyWebhook(request, { secrets: [current, previous] });
 * if (isWebhookEvent(event, 'scope.granted')) console.log(`${event.app_user_id} granted ${event.scope}`);
 * ```
 * @remarks
 * It checks the name only: a payload is what the platform sent (svc-sdk's payloads but one are its decision, so
 * check a field you rely on).
 * @public
 */
export function isWebhookEvent<N extends WebhookEventName>(
  event: WebhookEvent | UnknownWebhookEvent,
  name: N,
): event is WebhookEventMap[N] {
  return event?.event === name;
}
