/**
 * The edit distance between two strings: insertions, deletions, substitutions and swaps of two neighbours each cost
 * 1 (optimal string alignment), so `titel` is one edit from `title`.
 */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(
        rows[i - 1]![j]! + 1,
        row[j - 1]! + 1,
        rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      row[j] = best;
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidate closest to a mistyped name, for "did you mean": within a third of the name's length in edits (at
 * least 1, at most 3), or `undefined` when nothing is that close. Names under `shortest` characters (4 unless told)
 * get no suggestion: one edit from `18+` is `12+`, which is a different value, not a typo.
 *
 * @example
 * ```ts
 * closestName('descripton', ['description', 'name']); // 'description'
 * ```
 * @internal
 */
export function closestName(name: string, candidates: Iterable<string>, shortest = 4): string | undefined {
  if (name.length < shortest) return undefined;
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    // More letters apart than edits allowed is never close: a name of a million characters is not measured against
    // every field (it cost seconds and a gigabyte).
    if (Math.abs(candidate.length - name.length) > limit) continue;
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
