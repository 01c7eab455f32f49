// A verified webhook narrows by name through isWebhookEvent; a plain comparison of `event` does not, since an event
// this SDK does not know has a string `event` too.
import { isWebhookEvent, verifyWebhook } from 'svc-sdk/server';

export async function narrows(request: Request): Promise<string> {
  const event = await verifyWebhook(request, { secrets: ['s'] });
  if (isWebhookEvent(event, 'scope.granted')) return `${event.app_user_id} ${event.scope}`;
  if (isWebhookEvent(event, 'app.revoked')) {
    // @ts-expect-error app.revoked names no person
    return event.app_user_id;
  }
  // @ts-expect-error the name alone does not type the fields
  if (event.event === 'scope.revoked') return event.scope.toUpperCase();
  return event.event;
}
