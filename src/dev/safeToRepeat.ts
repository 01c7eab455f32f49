import type { Manifest } from '../manifest';

/**
 * Whether calling an action again after a call of it stopped halfway is harmless, as its manifest declares: it is
 * read-only or idempotent. An agent cut off during any other may find part of its work done, so the platform and the
 * messenger page tell it to look before calling again, not to retry. Undefined (an action the manifest lacks): not.
 * @internal
 */
export function safeToRepeat(action: NonNullable<Manifest['actions']>[number] | undefined): boolean {
  return action?.annotations.read_only === true || action?.annotations.idempotent === true;
}
