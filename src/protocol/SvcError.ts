// The imports' order is measured, not alphabetical: it sets the order of the client's modules in an app's bundle,
// which moves its brotli bytes (docs/performance.md, the client's bytes).
import { TOKENS } from './redactText';
import type { SvcErrorCode } from './errorCodes';
import { ERROR_BRAND } from './errorBrand';

/**
 * The error shape on the wire: whitelisted fields only, never a stack.
 * @public
 */
export interface WireError {
  /** An error code. */
  code: string;
  /** A sentence saying what happened and what to do. */
  message: string;
  /** Whether backing off and retrying can help. */
  retriable: boolean;
}

/**
 * Every rejection of a `svc.*` call.
 *
 * @remarks
 * `message` is safe to log: anything shaped like a token is redacted. `instanceof SvcError` holds for an error made by
 * any entry of the package (ESM or CJS), another copy of the SDK or another same-origin frame, as does
 * {@link isSvcError}.
 * @example
 * ```ts
 * try {
 *   await svc.permissions.request('room.context');
 * } catch (e) {
 *   if (isSvcError(e) && e.retriable) setTimeout(retry, 1000);
 * }
 * ```
 * @public
 */
export class SvcError extends Error {
  override readonly name = 'SvcError';
  /** The package's mark, shared by every copy of the SDK (see `hasErrorBrand`). @internal */
  readonly [ERROR_BRAND] = 'SvcError';

  /** `instanceof SvcError` holds for an error of this class made by any copy of the SDK, in any same-origin frame. */
  static override [Symbol.hasInstance] = isSvcError;
  /** The error code (see the error table in docs/app.md); unknown codes from a newer host are kept. */
  declare readonly code: SvcErrorCode;
  /** Whether the caller may back off and retry. */
  declare readonly retriable: boolean;
  /** The `svc.*` operation that failed, e.g. `'room.current'`. */
  declare readonly method?: string;

  /**
   * @param message - what happened and what to do; prefixed with `svc.<method>(): ` when `method` is given and the
   * message does not already name an operation.
   * @param retriable - whether backing off and retrying can help: `false` unless given, whatever the code (the
   * codes table's column is what the platform sends; pass it for a code such as `ERR_TIMEOUT`).
   */
  constructor(code: SvcErrorCode, message: string, retriable = false, method?: string, options?: { cause?: unknown }) {
    // Tokens are redacted from every message, whoever wrote it (a host, a handler or us), and its length bounded:
    // cut first, so the search reads 1,000 characters (over a megabyte of `eyJa-` it held the messenger's page for a
    // minute). A token cut in its claims has no signature left to redact. redactText's replacement written out: the
    // call costs the browser client 6 bytes brotli.
    super(
      (method && !message.startsWith('svc.') ? `svc.${method}(): ${message}` : message)
        .slice(0, 1000)
        .replace(TOKENS, '$1[redacted]'),
      options,
    );
    this.code = code;
    this.retriable = retriable;
    if (method) this.method = method;
  }
}

/**
 * Whether `value` is an {@link SvcError}, also one made by another copy of the SDK.
 * @public
 */
export function isSvcError(value: unknown): value is SvcError {
  // hasErrorBrand's test written out: the call costs the browser client 10 bytes brotli.
  return (value as { [ERROR_BRAND]?: string } | undefined)?.[ERROR_BRAND] === 'SvcError';
}

/** The wire form of any thrown value; only an SvcError keeps its code and message. */
export function toWireError(error: unknown, fallbackMessage: string): WireError {
  return isSvcError(error)
    ? { code: error.code, message: error.message, retriable: error.retriable }
    : { code: 'ERR_INTERNAL', message: fallbackMessage, retriable: true };
}

/** The SvcError a wire error stands for; `ERR_PROTOCOL` when the payload is not one. */
export function fromWireError(e: WireError | undefined, method: string): SvcError {
  return typeof e?.code == 'string' && typeof e.message == 'string'
    ? new SvcError(e.code, e.message, e.retriable === true, method)
    : new SvcError('ERR_PROTOCOL', 'malformed error', false, method);
}
