import type { MiddlewareHandler } from 'hono';
import { checkControlRequest } from './checkControlRequest';
import { limitBody } from './limitBody';
import type { PlatformEnv } from './PlatformEnv';
import { ProblemError } from './ProblemError';

/** What the guards check against. @internal */
export interface GuardOptions {
  /** The messenger origin, `http://127.0.0.1:<port>`. */
  origin: string;
  /** The per-launch control token. */
  controlToken: string;
}

/**
 * The platform's guards, each a middleware written once: the loopback Host (DNS rebinding), the control API's
 * Host + exact Origin + token, and a body limit per route. Each refuses by throwing a {@link ProblemError}, which
 * the app's one error handler answers.
 * @internal
 */
export function createGuards(options: GuardOptions) {
  const host = new URL(options.origin).host;
  const guard = { token: options.controlToken, origin: options.origin };
  return {
    /** The page and its script: a request naming another host (a rebinding DNS name) gets nothing. */
    ownHost: (async (c, next) => {
      if (c.req.header('host') !== host)
        throw new ProblemError('forbidden', `The Host header must be ${host}: open the URL svc dev printed.`);
      await next();
    }) satisfies MiddlewareHandler<PlatformEnv>,
    /**
     * The control API's guard: Host, exact Origin, and the launch token in its header (or, with `queryToken`, the
     * `token` query parameter, since `EventSource` cannot send headers).
     */
    control:
      (queryToken = false): MiddlewareHandler<PlatformEnv> =>
      async (c, next) => {
        const headers = Object.fromEntries(c.req.raw.headers);
        const refusal = checkControlRequest(
          headers,
          guard,
          queryToken ? c.req.query('token') : undefined,
          c.req.method,
        );
        if (refusal) throw new ProblemError('forbidden', refusal);
        await next();
      },
    /** At most `bytes` of body; a longer one is answered 413 (read to its end first, so the client sees the answer). */
    limit: (bytes: number, detail?: string): MiddlewareHandler<PlatformEnv> =>
      limitBody({
        maxSize: bytes,
        onError: (c) => {
          throw bodyTooLarge(bytes, c.req.header('content-length'), detail);
        },
      }),
  };
}

/**
 * The 413 of a body over `bytes`, naming its length when it declared one (`Content-Length`), or `detail`.
 * @internal
 */
export function bodyTooLarge(bytes: number, contentLength: string | undefined, detail?: string): ProblemError {
  const length = Number(contentLength);
  const size = Number.isFinite(length) && length > bytes ? String(length) : `over ${bytes}`;
  return new ProblemError(
    'payload-too-large',
    detail ?? `The body has ${size} bytes, more than the ${bytes} this endpoint accepts: send a smaller body.`,
  );
}

/** The guards of one platform. @internal */
export type Guards = ReturnType<typeof createGuards>;
