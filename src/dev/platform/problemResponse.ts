import { createProblem, type ProblemName } from '../../server/problems';

/**
 * Problem details (RFC 9457) as the platform answers every error: `type` under `<origin>/errors/`, `instance` the
 * request path (as sent, still percent-encoded).
 * @internal
 */
export function problemResponse(
  origin: string,
  name: ProblemName,
  detail: string,
  path: string,
  headers: Record<string, string> = {},
): Response {
  const problem = createProblem(`${origin}/errors`, name, detail, path);
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
}
