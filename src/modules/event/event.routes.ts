/** Routes of `/v1/event` (docs/api.md#events; extension). */
import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { ValidationError } from '../../shared/errors.ts';
import { type CursorPosition, MAX_PAGE_SIZE, type Page, readCursor, toPageBody } from '../../shared/pagination.ts';
import { commonErrorResponses } from '../../shared/schemas.ts';
import type { AuthContext } from '../../shared/auth-context.ts';
import type { FeedFollowers, Following } from './event.followers.ts';
import * as schemas from './event.schemas.ts';
import * as service from './event.service.ts';

const tags = ['event'];

/** Options of the event routes: the process's registry of live followers (src/app.ts creates it). */
export interface EventRoutesOptions {
  followers: FeedFollowers;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Whether the request may be held past `BIZAPI_REQUEST_TIMEOUT` (plugins/handler-timeout.ts does not
     * answer it 503): the feed's long-poll and stream, which bound themselves (docs/api.md#following-the-feed-live).
     */
    holdsRequest?: (request: FastifyRequest) => boolean;
  }
}

/** The socket of a held request stays open while it waits (no idle timeout), and gets the server's back after. */
function holdSocket(request: FastifyRequest): () => void {
  const socket = request.raw.socket as { setTimeout?: (ms: number) => void; destroyed?: boolean } | null;
  // (an injected request's socket has no timeout)
  if (typeof socket?.setTimeout !== 'function') return () => undefined;
  socket.setTimeout(0);
  return () => {
    if (socket.destroyed !== true) socket.setTimeout?.(request.server.server.timeout);
  };
}

/**
 * The long-poll (docs/api.md#long-poll): the page of `query` at once when it has events, else registered as
 * a follower of the business, the page as soon as an event it wants commits (any process), or the empty page
 * after `query.wait` seconds, at shutdown (the registry closes) or when the client goes away.
 */
async function longPoll(
  followers: FeedFollowers,
  request: FastifyRequest,
  reply: FastifyReply,
  auth: AuthContext,
  query: schemas.EventListQuery & { after_sequence: number; wait: number },
  cursor: CursorPosition | undefined,
): Promise<Page<schemas.Event>> {
  const read = () => service.list(request.server.db, auth, query, cursor);
  let page = await read();
  if (page.rows.length > 0 || query.wait === 0 || followers.closed) return page;
  const types = service.typeFilter(query.type);
  const release = holdSocket(request);
  let wake: (() => void) | undefined;
  let news = false;
  let ended = false;
  const nudge = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const follower = {
    businessId: auth.businessId,
    // a cursor continues the order after its own position; the registry only needs a lower bound
    after: query.after_sequence,
    types: types === undefined ? undefined : new Set<string>(types),
    onNews: () => {
      news = true;
      nudge();
    },
    onEnd: () => {
      ended = true;
      nudge();
    },
  };
  const deadline = Date.now() + query.wait * 1000;
  const gone = () => {
    ended = true;
    nudge();
  };
  reply.raw.once('close', gone);
  let following: Following | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    following = await followers.follow(follower);
    // registered: a commit from now on wakes it; one read covers what committed before
    page = await read();
    while (page.rows.length === 0 && !ended && Date.now() < deadline) {
      if (!news) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(nudge, Math.max(0, deadline - Date.now()));
        });
        clearTimeout(timer);
      }
      if (!news || ended) break;
      news = false;
      page = await read();
    }
    return page;
  } finally {
    clearTimeout(timer);
    following?.stop();
    reply.raw.off('close', gone);
    release();
  }
}

