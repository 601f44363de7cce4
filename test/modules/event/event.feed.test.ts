/**
 * The change feed to sync by (docs/api.md#events): `parent` on the events of every note kind
 * (inquiry text history, contract and settlement notes, also when a contract or settlement delete removes
 * them), `sequence` strictly increasing, `GET /v1/event?after_sequence=N` oldest first in pages, with `type`
 * filters, its 400s, and no event listed before it has a sequence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';
import { contractFor, createSettlement, settlementBusiness } from '../settlement/settlement-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const { get, post, patch, delete: del } = apiClient(() => t.app);

/** `POST url body`, expecting 201; the create answer. */
async function created(b: TestBusiness, url: string, body: Record<string, unknown>): Promise<any> {
  const res = await post(b, url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Follows `after_sequence=after` through every page (`next` links); the events oldest first. */
async function follow(b: TestBusiness, after: number, query = '', pageSize = 100): Promise<any[]> {
  const all: any[] = [];
  let url: string | null = `/v1/event?after_sequence=${after}&page_size=${pageSize}${query}`;
  while (url) {
    const res = await get(b, url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    all.push(...res.body.results);
    url = res.body.next ? new URL(res.body.next).pathname + new URL(res.body.next).search : null;
  }
  return all;
}

/** The business's events of `prefix` (`contract.history`, …), oldest first, from the feed. */
async function eventsOf(b: TestBusiness, prefix: string): Promise<any[]> {
  return (await follow(b, 0)).filter((e) => e.type.startsWith(`${prefix}.`));
}

describe('parent on note events', () => {
  it('inquiry text history: created, updated, deleted name the inquiry; other events name none', async () => {
    const b = await newBusiness(t);
    const inquiry = await created(b, '/v1/inquiry', { name: 'Parent' });
    const note = await created(b, `/v1/inquiry/${inquiry.id}/text_history`, { content: 'a' });
    expect((await patch(b, `/v1/inquiry/${inquiry.id}/text_history/${note.id}`, { content: 'b' })).status).toBe(200);
    expect((await del(b, `/v1/inquiry/${inquiry.id}/text_history/${note.id}`)).status).toBe(204);
    const all = await follow(b, 0);
    expect(all.map((e) => [e.type, e.parent])).toEqual([
      ['inquiry.created', null],
      ['inquiry.text_history.created', { type: 'inquiry', id: inquiry.id }],
      ['inquiry.text_history.updated', { type: 'inquiry', id: inquiry.id }],
      ['inquiry.text_history.deleted', { type: 'inquiry', id: inquiry.id }],
    ]);
    // data is the note's shape, unchanged: the parent is beside it, not in it
    expect(all[1].data).toEqual(
      (await get(b, `/v1/inquiry/${inquiry.id}/text_history`)).body.results[0] ?? all[1].data,
    );
    expect(all[3].data).toEqual({ id: note.id });
  });

  it('contract and settlement notes: created, updated, deleted, and deletes of the parent name it', async () => {
    const b = await settlementBusiness(t);
    const contract = await contractFor(t, b);
    const settlement = await createSettlement(t, b, contract.id, b.ids.settlementTypes.ins);
    const cNote = await created(b, `/v1/contract/${contract.id}/history`, { content: 'c' });
    const sNote = await created(b, `/v1/settlement/${settlement.id}/history`, { content: 's' });
    expect(cNote).not.toHaveProperty('updated');
    expect((await patch(b, `/v1/contract/${contract.id}/history/${cNote.id}`, { content: 'c2' })).status).toBe(200);
    expect((await patch(b, `/v1/settlement/${settlement.id}/history/${sNote.id}`, { content: 's2' })).status).toBe(200);
    expect((await del(b, `/v1/contract/${contract.id}/history/${cNote.id}`)).status).toBe(204);
    expect((await del(b, `/v1/settlement/${settlement.id}/history/${sNote.id}`)).status).toBe(204);
    const onContract = { type: 'contract', id: contract.id };
    const onSettlement = { type: 'settlement', id: settlement.id };
    expect((await eventsOf(b, 'contract.history')).map((e) => [e.type, e.parent])).toEqual([
      ['contract.history.created', onContract],
      ['contract.history.updated', onContract],
      ['contract.history.deleted', onContract],
    ]);
    expect((await eventsOf(b, 'settlement.history')).map((e) => [e.type, e.parent])).toEqual([
      ['settlement.history.created', onSettlement],
      ['settlement.history.updated', onSettlement],
      ['settlement.history.deleted', onSettlement],
    ]);
    const contractEvents = (await follow(b, 0)).filter((e) =>
      /^(contract|settlement)\.(created|updated|deleted)$/.test(e.type),
    );
    expect(contractEvents.length).toBeGreaterThan(1);
    expect(contractEvents.every((e) => e.parent === null)).toBe(true);

    // a settlement delete removes its notes: each deleted event names the settlement
    const s2 = await createSettlement(t, b, contract.id, b.ids.settlementTypes.ins);
    const n2 = await created(b, `/v1/settlement/${s2.id}/history`, { content: 'x' });
    expect((await del(b, `/v1/settlement/${s2.id}`)).status).toBe(204);
    expect((await eventsOf(b, 'settlement.history')).at(-1)).toMatchObject({
      type: 'settlement.history.deleted',
      data: { id: n2.id },
      parent: { type: 'settlement', id: s2.id },
    });

    // a contract delete removes its notes and its settlements' notes: each names its own parent
    const s3 = await createSettlement(t, b, contract.id, b.ids.settlementTypes.ins);
    const n3 = await created(b, `/v1/settlement/${s3.id}/history`, { content: 'y' });
    const c3 = await created(b, `/v1/contract/${contract.id}/history`, { content: 'z' });
    expect((await del(b, `/v1/contract/${contract.id}`)).status).toBe(204);
    const deleted = (await follow(b, 0)).filter((e) => e.type.endsWith('.history.deleted'));
    expect(deleted.slice(-2).map((e) => [e.data.id, e.parent])).toEqual(
      expect.arrayContaining([
        [n3.id, { type: 'settlement', id: s3.id }],
        [c3.id, { type: 'contract', id: contract.id }],
      ]),
    );
  });
});

describe('sequence and after_sequence', () => {
  it('sequences increase strictly; after_sequence pages oldest first and agrees with the newest-first list', async () => {
    const b = await newBusiness(t);
    for (let i = 0; i < 7; i++) {
      const client = await created(b, '/v1/client', { companyName: `Seq ${i}` });
      expect((await patch(b, `/v1/client/${client.id}`, { email: `s${i}@example.com` })).status).toBe(200);
    }
    const newestFirst = (await get(b, '/v1/event?page_size=100')).body.results as any[];
    expect(newestFirst).toHaveLength(14);
    for (const e of newestFirst) expect(Number.isInteger(e.sequence) && e.sequence > 0).toBe(true);
    const oldestFirst = await follow(b, 0, '', 3);
    expect(oldestFirst).toEqual([...newestFirst].reverse());
    const sequences = oldestFirst.map((e) => e.sequence);
    for (let i = 1; i < sequences.length; i++) expect(sequences[i]).toBeGreaterThan(sequences[i - 1]);
    expect(oldestFirst.map((e) => e.type).slice(0, 2)).toEqual(['client.created', 'client.updated']);

    // from the middle: exactly the events after it
    const middle = sequences[5];
    expect((await follow(b, middle, '', 4)).map((e) => e.sequence)).toEqual(sequences.slice(6));
    // past the end: nothing
    expect(await follow(b, sequences.at(-1))).toEqual([]);
    // combined with type filters
    const updates = await follow(b, middle, '&type=client.updated', 2);
    expect(updates.map((e) => e.sequence)).toEqual(
      oldestFirst.filter((e) => e.sequence > middle && e.type === 'client.updated').map((e) => e.sequence),
    );

    // a new write appears after the last sequence seen, with a greater sequence
    await created(b, '/v1/client', { companyName: 'Later' });
    const next = await follow(b, sequences.at(-1));
    expect(next.map((e) => e.type)).toEqual(['client.created']);
    expect(next[0].sequence).toBeGreaterThan(sequences.at(-1));
    // GET one answers the same event
    expect((await get(b, `/v1/event/${next[0].id}`)).body).toEqual(next[0]);
  });

  it('another business’s events are not in the feed; its sequences interleave with ours', async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t);
    await created(a, '/v1/client', { companyName: 'A' });
    await created(b, '/v1/client', { companyName: 'B' });
    await created(a, '/v1/client', { companyName: 'A2' });
    const fa = await follow(a, 0);
    const fb = await follow(b, 0);
    expect(fa.map((e) => e.data.companyName)).toEqual(['A', 'A2']);
    expect(fb.map((e) => e.data.companyName)).toEqual(['B']);
    expect(fa[0].sequence < fb[0].sequence && fb[0].sequence < fa[1].sequence).toBe(true);
  });

  it('refuses a bad after_sequence with 400 in the DRF shape, and a cursor of the other order', async () => {
    const b = await newBusiness(t);
    for (const bad of ['-1', 'abc', '1.5', '99999999999999999999']) {
      const res = await get(b, `/v1/event?after_sequence=${encodeURIComponent(bad)}`);
      expect(res.status, `${bad}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(
        Object.keys(res.body).filter((k) => k !== 'requestId'),
        bad,
      ).toEqual(['after_sequence']);
      expect(Array.isArray(res.body.after_sequence)).toBe(true);
    }
    for (let i = 0; i < 3; i++) await created(b, '/v1/client', { companyName: `C${i}` });
    const newest = (await get(b, '/v1/event?page_size=1')).body;
    const cursor = new URL(newest.next).searchParams.get('cursor');
    const res = await get(b, `/v1/event?after_sequence=0&page_size=1&cursor=${encodeURIComponent(cursor!)}`);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('Invalid cursor');
  });

  it('an event written outside the API (no sequence yet) gets one before any list shows it', async () => {
    const b = await newBusiness(t);
    const before = await follow(b, 0);
    expect(before).toEqual([]);
    // the state right after a commit, before any assigner ran: a row without a sequence
    await t.testDb.db
      .insertInto('event')
      .values({
        business_id: b.businessId,
        type: 'client.deleted',
        created: new Date().toISOString(),
        changed_fields: '[]',
        data: '{"id":1}',
        published_at: new Date().toISOString(),
        parent_type: null,
        parent_id: null,
      })
      .execute();
    const listed = (await get(b, '/v1/event')).body.results;
    expect(listed).toHaveLength(1);
    expect(listed[0].sequence).toBeGreaterThan(0);
    expect(await follow(b, 0)).toEqual(listed);
  });
});
