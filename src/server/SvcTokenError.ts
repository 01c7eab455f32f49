import { ERROR_BRAND, hasErrorBrand } from '../protocol/errorBrand';
/**
 * Why a token was refused.
 * @public
 */
export type TokenFailure =
  | 'missing-token'
  | 'malformed'
  | 'expired'
  | 'bad-signature'
  | 'unknown-key'
  | 'keys-unavailable'
  | 'algorithm-not-allowed'
  | 'wrong-issuer'
  | 'wrong-audience'
  | 'missing-claim'
  | 'invalid-claim';

/**
 * A token failed verification. The message never contains the token; answer 401.
 * @public
 */
export class SvcTokenError extends Error {
  override name = 'SvcTokenError' as const;
  /** The package's mark, shared by every copy of the SDK (see `hasErrorBrand`). @internal */
  readonly [ERROR_BRAND] = 'SvcTokenError';

  /** `instanceof SvcTokenError` holds for an error of this class made by any copy of the SDK, in any same-origin frame. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasErrorBrand(value, 'SvcTokenError');
  }
  readonly reason: TokenFailure;
  /** 503 when the keys could not be fetched (try again), else 401. */
  readonly status: number;
  constructor(reason: TokenFailure, message: string) {
    super(message);
    this.reason = reason;
    this.status = reason == 'keys-unavailable' ? 503 : 401;
  }
}

/** Whether `e` is a {@link SvcTokenError}, across bundles. @public */
export function isSvcTokenError(e: unknown): e is SvcTokenError {
  return hasErrorBrand(e, 'SvcTokenError');
}
