import { codePointName, loneSurrogate } from './helpers';

/** Where a JSON value holds something that is not text or not a number, and what it is. @internal */
export interface MalformedValue {
  /** The keys from the root to the value (or to the property whose name is malformed). */
  path: (string | number)[];
  /** What is wrong, as the rest of a sentence that starts with the path: `contains a lone surrogate (U+D800) at character 3`. */
  problem: string;
  /** What to send instead, as a sentence of its own. */
  fix: string;
  /** A string (or a property name) that is not well-formed Unicode, or a number that is not finite. */
  kind: 'text' | 'number';
}

const SEND_TEXT =
  'send well-formed Unicode text (a \\u escape of a surrogate, \\ud800 to \\udfff, must be one of a high-low pair).';
const SEND_NUMBER = 'send a finite number.';

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
  // Each value with the link to its parent's: a path copied at every level would cost the square of the depth.
  type Where = { parent?: Where; key?: string | number };
  const pathOf = (where: Where, last?: string) => {
    const path: (string | number)[] = last === undefined ? [] : [last];
    for (let at: Where | undefined = where; at?.parent; at = at.parent) path.push(at.key!);
    return path.reverse();
  };
  const stack: Array<[unknown, Where]> = [[value, {}]];
  while (stack.length) {
    const [item, where] = stack.pop()!;
    if (typeof item === 'string') {
      const lone = loneSurrogate(item);
      if (lone)
        return {
          path: pathOf(where),
          problem: `contains a lone surrogate (${codePointName(lone.character)}) at character ${lone.at}`,
          fix: SEND_TEXT,
          kind: 'text',
        };
    } else if (typeof item === 'number' && !Number.isFinite(item)) {
      return {
        path: pathOf(where),
        problem: `is a number out of range (beyond ±1.8e308, read as ${item})`,
        fix: SEND_NUMBER,
        kind: 'number',
      };
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i -= 1) stack.push([item[i], { parent: where, key: i }]);
    } else if (typeof item === 'object' && item !== null) {
      const entries = Object.entries(item);
      for (const [key] of entries) {
        const lone = loneSurrogate(key);
        if (lone)
          return {
            path: pathOf(where, key),
            problem: `has a name with a lone surrogate (${codePointName(lone.character)}) at character ${lone.at}`,
            fix: SEND_TEXT,
            kind: 'text',
          };
      }
      for (const [key, child] of entries.reverse()) stack.push([child, { parent: where, key }]);
    }
  }
  return undefined;
}
