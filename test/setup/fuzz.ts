/**
 * Property-based fuzzing of one documented operation (issue 8): valid bodies from the operation's request
 * schema must succeed or fail with a documented 4xx; hostile bodies and query strings must get a 4xx; no
 * case may get a 5xx, and every answer must conform to the document. Used by the bounded suite in
 * `npm test` (test/suite/fuzz.test.ts) and by the long campaign `npm run fuzz`.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { checkResponse, type DocOperation, type Document } from './openapi-document.ts';
import { HOSTILE_STRINGS, invalid, valid } from './schema-arbitrary.ts';
import { type Credentials } from './signed-request.ts';
import { apiClient } from './api-client.ts';

/** Options of {@link fuzzOperation}. */
export interface FuzzOptions {
  /** Cases per property (valid bodies, hostile bodies, hostile query strings, raw bytes). */
  runs: number;
  seed?: number;
  /** Record ids by collection template (see test/suite/fuzz-targets.ts); missing ones use an id that does not exist. */
  records: Record<string, number>;
}

/** What one fuzzed operation produced. */
export interface FuzzReport {
  operationId: string;
  cases: number;
  /** Distinct problems, each with the request that showed it. */
  problems: string[];
}

function urlOf(
  op: DocOperation,
  records: Record<string, number>,
  query = '',
  override: Record<string, string> = {},
): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, p: string) => {
    const collection = op.path.slice(0, op.path.indexOf(`/{${p}}`));
    return override[p] ?? String(records[collection] ?? 2_147_483_000);
  });
  return query ? `${path}?${query}` : path;
}

/** Raw request bodies that are not what their content type says, or not text at all. */
const RAW_BODIES: readonly { payload: string | Buffer; contentType: string }[] = [
  { payload: Buffer.from([0xff, 0xfe, 0xfd, 0x00, 0xc3]), contentType: 'application/json' },
  { payload: '{"a":', contentType: 'application/json' },
  { payload: '[1,2,3]', contentType: 'application/json' },
  { payload: '"just a string"', contentType: 'application/json' },
  { payload: 'null', contentType: 'application/json' },
  { payload: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}', contentType: 'application/json' },
  { payload: Buffer.from([0xff, 0xfe, 0x41]), contentType: 'application/x-www-form-urlencoded' },
  { payload: 'a[b][c][d][e][f][g][h][i][j][k]=1&%E0%A4%A=1', contentType: 'application/x-www-form-urlencoded' },
  {
    payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1',
    contentType: 'multipart/form-data; boundary=x',
  },
  { payload: '<xml/>', contentType: 'application/xml' },
];

/**
 * Fuzzes one operation through `app.inject` with signed requests of `creds`.
 * @returns the number of cases sent and the distinct problems found (5xx, undocumented status, non-conforming body)
 */
export async function fuzzOperation(
  app: FastifyInstance,
  creds: Credentials,
  doc: Document,
  op: DocOperation,
  opts: FuzzOptions,
): Promise<FuzzReport> {
  const problems = new Set<string>();
  let cases = 0;
  const exchange = async (
    url: string,
    body: { json?: unknown; raw?: { payload: string | Buffer; contentType: string } },
    label: string,
  ) => {
    cases += 1;
    const res = await apiClient(app).raw(creds, {
      method: op.method,
      url,
      ...(body.raw
        ? { raw: body.raw }
        : body.json !== undefined
          ? { raw: { payload: JSON.stringify(body.json) ?? 'null', contentType: 'application/json' } }
          : {}),
    });
    for (const p of checkResponse(doc, op.method, url, res.statusCode, res.body)) {
      problems.add(`${p}\n    ${label}: ${truncate(body.raw ? String(body.raw.payload) : JSON.stringify(body.json))}`);
    }
    return res.statusCode;
  };
  const params = { numRuns: opts.runs, seed: opts.seed, endOnFailure: false };
  const url = urlOf(op, opts.records);

  await exchange(url, op.requestSchema ? { json: {} } : {}, 'plain request');
  if (op.requestSchema) {
    await fc.assert(
      fc.asyncProperty(
        valid(op.requestSchema),
        async (body) => void (await exchange(url, { json: body }, 'valid body')),
      ),
      params,
    );
    await fc.assert(
      fc.asyncProperty(invalid(op.requestSchema), async (body) => {
        const status = await exchange(url, { json: body }, 'hostile body');
        if (status >= 500) problems.add(`${op.method} ${url}: hostile body answered ${status}`);
      }),
      params,
    );
    for (const raw of RAW_BODIES) await exchange(url, { raw }, 'raw body');
  }
  if (op.query.length > 0) {
    const queryArb = fc
      .array(
        fc.tuple(
          fc.constantFrom(...op.query.map((q) => q.name)),
          fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string()),
        ),
        { maxLength: 4 },
      )
      .map((pairs) => new URLSearchParams(pairs).toString());
    await fc.assert(
      fc.asyncProperty(queryArb, async (q) => void (await exchange(urlOf(op, opts.records, q), {}, 'query'))),
      params,
    );
  }
  for (const p of op.pathParams) {
    for (const bad of ['0', '-1', 'abc', '1.5', '99999999999999999999', '%00', '..%2F..%2F']) {
      const u = urlOf(op, opts.records, '', { [p]: bad });
      await exchange(u, op.requestSchema ? { json: {} } : {}, `path ${p}=${bad}`);
    }
  }
  return { operationId: op.operationId, cases, problems: [...problems] };
}

function truncate(s: string | undefined): string {
  if (s === undefined) return '(none)';
  return s.length > 300 ? `${s.slice(0, 300)}… (${s.length} chars)` : s;
}
