/**
 * The tenant-isolation matrix (issue 8), generated from the served OpenAPI document so that a new route or
 * a new reference property cannot slip past:
 * - every operation with a path id: business B using business A's id gets 404, and A's record is unchanged;
 * - every child path (`/v1/x/{x_id}/y/{y_id}`): a child addressed under another parent of the same business
 *   gets 404;
 * - every request property that references a record (`{id}` or `[{id}]`, nested ones too): B sending A's id
 *   gets 400 on that property, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../setup/factories.ts';
import { type DocOperation, type Document, type JsonSchema, loadDocument } from '../setup/openapi-document.ts';
import { collectionOf, fillPath, type Records, securedOperations, seedRecords } from './fuzz-targets.ts';
import { apiClient } from '../setup/api-client.ts';

let t: TestApp;
const { call } = apiClient(() => t.app);
let doc: Document;
let a: TestBusiness;
let b: TestBusiness;
let recordsA: Records;
let recordsB: Records;
beforeAll(async () => {
  t = await buildTestApp({ BIZAPI_RATE_LIMIT: '0' });
  doc = await loadDocument(t.app);
  a = await newBusiness(t, { plan: 'AGENCY' });
  b = await newBusiness(t, { plan: 'AGENCY' });
  recordsA = await seedRecords(t.app, a, doc);
  recordsB = await seedRecords(t.app, b, doc);
});
afterAll(async () => {
  await t.close();
});

/** A reference property of a request body: its path (`fieldSet[].field`) and whether it is a list. */
interface Reference {
  path: string;
  list: boolean;
}

const isIdRef = (s: JsonSchema | undefined): boolean => {
  if (!s || !s.properties) return false;
  const keys = Object.keys(s.properties as object);
  const id = (s.properties as JsonSchema).id as JsonSchema | undefined;
  const types = id ? (Array.isArray(id.type) ? id.type : [id.type]) : [];
  return keys.includes('id') && types.includes('integer') && ((s.required ?? []) as string[]).includes('id');
};

/** Every reference property of `schema`, nested ones too. */
export function referencesOf(schema: JsonSchema | undefined, prefix = ''): Reference[] {
  if (!schema?.properties) return [];
  const out: Reference[] = [];
  for (const [k, s] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isIdRef(s)) out.push({ path, list: false });
    else if (s.items && isIdRef(s.items as JsonSchema)) out.push({ path, list: true });
    else if (s.items) out.push(...referencesOf(s.items as JsonSchema, `${path}[]`));
    else if (s.properties) out.push(...referencesOf(s, path));
  }
  return out;
}

/**
 * Where business A's record for a reference comes from, by `<collection>:<property path>`. A reference the
 * document declares but this table does not know fails the matrix with a message naming it: add it here.
 */
const REFERENCE_SOURCES: Record<string, (x: TestBusiness, records: Records) => number | undefined> = {
  '/v1/client:status': (x) => Object.values(x.ids.clientStatuses)[0],
  '/v1/client:fieldSet[].field': (x) => Object.values(x.ids.fields)[0],
  '/v1/inquiry:status': (x) => Object.values(x.ids.statuses)[0],
  '/v1/inquiry:client': (_x, r) => r['/v1/client'],
  '/v1/inquiry:contract': (_x, r) => r['/v1/contract'],
  '/v1/inquiry:inChargeSet': (x) => Object.values(x.ids.members)[0],
  '/v1/inquiry:fieldSet[].field': (x) => Object.values(x.ids.fields)[0],
  '/v1/inquiry/{inquiry_id}/text_history:member': (x) => Object.values(x.ids.members)[0],
  '/v1/inquiry/{inquiry_id}/history:member': (x) => Object.values(x.ids.members)[0],
  '/v1/contract:client': (_x, r) => r['/v1/client'],
  '/v1/contract:inquiry': (_x, r) => r['/v1/inquiry'],
  '/v1/contract:categorySet': (x) => Object.values(x.ids.contractCategories)[0],
  '/v1/contract:fieldSet[].field': (x) => Object.values(x.ids.fields)[0],
  '/v1/settlement:contract': (_x, r) => r['/v1/contract'],
  '/v1/settlement:type': (x) => Object.values(x.ids.settlementTypes)[0],
  '/v1/settlement:inChargeSet': (x) => Object.values(x.ids.members)[0],
  '/v1/contract/{contract_id}/history:member': (x) => Object.values(x.ids.members)[0],
  '/v1/settlement/{settlement_id}/history:member': (x) => Object.values(x.ids.members)[0],
  '/v1/project:contract': (_x, r) => r['/v1/contract'],
  '/v1/worker:position': (x) => Object.values(x.ids.positions)[0],
  '/v1/todo:inquiry': (_x, r) => r['/v1/inquiry'],
  '/v1/todo:inCharge': (x) => Object.values(x.ids.members)[0],
  '/v1/todo:completedInCharge': (x) => Object.values(x.ids.members)[0],
  '/v1/estimate/item:classification': (x) => Object.values(x.ids.estimateItemClassifications)[0],
};

/** The resource collection an operation belongs to (`/v1/inquiry/{inquiry_id}` → `/v1/inquiry`). */
const resourceOf = (op: DocOperation): string => op.path.replace(/\/\{\w+\}$/, '');

