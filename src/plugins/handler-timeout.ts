/**
 * The response deadline (`BIZAPI_REQUEST_TIMEOUT`): a request still unanswered `timeoutMs` milliseconds
 * after it arrived — its body still arriving, or its handler still working — is answered 503
 * `{"detail": "The server took too long to answer this request."}` through the error handler, so it carries
 * the request id, the rate-limit headers and is recorded in the API call log like any other answer. The
 * work under way is not cancelled; what it sends afterwards is dropped.
 *
 * Why not Fastify's own `handlerTimeout`: in Fastify 5.12 it aborts an `AbortController` when the request
 * stream closes, which happens on every request once its body is read, and each abort builds a
 * `DOMException` with a stack trace. Under load that was 8–9% of the server's CPU on `GET /v1/client/{id}`
 * (bench/README.md, profile). The fix is open upstream (fastify/fastify#7033); once it lands, this plugin can
 * give way to `handlerTimeout` again. One timer per request, cleared when the response closes, does the same
 * job here.
 *
 * A route whose `config.holdsRequest(request)` says so is left alone: the feed's long-poll (`wait`, at most
 * 60 s) and stream hold their requests on purpose and end them themselves (docs/api.md#following-the-feed-live).
 */
import { errorCodes, type FastifyInstance, type FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

/** Options of the plugin. */
export interface HandlerTimeoutOptions {
  /** Milliseconds from the request's arrival to the 503; 0 turns the deadline off. */
  timeoutMs: number;
}

/** Sends Fastify's own timeout error, which the error handler renders as the 503 above. */
function expire(reply: FastifyReply, timeoutMs: number): void {
  if (reply.sent || reply.raw.headersSent || reply.raw.destroyed) return;
  void reply.send(
    new errorCodes.FST_ERR_HANDLER_TIMEOUT(timeoutMs, reply.request.routeOptions.url ?? reply.request.url),
  );
}

export default fp<HandlerTimeoutOptions>(
  async function handlerTimeout(app: FastifyInstance, opts: HandlerTimeoutOptions) {
    if (opts.timeoutMs <= 0) return;
    app.addHook('onRequest', (request, reply, done) => {
      // the feed's long-poll and stream bound themselves (docs/api.md#following-the-feed-live)
      if (request.routeOptions.config.holdsRequest?.(request) === true) return done();
      const timer = setTimeout(expire, opts.timeoutMs, reply, opts.timeoutMs);
      reply.raw.once('close', () => clearTimeout(timer));
      done();
    });
  },
  { name: 'handler-timeout' },
);
