/**
 * Records behind the document's path parameters, for the suites generated from it (fuzzing, tenant
 * isolation): one record per collection that has a documented POST, created by POSTing the documented
 * example, or `{}`, or bodies sampled from the request schema, whichever the server accepts first; and one
 * per collection of {@link SEEDERS}, whose items are made another way.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import type { DocOperation, Document } from '../setup/openapi-document.ts';
import { valid } from '../setup/schema-arbitrary.ts';
import { type Credentials } from '../setup/signed-request.ts';
import { apiClient } from '../setup/api-client.ts';

/** Record ids by collection path template (`/v1/client`, `/v1/inquiry/{inquiry_id}/text_history`, …). */
export type Records = Record<string, number>;

/** An id that no record has. */
export const MISSING_ID = 2_147_483_000;

/** The operations worth testing: the documented, key-protected ones. */
export function securedOperations(doc: Document): DocOperation[] {
  return doc.operations.filter((o) => o.secured && o.path.startsWith('/v1/'));
}

/** The collection template each path parameter of `template` indexes: `{a_id}` of `/v1/a/{a_id}/b` → `/v1/a`. */
export function collectionOf(template: string, param: string): string {
  return template.slice(0, template.indexOf(`/{${param}}`));
}

/** `template` with every path parameter replaced by the record of its collection (or `MISSING_ID`). */
export function fillPath(template: string, records: Records, override: Records = {}): string {
  return template.replace(/\{(\w+)\}/g, (_m, p: string) => {
    const collection = collectionOf(template, p);
    return String(override[collection] ?? records[collection] ?? MISSING_ID);
  });
}

/** The first id a catalog list answers (a plain array or a page), or `undefined`. */
async function catalogIds(app: FastifyInstance, creds: Credentials, url: string): Promise<number[]> {
  const res = await apiClient(app).call(creds, { method: 'GET', url });
  if (res.status !== 200) return [];
  const items = (Array.isArray(res.body) ? res.body : res.body?.results) as { id?: unknown }[] | undefined;
  return (items ?? []).map((i) => i.id).filter((id): id is number => typeof id === 'number');
}

/**
 * The example with each single reference `{"<name>": {"id": …}}` pointed at a record of this business: the
 * seeded record of `/v1/<name>`, else each item of the catalog list `<post path>/<name>` in turn (a
 * settlement's `type` → `GET /v1/settlement/type`), one body per item. References it cannot resolve are
 * left as they are.
 */
async function withOwnReferences(
  app: FastifyInstance,
  creds: Credentials,
  op: DocOperation,
  url: string,
  records: Records,
): Promise<unknown[]> {
  const example = op.requestExample;
  if (!example || typeof example !== 'object' || Array.isArray(example)) return [];
  let bodies: Record<string, unknown>[] = [{ ...(example as Record<string, unknown>) }];
  for (const [key, value] of Object.entries(example)) {
    if (!value || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).join() !== 'id') continue;
    const record = records[`/v1/${key}`];
    const ids = record !== undefined ? [record] : await catalogIds(app, creds, `${url}/${key}`);
    if (ids.length > 0) bodies = bodies.flatMap((b) => ids.map((id) => ({ ...b, [key]: { id } })));
  }
  return bodies;
}

/**
 * The example with its top-level references (`{id}` objects) resolved against the records already made: a
 * property named after a collection (`inquiry` → `/v1/inquiry`) points at that record, any other reference
 * (a catalog id the example made up) is left out. `undefined` when the example has no reference.
 */
function withSeededReferences(example: unknown, records: Records): unknown {
  if (!example || typeof example !== 'object' || Array.isArray(example)) return undefined;
  const isRef = (v: unknown) =>
    !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { id?: unknown }).id === 'number';
  const entries = Object.entries(example as Record<string, unknown>);
  if (!entries.some(([, v]) => isRef(v))) return undefined;
  const body: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    if (!isRef(v)) body[k] = v;
    else if (records[`/v1/${k}`] !== undefined) body[k] = { id: records[`/v1/${k}`] };
  }
  return body;
}

/** Bodies to try for creating a record through `op`: its example (as is, then with seeded references), `{}`, then samples of its schema. */
function candidateBodies(op: DocOperation, records: Records): unknown[] {
  const bodies: unknown[] = [];
  if (op.requestExample !== undefined) bodies.push(op.requestExample);
  const resolved = withSeededReferences(op.requestExample, records);
  if (resolved !== undefined) bodies.push(resolved);
  bodies.push({});
  if (op.requestSchema) bodies.push(...fc.sample(valid(op.requestSchema), { numRuns: 20, seed: 42 }));
  return bodies;
}

