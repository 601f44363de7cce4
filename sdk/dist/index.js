/**
 * `@bizapi/client`: a typed client for the bizapi Business Management REST API. See README.md.
 */
export { createBizapi, retryAfterMs, } from './client.js';
export { BizapiError, BizapiNetworkError } from './errors.js';
export { operations } from './generated/operations.js';
export { defaultHmac, nodeCryptoHmac, signRequest, webCryptoHmac, } from './signing.js';
export { signWebhook, verifyWebhook, WebhookVerificationError, } from './webhooks.js';