/** One event as a Server-Sent Events message: `id:` its sequence, `event:` its type, `data:` its standard JSON. */
export function sseMessage(event: schemas.Event): string {
  return `id: ${event.sequence}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * The stream's start (docs/api.md#stream): `after_sequence` when given, else the `Last-Event-ID` header (a
 * sequence), else 0.
 * @throws ValidationError for a `Last-Event-ID` that is no sequence
 */
function streamStart(request: FastifyRequest, afterSequence: number | undefined): number {
  if (afterSequence !== undefined) return afterSequence;
  const header = request.headers['last-event-id'];
  if (header === undefined || header === '') return 0;
  const text = String(header).trim();
  if (!/^\d{1,16}$/.test(text) || Number(text) > Number.MAX_SAFE_INTEGER) {
    throw ValidationError.at(['Last-Event-ID'], 'A valid integer is required.');
  }
  return Number(text);
}

const eventRoutes: FastifyPluginAsyncTypebox<EventRoutesOptions> = async (app, opts) => {
  const { followers } = opts;

  app.get(
    '/event',
    {
      config: { holdsRequest: (request) => (request.query as Record<string, unknown> | undefined)?.wait !== undefined },
      schema: {
        tags,
        operationId: 'event_list',
        summary: 'List events',
        description:
          'Extension. Every create, change and delete of the business’s records, newest first, kept 30 days. `type` (repeatable) keeps any of the given types, or prefixes (`inquiry.*`); `created_start` / `created_end` are inclusive: a date in the business time zone or a date-time with an offset. With `after_sequence=N`: only the events whose `sequence` is greater than N, **oldest first** — store the last `sequence` processed and ask for the events after it to follow the feed without missing or reordering a committed change (polling by `created` or `updated` can miss a change that commits late).',
        'x-extension': true,
        querystring: schemas.EventListQuery,
        response: { 200: schemas.EventPage, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const cursor = readCursor(request, request.query.cursor);
      const { wait, after_sequence: afterSequence } = request.query;
      if (wait === undefined)
        return toPageBody(request, await service.list(app.db, request.auth, request.query, cursor));
      if (afterSequence === undefined)
        throw ValidationError.at(
          ['wait'],
          'Only with after_sequence: the long-poll waits for the events after a sequence.',
        );
      const page = await longPoll(
        followers,
        request,
        reply,
        request.auth,
        { ...request.query, after_sequence: afterSequence, wait },
        cursor,
      );
      return toPageBody(request, page);
    },
  );

  app.get(
    '/event/stream',
    {
      config: { holdsRequest: () => true },
      schema: {
        tags,
        operationId: 'event_stream_list',
        summary: 'Stream events',
        description:
          'Extension. Server-Sent Events: the events after `after_sequence`, then each as it commits (docs/api.md#stream).',
        'x-extension': true,
        querystring: schemas.EventStreamQuery,
        headers: Type.Object({
          'last-event-id': Type.Optional(Type.String()),
        }),
        response: {
          200: {
            description: 'The event stream.',
            content: {
              'text/event-stream': { schema: Type.String(), example: 'id: 120\nevent: client.created\ndata: {…}\n\n' },
            },
          },
          ...commonErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const auth = request.auth;
      const types = service.typeFilter(request.query.type);
      const query = { type: request.query.type, page_size: MAX_PAGE_SIZE };
      let position = streamStart(request, request.query.after_sequence);
      const out = new PassThrough();
      const release = holdSocket(request);
      /** What {@link end} undoes, once registered. */
      const held: { following?: Following; stopHeartbeat?: () => void } = {};
      let pumping = false;
      let again = false;
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        held.following?.stop();
        held.stopHeartbeat?.();
        release();
        out.end();
      };
      /** Sends every event after `position` (pages of 100), one read loop at a time; news meanwhile reads again. */
      const pump = async (): Promise<void> => {
        if (pumping) {
          again = true;
          return;
        }
        pumping = true;
        try {
          do {
            again = false;
            for (;;) {
              if (ended) return;
              const page = await service.list(app.db, auth, { ...query, after_sequence: position }, undefined);
              if (ended) return;
              for (const event of page.rows) out.write(sseMessage(event));
              const last = page.rows.at(-1);
              if (last) {
                position = last.sequence;
                follower.after = position;
              }
              if (page.next === null) break;
            }
          } while (again);
        } catch (err) {
          request.log.warn(
            { error: err instanceof Error ? err.message : String(err) },
            'event stream: a read failed; ending the stream (the client resumes with Last-Event-ID)',
          );
          end();
        } finally {
          pumping = false;
        }
      };
      const follower = {
        businessId: auth.businessId,
        after: position,
        types: types === undefined ? undefined : new Set<string>(types),
        onNews: () => void pump(),
        onEnd: end,
      };
      held.following = await followers.follow(follower).catch((err: unknown) => {
        release();
        throw err;
      });
      reply.raw.once('close', end);
      held.stopHeartbeat = followers.onHeartbeat(() => {
        if (!ended) out.write(': ping\n\n');
      });
      // the headers and a first line now (proxies and clients see the stream open), then the backlog
      out.write(': stream open\n\n');
      void pump();
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('x-accel-buffering', 'no')
        .send(out as unknown as string); // a stream body: Fastify pipes it (the response schema types only strings)
    },
  );

  app.get(
    '/event/:event_id',
    {
      schema: {
        tags,
        operationId: 'event_retrieve',
        summary: 'Retrieve an event',
        'x-extension': true,
        params: schemas.EventIdParams,
        response: { 200: schemas.EventDetail, ...commonErrorResponses },
      },
    },
    async (request) => service.retrieve(app.db, request.auth, request.params.event_id),
  );
};

export default eventRoutes;
