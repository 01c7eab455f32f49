/**
 * Whether a JSON value nests objects and arrays deeper than `limit` levels, measured without recursion (a value
 * 5,000 levels deep would overflow the stack of a recursive validator or of `JSON.stringify`).
 * @internal
 */
export function exceedsDepth(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}
