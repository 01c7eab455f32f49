import { brandedError, hasErrorBrand } from '../protocol/errorBrand';
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
export class SvcTokenError extends brandedError('SvcTokenError') {
  readonly reason: TokenFailure;
  /** 503 when the keys could not be fetched (try again), else 401. */
  readonly status: number;
  constructor(reason: TokenFailure, message: string) {
    super(message);
    this.reason = reason;
    this.status = reason === 'keys-unavailable' ? 503 : 401;
  }
}

/** Whether `e` is a {@link SvcTokenError}, across bundles. @public */
export function isSvcTokenError(e: unknown): e is SvcTokenError {
  return hasErrorBrand(e, 'SvcTokenError');
}
