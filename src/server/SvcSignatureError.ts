import { brandedError, hasErrorBrand } from '../protocol/errorBrand';
/**
 * Why a signed request or webhook was refused.
 * @public
 */
export type SignatureFailure =
  | 'missing-header'
  | 'malformed-header'
  | 'malformed-signature'
  | 'stale-timestamp'
  | 'future-timestamp'
  | 'bad-signature'
  | 'parsed-body'
  | 'no-secret'
  | 'wrong-mini-app'
  | 'invalid-payload';

/**
 * A signature check failed. The message says what is wrong and what to do; it never contains a secret or a
 * signature, so it is safe to log.
 * @public
 */
export class SvcSignatureError extends brandedError('SvcSignatureError') {
  /** The machine-readable reason. */
  readonly reason: SignatureFailure;
  /** For `stale-timestamp` and `future-timestamp`: how far the timestamp is from now, in seconds. */
  readonly skewSeconds?: number;
  /** The HTTP status a receiver answers: 401 for the signature, 400 for a payload that is no event, 500 for a
   * problem in this server's own set-up (a parsed body, no secret), so the platform retries once it is fixed. */
  readonly status: number;

  constructor(reason: SignatureFailure, message: string, skewSeconds?: number) {
    super(message);
    this.reason = reason;
    if (skewSeconds !== undefined) this.skewSeconds = skewSeconds;
    this.status = reason === 'parsed-body' || reason === 'no-secret' ? 500 : reason === 'invalid-payload' ? 400 : 401;
  }
}

/**
 * Whether `e` is a {@link SvcSignatureError}, across bundles and realms.
 * @public
 */
export function isSvcSignatureError(e: unknown): e is SvcSignatureError {
  return hasErrorBrand(e, 'SvcSignatureError');
}
