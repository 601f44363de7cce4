/**
 * The server log's options: nothing that grants access is ever written to it (docs/deployment.md#logs).
 *
 * - URLs are logged with the values of their signature and token query parameters (`signature=`,
 *   `X-Amz-Signature=`, `token=`, …) replaced by `[REDACTED]`: a pre-signed `/files/…` URL is a bearer
 *   credential.
 * - Credential headers (`X-API-Key`, `X-Signature`, `Authorization`, `Cookie`) are censored wherever a log
 *   entry carries headers.
 * - As a last line of defence every log line passes the same URL redaction before it is written, so a URL
 *   quoted inside an error message is redacted too.
 */
import type { FastifyRequest } from 'fastify';
import { redactUrlCredentials } from './request-log.ts';

/** Where log lines go (pino's minimal destination). */
export interface LogDestination {
  write(line: string): unknown;
}

/** Header names whose values never reach the log, in every place pino may find them. */
const CREDENTIAL_HEADERS = ['x-api-key', 'x-signature', 'authorization', 'cookie', 'x-metrics-token'];
const REDACT_PATHS = CREDENTIAL_HEADERS.flatMap((h) => [
  `req.headers["${h}"]`,
  `headers["${h}"]`,
  `request.headers["${h}"]`,
]);

/** Fastify's request serializer, with the URL's credentials redacted. */
function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrlCredentials(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}

/**
 * Fastify's `logger` option for a level: redacting serializers, censored credential headers, and a
 * destination that redacts each line (stdout unless `destination` is given, as tests do to read the log).
 */
export function loggerOptions(level: string, destination: LogDestination = process.stdout) {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    serializers: { req: serializeRequest },
    stream: { write: (line: string) => destination.write(redactUrlCredentials(line)) },
  };
}
