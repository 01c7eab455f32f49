import * as z from 'zod';
import type { WebhookEventMap, WebhookEventName } from './events';
import { EXAMPLE_MINI_APP_ID } from './serverApiEndpoints';

// The platform shows the payload of `user.deprovisioned` only; the other five follow its shape (the same four
// fields) plus what each event is about (docs/decisions.md).
const base = <E extends WebhookEventName>(event: E) => ({
  event: z.literal(event).meta({ description: 'The event name.' }),
  occurred_at: z.iso.datetime().meta({ description: 'When it happened: ISO 8601, UTC.' }),
  mini_app_id: z.string().min(1).meta({ description: "The mini app's id: its manifest `id`." }),
  tenant_id: z.string().min(1).meta({
    description:
      'The tenant of the person. In app.revoked, a tenant the mini app is installed in: the revocation is of the version, in every tenant, and svc dev sends one event per tenant the version is installed in.',
  }),
});
const appUserId = z.string().min(1).meta({ description: "The person's app user id (the `sub` of their token)." });
const scope = z.string().min(1).meta({ description: 'The manifest scope, such as `svc.notifications`.' });
const version = z
  .string()
  .regex(/^\d+\.\d+\.\d+$/)
  .meta({ description: 'The version of the mini app (semantic version).' });

const at = '2026-01-15T09:30:00.000Z';
const common = { occurred_at: at, mini_app_id: EXAMPLE_MINI_APP_ID, tenant_id: 'acme' };

/** One event of the contract: its payload schema, when it is sent, and an example payload. */
interface WebhookSchema<E extends WebhookEventName> {
  schema: z.ZodType<WebhookEventMap[E]>;
  summary: string;
  example: WebhookEventMap[E];
}

/** A change of what a person granted: the two scope events differ in their name and words only. */
const scopeEvent = <E extends 'scope.granted' | 'scope.revoked'>(event: E, summary: string, description: string) => ({
  summary,
  schema: z.strictObject({ ...base(event), app_user_id: appUserId, scope }).meta({ description }),
  example: { event, ...common, app_user_id: 'au-alice', scope: 'svc.notifications' },
});

/**
 * The six webhook events as zod schemas, each with when it is sent and an example payload: the published contract
 * (`schema/server-api.openapi.json`'s `webhooks`) is generated from them, `svc trigger` and the webhook panel's
 * "send a test event" send their examples. Payloads are closed here, so a conformance test catches a field the
 * contract does not state; the published document leaves them open, as a receiver ignores fields it does not know.
 * @internal
 */
export const WEBHOOK_SCHEMAS: { [E in WebhookEventName]: WebhookSchema<E> } = {
  'installation.created': {
    summary: 'A person installed the mini app.',
    schema: z
      .strictObject({
        ...base('installation.created'),
        app_user_id: appUserId,
        version: version.meta({ description: 'The installed version.' }),
      })
      .meta({ description: 'A person installed the mini app.' }),
    example: { event: 'installation.created', ...common, app_user_id: 'au-alice', version: '1.2.0' },
  },
  'installation.deleted': {
    summary: 'The mini app was uninstalled, or removed by an administrator; the token exchange is already revoked.',
    schema: z
      .strictObject({
        ...base('installation.deleted'),
        app_user_id: appUserId,
        removed_by: z.enum(['user', 'admin']).meta({ description: 'Who removed it.' }),
      })
      .meta({ description: 'Uninstalled, or removed by an administrator.' }),
    example: { event: 'installation.deleted', ...common, app_user_id: 'au-alice', removed_by: 'user' },
  },
  'scope.granted': scopeEvent('scope.granted', 'A person granted a permission.', 'A permission was granted.'),
  'scope.revoked': scopeEvent(
    'scope.revoked',
    'A permission that was granted was revoked.',
    'A permission was revoked.',
  ),
  'user.deprovisioned': {
    summary:
      "The person left the tenant; the exchange is already revoked. A deletion instruction: delete that person's data.",
    schema: z
      .strictObject({ ...base('user.deprovisioned'), app_user_id: appUserId })
      .meta({ description: 'A person left the tenant: delete their data.' }),
    example: { event: 'user.deprovisioned', ...common, app_user_id: 'au-alice' },
  },
  'app.revoked': {
    summary: 'The service revoked a published version; stop serving it (server API calls answer 409 version-revoked).',
    schema: z
      .strictObject({
        ...base('app.revoked'),
        version: version.meta({ description: 'The revoked version.' }),
        reason: z.string().optional().meta({ description: 'A sentence, when the service gives one.' }),
      })
      .meta({ description: 'The service revoked a published version.' }),
    example: { event: 'app.revoked', ...common, version: '1.2.0', reason: 'Fails the store review.' },
  },
};
