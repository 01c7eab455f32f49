import { randomBytes } from 'node:crypto';

/** The platform's signing secrets: the one that signs, and during a rotation's overlap the one it replaced. @internal */
export interface SigningSecrets {
  /** Signs webhooks and verifies server API requests. */
  current: string;
  /** Still verifies server API requests until `until`, in ms since the epoch (webhooks carry the current one's signature alone). */
  previous?: { secret: string; until: number };
}

/** A new random secret (192 bits, base64url). @internal */
export const newSecret = () => randomBytes(24).toString('base64url');

/**
 * The secrets valid now, newest first. The overlap's end is checked at each use rather than by a timer, so an
 * overlap of any length ends on time, also across a restart.
 * @internal
 */
export function validSecrets(secrets: SigningSecrets, now = Date.now()): string[] {
  return secrets.previous && secrets.previous.until > now
    ? [secrets.current, secrets.previous.secret]
    : [secrets.current];
}

/**
 * Replaces the current secret; the old one stays valid for `overlapSeconds`. At most two secrets verify (the
 * platform's "old and new"), so a rotation during an overlap ends the earlier overlap at once: returns true when it
 * did, so the developer is told that the secret two generations back no longer verifies.
 * @internal
 */
export function rotateSecrets(secrets: SigningSecrets, overlapSeconds: number, now = Date.now()): boolean {
  const endedOverlap = secrets.previous !== undefined && secrets.previous.until > now;
  secrets.previous = { secret: secrets.current, until: now + overlapSeconds * 1000 };
  secrets.current = newSecret();
  return endedOverlap;
}
