import { brandedError, hasErrorBrand } from '../protocol/errorBrand';
import { PROBLEMS, type Problem, problemName } from './problems';

// Why a problem happens and the ways around it, which a one-sentence detail leaves out: added to every message.
const EXPLAIN: Record<string, string> = {
  'room-encrypted':
    'The room is end-to-end encrypted and the service holds no room keys, so no server-side path, scope or tier can post into it. ' +
    "Two paths work: svc.message.send() from the person's own client (they confirm it), or an AI agent that is a cross-signed member of the room.",
  // What the detail leaves out (it says which scope is not granted: week45 F10 read the two as one said twice).
  'scope-not-granted':
    'A scope cannot be granted from the server: the mini app asks the person for it at the point of use (svc.permissions.request).',
};

// What to do, for an answer that carries no detail of its own: a detail already says it, and saying it twice (as a
// 429 and a 401 did) buries it.
const FALLBACK: Record<string, string> = {
  'version-revoked':
    'The service revoked this version of the mini app (webhook app.revoked): stop serving it and ship a new version.',
  'rate-limited':
    'Over 600 requests per minute (burst 60) for this vendor: slow down and retry after Retry-After seconds.',
  'invalid-signature':
    "Check the signing secret (the current one after a rotation) and this server's clock (300 s window).",
};

/**
 * A server API call failed: an HTTP problem answer, a network failure, or a timeout.
 * @public
 */
export class SvcApiError extends brandedError('SvcApiError') {
  /** The HTTP status; 0 when no answer came (network failure, timeout, abort); the answer's when its body was cut off. */
  readonly status: number;
  /**
   * The problem name from `type` (`room-encrypted`, `scope-not-granted`, …), or a local one (`network`, `timeout`,
   * `aborted`; `invalid-answer` for a 2xx whose body is not JSON).
   */
  readonly problem: string;
  readonly title: string;
  /** The server's sentence saying what to do. */
  readonly detail: string;
  /** The request path. */
  readonly instance: string;
  /** Whether retrying later may succeed (429, 503, network failures). */
  readonly retriable: boolean;
  /** Seconds to wait before retrying, from `Retry-After`. */
  readonly retryAfter?: number;
  /** The problem details as received. */
  readonly body?: Problem;

  constructor(init: {
    status: number;
    problem: string;
    title: string;
    detail: string;
    instance: string;
    retriable: boolean;
    retryAfter?: number;
    body?: Problem;
    cause?: unknown;
  }) {
    const advice = EXPLAIN[init.problem] ?? (init.body?.detail ? undefined : FALLBACK[init.problem]);
    super(
      `${init.status ? `${init.status} ` : ''}${init.problem} at ${init.instance}: ${init.detail}${advice && !init.detail.includes(advice) ? ` ${advice}` : ''}`,
      { cause: init.cause },
    );
    this.status = init.status;
    this.problem = init.problem;
    this.title = init.title;
    this.detail = init.detail;
    this.instance = init.instance;
    this.retriable = init.retriable;
    if (init.retryAfter !== undefined) this.retryAfter = init.retryAfter;
    if (init.body) this.body = init.body;
  }

  /** Builds the error from a problem answer (or any error answer). */
  static async fromResponse(response: Response, instance: string): Promise<SvcApiError> {
    let body: Partial<Problem> | undefined;
    try {
      body = (await response.json()) as Partial<Problem>;
    } catch {
      body = undefined;
    }
    const status = response.status;
    const known = Object.entries(PROBLEMS).find(([, p]) => p.status === status)?.[0];
    const problem = problemName(body?.type) ?? known ?? `http-${status}`;
    const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
    return new SvcApiError({
      status,
      problem,
      title: typeof body?.title === 'string' ? body.title : response.statusText || 'Error',
      detail: typeof body?.detail === 'string' ? body.detail : `the server answered ${status}.`,
      instance: typeof body?.instance === 'string' ? body.instance : instance,
      retriable: status === 429 || status === 503 || status === 502 || status === 504,
      ...(retryAfter !== undefined ? { retryAfter } : {}),
      ...(body && typeof body.type === 'string' ? { body: body as Problem } : {}),
    });
  }
}

/**
 * The seconds `Retry-After` says to wait: a number of seconds, or an HTTP date (RFC 9110 allows both), from now.
 */
function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/**
 * Whether `e` is a {@link SvcApiError}, across bundles and realms.
 * @public
 */
export function isSvcApiError(e: unknown): e is SvcApiError {
  return hasErrorBrand(e, 'SvcApiError');
}
