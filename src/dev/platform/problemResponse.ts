import { redactText } from '../../protocol/redactText';
import { redactPath } from '../redactPath';
import { createProblem, type ProblemName } from '../../server/problems';

/**
 * Problem details (RFC 9457) as the platform answers every error: `type` under `<origin>/errors/`, `instance` the
 * request path (as sent, still percent-encoded), anything token-shaped in either `[redacted]`.
 * @internal
 */
export function problemResponse(
  origin: string,
  name: ProblemName,
  detail: string,
  path: string,
  headers: Record<string, string> = {},
): Response {
  // A token in the path (or echoed in the detail) is not answered back: problems end up in logs.
  const problem = createProblem(`${origin}/errors`, name, redactText(detail), redactPath(path));
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
}
