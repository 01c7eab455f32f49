import { redactText } from '../protocol/redactText';

/**
 * A copy of a JSON value (a string too) with every token-shaped value and each of `secrets` (exact values, such as a
 * signing secret) redacted in every string, wherever it sits: at the start, middle or end, in any nested object or
 * array, in a key too. A value that is not JSON (a function, undefined) comes back as `null`.
 * @param secrets - exact values to remove; those under 8 characters are ignored (they would match by chance).
 * @throws RangeError when the value nests too deeply for `JSON.stringify` (thousands of levels).
 * @internal
 */
export function redactSecrets<T>(value: T, secrets: readonly string[] = []): T {
  const redact = (text: string) => {
    let out = redactText(text);
    for (const secret of secrets) if (secret.length >= 8) out = out.split(secret).join('[redacted]');
    return out;
  };
  const text = JSON.stringify(value);
  if (text === undefined) return null as T;
  // Parsing the copy visits every value once, innermost first: strings are redacted, then the keys of each object.
  // A credential split from its scheme word (`['Basic', cred]`, `{ Basic: cred }`) is read as one text with it.
  return JSON.parse(text, (_key, v: unknown) => {
    if (typeof v === 'string') return redact(v);
    if (Array.isArray(v)) return v.map((item, i) => (i > 0 ? afterScheme(v[i - 1], item) : item));
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(Object.entries(v).map(([key, item]) => [redact(key), afterScheme(key, item)]));
  });
}

/**
 * `item` redacted whole when `before` is a scheme word (`Bearer`, `Basic`, in any case) and the two read as one
 * credential: the item alone is what the redaction takes from them.
 */
function afterScheme(before: unknown, item: unknown): unknown {
  if (typeof before !== 'string' || !/^(?:bearer|basic)$/i.test(before) || typeof item !== 'string') return item;
  return redactText(`${before} ${item}`) === `${before} [redacted]` ? '[redacted]' : item;
}
