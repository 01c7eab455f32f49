/**
 * `svc-sdk/server`: the vendor backend's side. Verifies the app's tokens and the platform's webhooks, and calls
 * the server API with signed requests. Web standards only (Web Crypto, fetch, Request/Response): Node 20.19+, Deno,
 * Bun and edge workers.
 * @packageDocumentation
 */
export { signRequest, SIGNATURE_HEADERS, type SignRequestInput } from './signRequest';
export {
  verifySignature,
  REPLAY_WINDOW_SECONDS,
  type SignedRequest,
  type VerifySignatureOptions,
} from './verifySignature';
export { SvcSignatureError, isSvcSignatureError, type SignatureFailure } from './SvcSignatureError';
export { toBytes, type RawBody } from './rawBody';
export type { HeaderBag } from './readHeader';
export type { WebCryptoKey } from '../protocol/WebCryptoKey';
export { verifyWebhook, verifyWebhookDelivery, type WebhookDelivery } from './verifyWebhook';
export {
  createWebhookHandler,
  type DeliveryInfo,
  type WebhookHandler,
  type WebhookHandlerOptions,
  type WebhookHandlers,
  type WebhookRequestOptions,
} from './createWebhookHandler';
export * from './events';
export { createMemoryIdempotencyStore, type ClaimResult, type IdempotencyStore } from './IdempotencyStore';
export { createRedisIdempotencyStore, type RedisIdempotencyStoreOptions } from './createRedisIdempotencyStore';
export type { RedisClientLike } from './redisCommand';
export { createRateLimiter, SERVER_API_RATE, type RateLimiter } from './createRateLimiter';
export { createRedisRateLimiter, type RedisRateLimiterOptions } from './createRedisRateLimiter';
export {
  createServerClient,
  type CallOptions,
  type ServerClient,
  type ServerClientOptions,
} from './createServerClient';
export type { AgentDelegation, Card, Installation } from './serverTypes';
export { SvcApiError, isSvcApiError } from './SvcApiError';
export { PROBLEMS, createProblem, problemName, type Problem, type ProblemName } from './problems';
export {
  createTokenVerifier,
  type TokenClaims,
  type TokenKey,
  type TokenKeyResolver,
  type TokenVerifier,
  type TokenVerifierOptions,
  type VerifiedToken,
} from './createTokenVerifier';
export { SvcTokenError, isSvcTokenError, type TokenFailure } from './SvcTokenError';
export { requireToken, type TokenGuardOptions, withToken } from './requireToken';
export {
  handleNode,
  toFetchRequest,
  writeNodeResponse,
  type NodeMiddleware,
  type NodeRequestLike,
  type NodeResponseLike,
} from './nodeAdapter';