/** A body that sets `ref` (`a.b[].c`) to `{id}` (or `[{id}]`). */
function bodyWith(ref: Reference, id: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const value: unknown = ref.list ? [{ id }] : { id };
  const parts = ref.path.split('.');
  const build = (i: number): unknown => {
    if (i === parts.length) return value;
    const key = parts[i]!;
    if (key.endsWith('[]')) return { [key.slice(0, -2)]: [build(i + 1)] };
    return { [key]: build(i + 1) };
  };
  const built = build(0) as Record<string, unknown>;
  // `fieldSet[].field` needs its sibling `value`.
  const top = Object.keys(built)[0]!;
  if (Array.isArray(built[top]) && parts.length > 1)
    (built[top] as Record<string, unknown>[])[0] = {
      value: '1',
      ...((built[top] as Record<string, unknown>[])[0] ?? {}),
    };
  return { ...extra, ...built };
}

/** `value` with every signed URL's `expires` and `signature` parameters removed (they change per window). */
const unsigned = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value).replace(/([?&])(expires|signature|X-Amz-[A-Za-z-]+)=[^&"]*/g, '$1$2=…'));

const collected = await (async () => {
  const probe = await buildTestApp();
  try {
    return securedOperations(await loadDocument(probe.app));
  } finally {
    await probe.close();
  }
})();

describe("another business's path id → 404, and the record is unchanged", () => {
  for (const op of collected.filter((o) => o.pathParams.length > 0)) {
    it(`${op.method} ${op.path}`, async () => {
      const missing = op.pathParams.map((p) => collectionOf(op.path, p)).filter((c) => recordsA[c] === undefined);
      expect(missing, `no record could be created in ${missing.join(', ')}: make its POST example valid`).toEqual([]);
      const url = fillPath(op.path, recordsA);
      const getOp = doc.operations.find((o) => o.method === 'GET' && o.path === op.path);
      const before = getOp ? await call(a, { method: 'GET', url }) : undefined;
      const res = await call(b, { method: op.method, url, ...(op.requestSchema ? { body: {} } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body.detail).toBe('Not found.');
      if (getOp) {
        const after = await call(a, { method: 'GET', url });
        expect(after.status).toBe(200);
        // A download URL is re-signed each minute (docs/api.md#attachments): compare without its signature.
        expect(unsigned(after.body)).toEqual(unsigned(before!.body));
      }
    });
  }
});

const children = collected.filter((o) => o.pathParams.length > 1);
describe.skipIf(children.length === 0)('a child under another parent of the same business → 404', () => {
  for (const op of children) {
    it(`${op.method} ${op.path}`, async () => {
      const parent = collectionOf(op.path, op.pathParams[0]!);
      // A second parent record of business A, without the child.
      const second = await seedRecords(
        t.app,
        a,
        doc,
        Object.fromEntries(Object.entries(recordsA).filter(([k]) => k !== parent && !k.startsWith(`${parent}/`))),
      );
      expect(second[parent], `no second record in ${parent}`).toBeDefined();
      const url = fillPath(op.path, recordsA, { [parent]: second[parent]! });
      const res = await call(a, { method: op.method, url, ...(op.requestSchema ? { body: {} } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(404);
    });
  }
});

describe("another business's record in a reference property → 400 on it, nothing written", () => {
  const cases = collected
    .filter((o) => (o.method === 'POST' || o.method === 'PATCH') && o.requestSchema)
    .flatMap((op) => referencesOf(op.requestSchema).map((ref) => ({ op, ref })));
  it('finds reference properties in the document', () => {
    expect(cases.length).toBeGreaterThan(0);
  });
  for (const { op, ref } of cases) {
    it(`${op.method} ${op.path} ${ref.path}`, async () => {
      const key = `${resourceOf(op)}:${ref.path}`;
      const source = REFERENCE_SOURCES[key];
      expect(
        source,
        `unknown reference ${key}: add where business A's record comes from to REFERENCE_SOURCES`,
      ).toBeDefined();
      const foreignId = source!(a, recordsA);
      expect(foreignId, `business A has no record for ${key}`).toBeDefined();
      const url = fillPath(op.path, recordsB);
      const listUrl = fillPath(resourceOf(op), recordsB);
      const listBefore = await call(b, { method: 'GET', url: listUrl });
      const itemBefore = op.method === 'PATCH' ? await call(b, { method: 'GET', url }) : undefined;
      const base =
        op.method === 'POST' && op.requestExample && typeof op.requestExample === 'object'
          ? (op.requestExample as Record<string, unknown>)
          : {};
      const res = await call(b, {
        method: op.method,
        url,
        body: bodyWith(
          ref,
          foreignId!,
          Object.fromEntries(Object.entries(base).filter(([k]) => k !== ref.path.split(/[.[]/)[0])),
        ),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      const top = ref.path.split(/[.[]/)[0]!;
      expect(JSON.stringify(res.body[top]), JSON.stringify(res.body)).toMatch(/does not exist/);
      const listAfter = await call(b, { method: 'GET', url: listUrl });
      if (listBefore.status === 200) expect(listAfter.body).toEqual(listBefore.body);
      if (itemBefore) expect((await call(b, { method: 'GET', url })).body).toEqual(itemBefore.body);
    });
  }
});
