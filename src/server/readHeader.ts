/**
 * Request headers as users hold them: a Fetch `Headers`, or a plain object such as Node's `req.headers` (any case; an
 * array value, as Node gives for some repeated headers, is read as `Headers` reads a repeated header: its items joined
 * by `, `).
 * @public
 */
export type HeaderBag = Headers | Record<string, string | string[] | undefined>;

/**
 * Reads one header, case-insensitively, from either shape. A header given more than once (an array, or keys that
 * differ in case alone) reads as `Headers` reads it, its values joined by `, `: a repeated signature is then refused
 * as malformed, the same whatever shape the headers came in, rather than its first value taken.
 */
export function readHeader(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = (headers as Record<string, string | string[] | undefined>)[key];
    if (Array.isArray(value)) values.push(...value);
    else if (value !== undefined) values.push(value);
  }
  return values.length ? values.join(', ') : undefined;
}
