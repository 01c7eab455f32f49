import type { DevDelivery } from './devContract';

/**
 * The failed deliveries no later delivery sends again (none names them in `resend_of`), oldest first: what "Send the
 * failed ones again" sends, and what its button counts.
 * @internal
 */
export function failedNotSentAgain(deliveries: readonly DevDelivery[]): DevDelivery[] {
  const resent = new Set(deliveries.map((d) => d.resend_of));
  return deliveries.filter((d) => d.state === 'failed' && !resent.has(d.id));
}
