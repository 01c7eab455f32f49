/**
 * Matches decoded path segments against a pattern such as `/v1/rooms/:room_id/cards`: the parameters by name, or
 * `undefined` when the segments do not fit (another length, or another literal segment).
 */
export function matchPath(pattern: string, segments: readonly string[]): Record<string, string> | undefined {
  const parts = pattern.split('/').filter(Boolean);
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    const segment = segments[i] as string;
    if (part.startsWith(':')) params[part.slice(1)] = segment;
    else if (part !== segment) return undefined;
  }
  return params;
}