/**
 * Collections whose items are not created by a POST to the collection itself: how to make one, given the
 * records made so far (`undefined` when it cannot be made).
 * - `/v1/inquiry/{inquiry_id}/file`: a file uploaded through `POST /v1/presigned` and its URL, then attached
 *   to the inquiry with `PATCH … {fileSet}`; the id is its `fileSet` item's.
 * - `/v1/webhook/{webhook_id}/delivery`: the delivery a test ping (`POST /v1/webhook/{id}/test`) queues.
 */
const SEEDERS: Record<
  string,
  (app: FastifyInstance, creds: Credentials, records: Records) => Promise<number | undefined>
> = {
  '/v1/inquiry/{inquiry_id}/file': async (app, creds, records) => {
    const inquiryId = records['/v1/inquiry'];
    if (inquiryId === undefined) return undefined;
    const presigned = await apiClient(app).call(creds, {
      method: 'POST',
      url: '/v1/presigned',
      body: { name: 'seed.pdf' },
    });
    if (presigned.status !== 201) return undefined;
    const url = new URL(presigned.body.url as string);
    const put = await apiClient(app).raw(undefined, {
      method: 'PUT',
      url: `${url.pathname}${url.search}`,
      raw: { payload: '%PDF-1.4 seed' },
    });
    if (put.statusCode !== 200) return undefined;
    const body = { fileSet: [{ name: 'seed.pdf', file: presigned.body.path }] };
    const patched = await apiClient(app).call(creds, { method: 'PATCH', url: `/v1/inquiry/${inquiryId}`, body });
    return (patched.body?.fileSet as { id: number }[] | undefined)?.at(-1)?.id;
  },
  // Events have no POST: the newest one the seeding wrote (docs/api.md#events).
  '/v1/event': async (app, creds) => {
    const page = await apiClient(app).call(creds, { method: 'GET', url: '/v1/event?page_size=1' });
    return (page.body?.results as { id: number }[] | undefined)?.[0]?.id;
  },
  // Deliveries have no POST: the test ping writes one (docs/webhooks.md#test).
  '/v1/webhook/{webhook_id}/delivery': async (app, creds, records) => {
    const webhookId = records['/v1/webhook'];
    if (webhookId === undefined) return undefined;
    const ping = await apiClient(app).call(creds, { method: 'POST', url: `/v1/webhook/${webhookId}/test` });
    return ping.status === 202 ? (ping.body?.id as number | undefined) : undefined;
  },
};

/**
 * Creates one record per collection with a documented POST whose items have their own path, parents
 * first, in the business of `creds`; then one per collection of {@link SEEDERS} that the document has.
 * @returns the ids by collection template; collections nothing could be created in are absent
 */
export async function seedRecords(
  app: FastifyInstance,
  creds: Credentials,
  doc: Document,
  into: Records = {},
): Promise<Records> {
  const records: Records = { ...into };
  const posts = doc.operations
    .filter((o) => o.method === 'POST' && o.path.startsWith('/v1/') && o.secured)
    .sort((a, b) => a.pathParams.length - b.pathParams.length);
  // Passes until nothing new is made: a collection whose example references a later one (a todo's inquiry)
  // gets its record in the pass after that one's.
  for (let progress = true; progress;) {
    progress = false;
    for (const op of posts) {
      const hasItems = doc.operations.some(
        (o) => o.path.startsWith(`${op.path}/{`) && o.pathParams.length === op.pathParams.length + 1,
      );
      if (!hasItems || records[op.path] !== undefined) continue;
      const url = fillPath(op.path, records);
      for (const body of [
        ...(await withOwnReferences(app, creds, op, url, records)),
        ...candidateBodies(op, records),
      ]) {
        const res = await apiClient(app).call(creds, { method: 'POST', url, body });
        if (res.status === 201 && typeof res.body?.id === 'number') {
          records[op.path] = res.body.id;
          progress = true;
          break;
        }
      }
    }
  }
  for (const [collection, seed] of Object.entries(SEEDERS)) {
    if (records[collection] !== undefined || !doc.operations.some((o) => o.path.startsWith(`${collection}/{`)))
      continue;
    const id = await seed(app, creds, records);
    if (id !== undefined) records[collection] = id;
  }
  return records;
}
