/**
 * Whether `value` is a whole http(s) URL that `new URL` reads (a port over 65535, a space or a missing host make it
 * fail there, long after a pattern would have let it through).
 * @internal
 */
export function httpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
