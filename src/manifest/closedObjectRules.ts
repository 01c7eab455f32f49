import * as z from 'zod';

/** What a closed object tells about keys it does not allow. */
export interface ClosedObjectRules {
  /** The key whose value picked this object inside a discriminated union, such as `type` in `auth`. */
  variantKey?: string;
  /** Keys that are not fields here but deserve their own advice: a rule code and the sentence after the path. */
  refused?: Record<string, { code: string; message: string }>;
}

/**
 * The unknown-key rules of the manifest's closed objects, registered beside each object's schema and read when a
 * manifest has a key the object does not allow. In a file of its own: the host's rules use the other helpers, and
 * importing zod (whose registry is made when it loads) would put it in every host page.
 */
export const closedObjectRules = z.registry<ClosedObjectRules>();
