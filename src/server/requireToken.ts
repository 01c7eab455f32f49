import type { NodeMiddleware, NodeRequestLike, NodeResponseLike } from './nodeAdapter';
import type { TokenVerifier, VerifiedToken } from './createTokenVerifier';
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
 * Wraps a Fetch handler so it runs only with a verified token; the identity is its second argument. A missing or
 * bad token is answered 401 with `WWW-Authenticate`.
 * @example
 * ```ts
 * export const POST = withToken(verifier, async (request, user) => Response.json({ hello: user.sub }));
 * ```
 * @public
 */
export function withToken(
  verifier: TokenVerifier,
  handler: (request: Request, user: VerifiedToken) => Promise<Response> | Response,
) {
  return async (request: Request): Promise<Response> => {
    let user: VerifiedToken;
    try {
      user = await verifier.verifyRequest(request);
    } catch (error) {
      const { status, body, header } = challenge(error);
      return new Response(body, {
        status,
        headers: { 'content-type': 'application/json', 'www-authenticate': header },
      });
    }
    return handler(request, user);
  };
}

/**
 * Express / Node middleware: verifies `Authorization: Bearer` and sets `req.svc` to the identity, or answers 401.
 * @example
 * ```ts
 * app.use('/api', requireToken(verifier));
 * app.get('/api/me', (req, res) => res.json({ sub: req.svc.sub }));
 * ```
 * @public
 */
export function requireToken(verifier: TokenVerifier): NodeMiddleware {
  return async (
    req: NodeRequestLike & { svc?: VerifiedToken },
    res: NodeResponseLike,
    next?: (error?: unknown) => void,
  ) => {
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
