import { jsonQuote } from '../../manifest/jsonQuote';
import { findJsonProblem } from '../../package/findJsonProblem';
import { SERVER_API_LIMITS } from '../../server/serverApiLimits';
import { decodeUtf8 } from '../decodeUtf8';

// The server API's bound; the control API's bodies carry a value of the app's (which the host lets nest as deep) one
// or two levels down (`{ op, key, value }`, an answer's `{ id, outcome: { result } }`), so theirs is two more.
const MAX_BODY_DEPTH = SERVER_API_LIMITS.bodyDepth;
/** How deep a control API body may nest. @internal */
export const CONTROL_BODY_DEPTH = MAX_BODY_DEPTH + 2;

/**
 * A body read as a JSON object, or what is wrong with it: not UTF-8, not JSON, JSON but not an object, or an object
 * that repeats a key or nests too deep (`refused`, with the sentence that says which, where, and what to send
 * instead).
 */
export type JsonObjectRead =
  | { value: Record<string, unknown> }
  | { fault: 'utf8' | 'json' | 'shape' }
  | { fault: 'refused'; message: string };

/**
 * Reads the exact bytes of a body as a JSON object (the one parser of the control API's and the server API's
 * bodies; each says in its own words what to send instead, but for a repeated key, said here). An empty body is `{}`
 * when `emptyIsObject`.
 * @internal
 */
export function parseJsonObject(
  bytes: Uint8Array,
  emptyIsObject = false,
  depth: number = MAX_BODY_DEPTH,
): JsonObjectRead {
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
  // JSON.parse keeps a repeated key's last value, other parsers the first: a proxy or a log in front of the platform
  // would read another request than the one done, so the body names each field once.
  const problem = findJsonProblem(text, depth);
  if (!problem) return { value: parsed as Record<string, unknown> };
  return {
    fault: 'refused',
    message:
      'repeatedKey' in problem
        ? `The body repeats the field ${jsonQuote(problem.repeatedKey)} in ${problem.path}: send each field once (JSON parsers differ on which one counts).`
        : `The body nests arrays and objects more than ${depth} deep (at ${problem.path}): ${depth > MAX_BODY_DEPTH ? `an app's value may nest ${MAX_BODY_DEPTH} deep, the rest of the body ${depth - MAX_BODY_DEPTH} more; send a flatter value.` : 'no field needs that many; send the fields the request names.'}`,
  };
}
