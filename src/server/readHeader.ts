/**
 * Request headers as users hold them: a Fetch `Headers`, or a plain object such as Node's `req.headers` (any case;
 * an array value, as Node gives for repeated headers, counts as its first item).
 * @public
 */
export type HeaderBag = Headers | Record<string, string | string[] | undefined>;

/** Reads one header, case-insensitively, from either shape. */
export function readHeader(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = (headers as Record<string, string | string[] | undefined>)[key];
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
