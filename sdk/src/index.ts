/**
 * `@bizapi/client`: a typed client for the bizapi Business Management REST API. See README.md.
 */
export {
  type Bizapi,
  type BizapiEvents,
  type BizapiOptions,
  type CallInit,
  type FeedEvent,
  type FollowOptions,
  type ItemOf,
  type ListOperationId,
  type OperationOf,
  type ResultOf,
  type RetryOptions,
  createBizapi,
  retryAfterMs,
} from './client.js';
export { BizapiError, BizapiNetworkError, type FieldErrors } from './errors.js';
export { type OperationId, operations } from './generated/operations.js';
export type { components, paths } from './generated/schema.js';
export {
  defaultHmac,
  type HmacSha256,
  nodeCryptoHmac,
  type SignatureVersion,
  type SignInput,
  type SignOptions,
  signRequest,
  webCryptoHmac,
} from './signing.js';
export {
  type HeaderSource,
  type PluuugWebhookEnvelope,
  signWebhook,
  verifyWebhook,
  type VerifyWebhookOptions,
  type WebhookBody,
  type WebhookEvent,
  WebhookVerificationError,
} from './webhooks.js';
