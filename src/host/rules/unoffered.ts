/**
 * Marks a handler the host does not offer: it is left out of the methods the launch snapshot lists (so
 * `svc.supports()` says false), and still answers a call that comes anyway, with the refusal that says why (the
 * answer the host lacks, the auth mode that has no such call).
 */
export const unoffered = <F extends (...args: never[]) => unknown>(handler: F): F =>
  Object.assign(handler, { unoffered: true });

/** Whether {@link unoffered} marked `handler`. */
export const isUnoffered = (handler: unknown): boolean => (handler as { unoffered?: true }).unoffered === true;
