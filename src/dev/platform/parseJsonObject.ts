import { decodeUtf8 } from '../decodeUtf8';

/** A body read as a JSON object, or what is wrong with it: not UTF-8, not JSON, or JSON but not an object. */
export type JsonObjectRead = { value: Record<string, unknown> } | { fault: 'utf8' | 'json' | 'shape' };

/**
 * Reads the exact bytes of a body as a JSON object (the one parser of the control API's and the server API's
 * bodies; each says in its own words what to send instead). An empty body is `{}` when `emptyIsObject`.
 * @internal
 */
export function parseJsonObject(bytes: Uint8Array, emptyIsObject = false): JsonObjectRead {
  const text = decodeUtf8(bytes);
  if (text === undefined) return { fault: 'utf8' };
  if (text === '' && emptyIsObject) return { value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { fault: 'json' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { fault: 'shape' };
  return { value: parsed as Record<string, unknown> };
}
