/**
 * The system's error code under a failed fetch (ECONNREFUSED, ENOTFOUND), which fetch's own message ("fetch failed")
 * leaves out, or undefined.
 * @internal
 */
export function fetchErrorCode(error: unknown): string | undefined {
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === 'string' ? code : undefined;
}
