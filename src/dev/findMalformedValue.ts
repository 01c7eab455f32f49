/** Where a JSON value holds something that is not text or not a number, and what it is. @internal */
export interface MalformedValue {
  /** The keys from the root to the value (or to the property whose name is malformed). */
  path: (string | number)[];
  /** What is wrong, as the rest of a sentence that starts with the path: `contains a lone surrogate (U+D800) at character 3`. */
  problem: string;
}

/** The first lone surrogate of `text` and its place in code points (1-based), or undefined when it is well-formed. */
function loneSurrogate(text: string): { code: string; at: number } | undefined {
  // In `u` mode a pair is one code point, so \p{Cs} matches a surrogate only when it is alone (isWellFormed, in ES2024).
  if (!/\p{Cs}/u.test(text)) return undefined;
  let at = 0;
  for (const character of text) {
    at += 1;
    // A lone surrogate is the one "character" the string iterator yields as a single UTF-16 unit in that range.
    const unit = character.charCodeAt(0);
    if (character.length === 1 && unit >= 0xd800 && unit <= 0xdfff)
      return { code: `U+${unit.toString(16).toUpperCase()}`, at };
  }
  return undefined;
}

/**
 * The first string (value or property name) of a parsed JSON value that is not well-formed UTF-16, or number that is
 * not finite, walked without recursion (a body 100,000 levels deep would overflow a recursive walk).
 *
 * `JSON.parse` lets both through: a `\ud800` escape not followed by its low half becomes a lone surrogate, which no
 * UTF-8 can carry (what re-encodes it gets U+FFFD or throws), and a number beyond a double's range (`1e400`) becomes
 * `Infinity`, which `JSON.stringify` writes as `null`. Refused where they arrive, they are named as the sender wrote
 * them, not as what they turn into later.
 * @internal
 */
export function findMalformedValue(value: unknown): MalformedValue | undefined {
  const stack: Array<[unknown, (string | number)[]]> = [[value, []]];
  while (stack.length) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      const lone = loneSurrogate(item);
      if (lone) return { path, problem: `contains a lone surrogate (${lone.code}) at character ${lone.at}` };
    } else if (typeof item === 'number' && !Number.isFinite(item)) {
      return { path, problem: `is a number out of range (beyond ±1.8e308, read as ${item})` };
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i -= 1) stack.push([item[i], [...path, i]]);
    } else if (typeof item === 'object' && item !== null) {
      const entries = Object.entries(item);
      for (const [key] of entries) {
        const lone = loneSurrogate(key);
        if (lone)
          return {
            path: [...path, key],
            problem: `has a name with a lone surrogate (${lone.code}) at character ${lone.at}`,
          };
      }
      for (const [key, child] of entries.reverse()) stack.push([child, [...path, key]]);
    }
  }
  return undefined;
}
