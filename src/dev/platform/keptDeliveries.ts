import type { DevDelivery } from '../devContract';
import { LIMITS } from '../limits';

/**
 * The deliveries a start keeps from its state file, in their order: every pending one (it is sent again) and the
 * latest {@link LIMITS.finishedDeliveries} of those delivered or failed. A "send again" whose original is dropped
 * keeps its id, which then names no delivery.
 * @internal
 */
export function keptDeliveries(deliveries: DevDelivery[]): DevDelivery[] {
  let over = deliveries.filter((d) => d.state !== 'pending').length - LIMITS.finishedDeliveries;
  return over > 0 ? deliveries.filter((d) => d.state === 'pending' || over-- <= 0) : deliveries;
}
