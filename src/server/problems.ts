/**
 * An RFC 9457 problem details object, as the server API answers errors.
 * @public
 */
export interface Problem {
  /** `{errors_url}/<kebab-case-name>`. */
  type: string;
  title: string;
  status: number;
  /** A sentence saying what to do. */
  detail: string;
  /** The request path. */
  instance: string;
}

/**
 * The problem names of the server API and their status. The platform names `scope-not-granted` (403) and
 * `room-encrypted` (409); the others are ours (see docs/decisions.md), used by the local platform and understood
 * by {@link createServerClient}.
 * @public
 */
export const PROBLEMS = {
  'invalid-request': { status: 400, title: 'Malformed request' },
  'invalid-signature': { status: 401, title: 'Signature invalid, missing, or outside the timestamp window' },
  'scope-not-granted': { status: 403, title: 'Scope not granted' },
  'tenant-policy': { status: 403, title: 'Tenant policy forbids it' },
  forbidden: { status: 403, title: 'Forbidden' },
  'not-found': { status: 404, title: 'Unknown room, user, mini app or endpoint' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'room-encrypted': { status: 409, title: 'The room is end-to-end encrypted' },
  'version-revoked': { status: 409, title: 'This version of the mini app was revoked' },
  'payload-too-large': { status: 413, title: 'Request body too large' },
  'rate-limited': { status: 429, title: 'Rate limited' },
  'internal-error': { status: 500, title: 'Internal error' },
  unavailable: { status: 503, title: 'Temporarily unavailable' },
} as const;

/** A problem name the SDK knows. @public */
export type ProblemName = keyof typeof PROBLEMS;

/**
 * Builds a problem details object for one of {@link PROBLEMS}.
 * @public
 */
export function createProblem(errorsUrl: string, name: ProblemName, detail: string, instance: string): Problem {
  const { status, title } = PROBLEMS[name];
  return { type: `${errorsUrl.replace(/\/$/, '')}/${name}`, title, status, detail, instance };
}

/** The problem name at the end of a problem's `type` (`…/room-encrypted` → `room-encrypted`). @public */
export function problemName(type: unknown): string | undefined {
  if (typeof type !== 'string') return undefined;
  const name = type.slice(type.lastIndexOf('/') + 1);
  return /^[a-z0-9]+(-[a-z0-9]+)*$/.test(name) ? name : undefined;
}
