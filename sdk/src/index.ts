/**
 * `@bizapi/client`: a typed client for the bizapi Business Management REST API. See README.md.
 */
export { type Bizapi, type BizapiOptions, type CallInit, type ItemOf, type ListOperationId, type OperationOf, type ResultOf, type RetryOptions, createBizapi, retryAfterMs } from './client.ts';
export { BizapiError, BizapiNetworkError, type FieldErrors } from './errors.ts';
export { type OperationId, operations } from './generated/operations.ts';
export type { components, paths } from './generated/schema.ts';
export { defaultHmac, type HmacSha256, nodeCryptoHmac, type SignatureVersion, type SignInput, type SignOptions, signRequest, webCryptoHmac } from './signing.ts';
export {
  type HeaderSource,
  type PluuugWebhookEnvelope,
  signWebhook,
  verifyWebhook,
  type VerifyWebhookOptions,
  type WebhookBody,
  type WebhookEvent,
  WebhookVerificationError,
} from './webhooks.ts';
