import { formatJsonPath } from './ManifestIssue';

/**
 * The path of the first array or object of `value` nested deeper than `max` (the root counting as 1), or undefined.
 * Walked without recursion: a value parsed from a text thousands of levels deep would overflow a recursive walk, and
 * the validator recurses, so it is asked first.
 * @internal
 */
export function tooDeepPath(value: unknown, max: number): string | undefined {
  const stack: Array<[unknown, (string | number)[]]> = [[value, []]];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (path.length + 1 > max) return formatJsonPath(path);
    const entries: Array<[string | number, unknown]> = Array.isArray(item)
      ? item.map((child, i) => [i, child])
      : Object.entries(item);
    for (const [key, child] of entries)
      if (typeof child === 'object' && child !== null) stack.push([child, [...path, key]]);
  }
  return undefined;
}
