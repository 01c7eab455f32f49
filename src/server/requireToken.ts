import type { NodeMiddleware, NodeRequestLike, NodeResponseLike } from './nodeAdapter';
import type { TokenVerifier, VerifiedToken } from './createTokenVerifier';
import { readHeader } from './readHeader';
import { isSvcTokenError } from './SvcTokenError';

function challenge(error: unknown): { status: number; body: string; header: string } {
  const reason = isSvcTokenError(error) ? error.reason : 'malformed';
  const status = isSvcTokenError(error) ? error.status : 401;
  const message = error instanceof Error ? error.message : 'the token was refused.';
  return {
    status,
    body: JSON.stringify({ error: reason, message }),
    header: `Bearer error="invalid_token", error_description="${reason}"`,
  };
}

/**
 * Options of {@link withToken} and {@link requireToken}.
 * @public
 */
export interface TokenGuardOptions {
  /**
   * The exact origins the mini app calls this backend from (its package's origin: the one `svc dev` prints as the
   * package, and in production the origin the platform serves the package from). A browser's CORS preflight from
   * one of them is answered 204, and every answer to it (a 401 too, so the app can read why) carries
   * `Access-Control-Allow-Origin` with that origin. Never `*`: tokens are sent only to origins named here.
   */
  origins?: readonly string[];
  /** Methods the preflight allows. Default GET, POST, PUT, PATCH, DELETE. */
  methods?: readonly string[];
  /** Request headers the preflight allows besides `authorization` and `content-type`. */
  headers?: readonly string[];
}

/** The CORS headers for a request's origin, or undefined when it names none of `origins`. */
function corsHeaders(origin: string | null | undefined, options: TokenGuardOptions): Record<string, string> {
  if (!origin || !options.origins?.includes(origin)) return { vary: 'Origin' };
  return { 'access-control-allow-origin': origin, vary: 'Origin' };
}

/** The answer to a preflight: 204 with what may be sent, or 403 naming the option to change. */
function preflight(
  origin: string | null | undefined,
  options: TokenGuardOptions,
): { status: number; headers: Record<string, string>; body: string | null } {
  const cors = corsHeaders(origin, options);
  if (!cors['access-control-allow-origin'])
    return {
      status: 403,
      headers: { 'content-type': 'application/json', vary: 'Origin' },
      body: JSON.stringify({
        error: 'origin-not-allowed',
        message: `the origin ${origin ?? '(none)'} is not allowed: add it to the origins option of requireToken/withToken.`,
      }),
    };
  return {
    status: 204,
    headers: {
      ...cors,
      'access-control-allow-methods': (options.methods ?? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).join(', '),
      'access-control-allow-headers': ['authorization', 'content-type', ...(options.headers ?? [])].join(', '),
      'access-control-max-age': '600',
    },
    body: null,
  };
}

/**
 * Wraps a Fetch handler so it runs only with a verified token; the identity is its second argument. A missing or
 * bad token is answered 401 with `WWW-Authenticate`. With `origins`, a CORS preflight (`OPTIONS`) from one of them
 * is answered, and answers carry `Access-Control-Allow-Origin` for it.
 * @example
 * ```ts
 * export const POST = withToken(verifier, async (request, user) => Response.json({ hello: user.sub }), {
 *   origins: [process.env.APP_ORIGIN!],
 * });
 * ```
 * @public
 */
export function withToken(
  verifier: TokenVerifier,
  handler: (request: Request, user: VerifiedToken) => Promise<Response> | Response,
  options: TokenGuardOptions = {},
) {
  return async (request: Request): Promise<Response> => {
    const origin = request.headers.get('origin');
    if (request.method === 'OPTIONS' && options.origins && request.headers.has('access-control-request-method')) {
      const answer = preflight(origin, options);
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    }
    const cors = options.origins ? corsHeaders(origin, options) : {};
    let user: VerifiedToken;
    try {
      user = await verifier.verifyRequest(request);
    } catch (error) {
      const { status, body, header } = challenge(error);
      return new Response(body, {
        status,
        headers: { 'content-type': 'application/json', 'www-authenticate': header, ...cors },
      });
    }
    const response = await handler(request, user);
    if (!options.origins) return response;
    // A Response's headers may be immutable (a fetched one): copy it to add ours.
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(cors)) headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}

/**
 * Express / Node middleware: verifies `Authorization: Bearer` and sets `req.svc` to the identity, or answers 401.
 * With `origins`, it answers a CORS preflight from one of them and adds `Access-Control-Allow-Origin` for it.
 * @example
 * ```ts
 * declare global {
 *   namespace Express {
 *     interface Request { svc?: VerifiedToken } // what requireToken sets, for Express's types
 *   }
 * }
 * app.use('/api', requireToken(verifier, { origins: [process.env.APP_ORIGIN!] }));
 * app.get('/api/me', (req, res) => res.json({ sub: req.svc?.sub }));
 * ```
 * @public
 */
export function requireToken(verifier: TokenVerifier, options: TokenGuardOptions = {}): NodeMiddleware {
  return async (
    req: NodeRequestLike & { svc?: VerifiedToken },
    res: NodeResponseLike,
    next?: (error?: unknown) => void,
  ) => {
    const origin = readHeader(req.headers, 'origin');
    if (req.method === 'OPTIONS' && options.origins && readHeader(req.headers, 'access-control-request-method')) {
      const answer = preflight(origin, options);
      res.statusCode = answer.status;
      for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      res.end(answer.body ?? undefined);
      return;
    }
    if (options.origins)
      for (const [name, value] of Object.entries(corsHeaders(origin, options))) res.setHeader(name, value);
    try {
      req.svc = await verifier.verifyRequest(req.headers);
    } catch (error) {
      const { status, body, header } = challenge(error);
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.setHeader('www-authenticate', header);
      res.end(body);
      return;
    }
    next?.();
  };
}
