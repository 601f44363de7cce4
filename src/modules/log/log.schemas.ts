/** API call log shapes (docs/api.md#api-call-log). */
import Type, { type Static } from 'typebox';
import { PageQueryProperties } from '../../shared/pagination.ts';
import { EXAMPLES, Page, Timestamp, withExample, Named } from '../../shared/schemas.ts';

/** Any JSON value (a logged body), or `null` when the call had none. */
const JsonValue = Type.Unsafe<unknown>({
  description:
    'The body as JSON (form bodies as objects), `null` when empty. A body over 64 KiB is replaced by `{"truncated": true, "size": <bytes>, "head": "<its first 64 KiB as text>"}`.',
});

/** One logged call. */
export const LogEntry = Named(
  'Log',
  Type.Object({
    id: Type.Integer(),
    ipAddress: Type.String({
      description: 'Address of the caller (the proxy-forwarded one only when a trusted proxy is configured).',
    }),
    method: Type.String(),
    path: Type.String({ description: 'Path with the query string.' }),
    referrer: Type.String({ description: 'The `Referer` header, or an empty string.' }),
    statusCode: Type.String({ description: 'HTTP status code, as a string.' }),
    requestBody: JsonValue,
    responseBody: JsonValue,
    created: Timestamp,
    idempotentReplayed: Type.Optional(
      Type.Boolean({
        description:
          'Present (`true`) only when the call was answered from a stored `Idempotency-Key` answer: nothing ran (docs/api.md#idempotent-retries).',
        'x-extension': true,
      }),
    ),
  }),
);
export type LogEntry = Static<typeof LogEntry>;

/** `GET /v1/log/` query. */
export const LogListQuery = Type.Object(PageQueryProperties);
export type LogListQuery = Static<typeof LogListQuery>;

/** A page of log entries. */
export const LogPage = withExample(Page(LogEntry), {
  next: EXAMPLES.pageLink.replace('/v1/client', '/v1/log/'),
  previous: null,
  results: [
    {
      id: 812,
      ipAddress: '203.0.113.7',
      method: 'POST',
      path: '/v1/client',
      referrer: '',
      statusCode: '201',
      requestBody: { companyName: 'Acme Corp.' },
      responseBody: {
        id: 42,
        companyName: 'Acme Corp.',
        created: EXAMPLES.created,
        status: null,
        inCharge: null,
        position: null,
        contact: null,
        email: null,
      },
      created: EXAMPLES.created,
    },
  ],
});
