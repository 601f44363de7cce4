/**
 * Change events and `updated` on inquiries and their text notes (docs/api.md#events): one event per
 * create, change and delete in the transaction of the change, `changedFields` exact (a set counts as one
 * property, `fileSet` compared without its download URLs), `data` equal to what `GET` answers, none for a
 * no-op PATCH or a refused one; the `updated_start` / `updated_end` list filters; and the 404-before-400
 * order of `PATCH /v1/inquiry/{inquiry_id}` with an invalid body.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import type { TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';
import { eventHelpers } from '../../setup/event-helpers.ts';
import { upload } from '../file/file-helpers.ts';
import { newInquiryBusiness } from './inquiry-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const { get, post, patch, delete: del } = apiClient(() => t.app);

const { events } = eventHelpers({ get });

/** The types of the business's events, oldest first. */
async function types(b: TestBusiness): Promise<string[]> {
  return (await events(b)).map((e) => e.type);
}

/** Creates an inquiry through the API (asserting 201); returns its id. */
async function newInquiry(b: TestBusiness, body: Record<string, unknown> = {}): Promise<number> {
  const res = await post(b, '/v1/inquiry', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

/** `GET /v1/inquiry/{id}` (asserting 200). */
async function full(b: TestBusiness, id: number): Promise<any> {
  const res = await get(b, `/v1/inquiry/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** PATCHes the inquiry (asserting 200); returns the last event (which must be `inquiry.updated`) and the answer. */
async function patched(b: TestBusiness, id: number, body: Record<string, unknown>): Promise<{ event: any; body: any }> {
  const res = await patch(b, `/v1/inquiry/${id}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const event = (await events(b)).at(-1);
  expect(event.type).toBe('inquiry.updated');
  expect(event.data).toEqual(res.body);
  expect(event.created).toBe(res.body.updated);
  return { event, body: res.body };
}

/** Without the signed download URLs, which are signed anew as time passes. */
const withoutUrls = (shape: any) => ({ ...shape, fileSet: shape.fileSet.map(({ file: _url, ...rest }: any) => rest) });

describe('inquiry events', () => {
  it('writes inquiry.created with the full shape GET answers, at the inquiry’s updated', async () => {
    const b = await newInquiryBusiness(t);
    const id = await newInquiry(b, {
      name: 'Web',
      inChargeSet: [{ id: b.ids.members.kim }],
      workSet: [{ name: 'Call' }],
      fieldSet: [{ field: { id: b.ids.fields.budget }, value: '5' }],
      fileLinkSet: [{ text: 'Brief', link: 'https://docs.example.com/brief' }],
    });
    const [event, ...rest] = await events(b);
    expect(rest).toEqual([]);
    const shape = await full(b, id);
    expect(event).toMatchObject({ type: 'inquiry.created', changedFields: [], data: shape });
    expect(shape.updated).toBe(shape.created);
    expect(event.created).toBe(shape.updated);
  });

  it('writes inquiry.created with the attached fileSet', async () => {
    const b = await newInquiryBusiness(t);
    const path = await upload(t.app, b, 'brief.pdf');
    const id = await newInquiry(b, { fileSet: [{ name: 'brief.pdf', file: path }] });
    const [event] = await events(b);
    expect(event.data.fileSet).toHaveLength(1);
    expect(withoutUrls(event.data)).toEqual(withoutUrls(await full(b, id)));
  });

  it('a status change names status alone and stamps updated', async () => {
    const b = await newInquiryBusiness(t);
    const id = await newInquiry(b);
    const before = await full(b, id);
    await sleep(5);
    const { event, body } = await patched(b, id, { status: { id: b.ids.statuses.won } });
    expect(event.changedFields).toEqual(['status']);
    expect(body.updated > before.updated).toBe(true);
    expect(await full(b, id)).toEqual(body);
    // a move to another folder changes the same property
    expect((await patched(b, id, { status: { id: b.ids.statuses.lost } })).event.changedFields).toEqual(['status']);
  });

  it('sets count as one property each, in the order of the full shape', async () => {
    const b = await newInquiryBusiness(t);
    const id = await newInquiry(b, { inChargeSet: [{ id: b.ids.members.kim }] });
    expect(
      (await patched(b, id, { inChargeSet: [{ id: b.ids.members.kim }, { id: b.ids.members.lee }] })).event
        .changedFields,
    ).toEqual(['inChargeSet']);
    expect(
      (await patched(b, id, { fieldSet: [{ field: { id: b.ids.fields.iNote }, value: 'hello' }] })).event.changedFields,
    ).toEqual(['fieldSet']);
    const several = await patched(b, id, {
      isHidden: true,
      name: 'Renamed',
      workSet: [{ name: 'A' }, { name: 'B' }],
      fileLinkSet: [{ text: 'x', link: 'https://x.example' }],
      funnel: { utmSource: 'google' },
      estimate: '10',
    });
    expect(several.event.changedFields).toEqual(['name', 'estimate', 'funnel', 'workSet', 'fileLinkSet', 'isHidden']);
    const client = await post(b, '/v1/client', { companyName: 'Acme' });
    expect((await patched(b, id, { client: { id: client.body.id }, content: 'memo' })).event.changedFields).toEqual([
      'client',
      'content',
    ]);
  });

  it('a PATCH that changes nothing writes no event and keeps updated', async () => {
    const b = await newInquiryBusiness(t);
    const body = {
      name: 'Same',
      estimate: '12.5',
      inquiryDate: '2026-03-01',
      inChargeSet: [{ id: b.ids.members.kim }, { id: b.ids.members.lee }],
      workSet: [{ name: 'A' }, { name: 'B' }],
      fileLinkSet: [{ text: 'Brief', link: 'https://docs.example.com/brief' }],
      fieldSet: [{ field: { id: b.ids.fields.iNote }, value: 'x' }],
      funnel: { utmSource: 'google' },
      isHidden: true,
    };
    const id = await newInquiry(b, body);
    const before = await full(b, id);
    await sleep(5);
    for (const same of [
      {},
      body,
      { estimate: '12.50', status: { id: before.status.id } },
      { workSet: null, inChargeSet: null },
    ]) {
      const res = await patch(b, `/v1/inquiry/${id}`, same);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual(before);
    }
    expect(await types(b)).toEqual(['inquiry.created']);
  });

  it('a PATCH that writes a column but changes no property (client null, its client deleted) writes no event and keeps updated', async () => {
    const b = await newInquiryBusiness(t);
    const client = await post(b, '/v1/client', { companyName: 'Gone' });
    const id = await newInquiry(b, { client: { id: client.body.id } });
    expect((await del(b, `/v1/client/${client.body.id}`)).status).toBe(204);
    const before = await full(b, id);
    expect(before.client).toBeNull();
    await sleep(5);
    // The stored client_id changes (the write happens, and stamps `updated`), the shape does not: `updated` is put back.
    const res = await patch(b, `/v1/inquiry/${id}`, { client: null });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual(before);
    expect(await full(b, id)).toEqual(before);
    // The client's delete wrote the inquiry's cascade event (docs/api.md#cascades); the PATCH none.
    expect(await types(b)).toEqual(['client.created', 'inquiry.created', 'client.deleted', 'inquiry.updated']);
  });

  it('attaching files through PATCH and deleting one writes inquiry.updated with fileSet', async () => {
    const b = await newInquiryBusiness(t);
    const id = await newInquiry(b);
    const first = await upload(t.app, b, 'a.pdf');
    const second = await upload(t.app, b, 'b.png');
    const attach = await patched(b, id, {
      fileSet: [
        { name: 'a.pdf', file: first },
        { name: 'b.png', file: second },
      ],
    });
    expect(attach.event.changedFields).toEqual(['fileSet']);
    expect(attach.body.fileSet.map((f: any) => f.name)).toEqual(['a.pdf', 'b.png']);
    await sleep(5);
    const removed = attach.body.fileSet[0].id;
    expect((await del(b, `/v1/inquiry/${id}/file/${removed}`)).status).toBe(204);
    const all = await events(b);
    expect(all.map((e) => e.type)).toEqual(['inquiry.created', 'inquiry.updated', 'inquiry.updated']);
    const last = all.at(-1);
    expect(last.changedFields).toEqual(['fileSet']);
    const now = await full(b, id);
    expect(now.updated > attach.body.updated).toBe(true);
    expect(last.created).toBe(now.updated);
    expect(withoutUrls(last.data)).toEqual(withoutUrls(now));
    expect(now.fileSet.map((f: any) => f.name)).toEqual(['b.png']);
    // a file that is not the inquiry's: 404 and no event
    expect((await del(b, `/v1/inquiry/${id}/file/${removed}`)).status).toBe(404);
    expect(await types(b)).toHaveLength(3);
  });

  it('writes inquiry.deleted with data {id}', async () => {
    const b = await newInquiryBusiness(t);
    const id = await newInquiry(b);
    expect((await del(b, `/v1/inquiry/${id}`)).status).toBe(204);
    const all = await events(b);
    expect(all.map((e) => e.type)).toEqual(['inquiry.created', 'inquiry.deleted']);
    expect(all[1].changedFields).toEqual([]);
    expect(all[1].data).toEqual({ id });
    expect((await del(b, `/v1/inquiry/${id}`)).status).toBe(404);
    expect(await types(b)).toHaveLength(2);
  });

  it('a refused write writes no event', async () => {
    const b = await newInquiryBusiness(t);
    const id = await newInquiry(b);
    expect((await post(b, '/v1/inquiry', { status: { id: 999999 } })).status).toBe(400);
    expect((await post(b, '/v1/inquiry', { name: '' })).status).toBe(400);
    expect((await patch(b, `/v1/inquiry/${id}`, { status: { id: 999999 } })).status).toBe(400);
    expect((await patch(b, `/v1/inquiry/${id}`, { name: 'ok', inChargeSet: [{ id: 999999 }] })).status).toBe(400);
    expect((await patch(b, `/v1/inquiry/${id}`, { name: '' })).status).toBe(400);
    expect((await patch(b, `/v1/inquiry/${id}`, { fileSet: [{ name: 'x.pdf', file: 'not/a/path.pdf' }] })).status).toBe(
      400,
    );
    expect((await patch(b, '/v1/inquiry/999999', { name: 'x' })).status).toBe(404);
    expect((await del(b, '/v1/inquiry/999999')).status).toBe(404);
    expect((await del(b, `/v1/inquiry/${id}/file/999999`)).status).toBe(404);
    expect(await types(b)).toEqual(['inquiry.created']);
    expect((await full(b, id)).updated).toBe((await full(b, id)).created);
  });
});

describe('PATCH /v1/inquiry/{inquiry_id}: 404 before 400', () => {
  it('a missing inquiry with an invalid body is 404', async () => {
    const b = await newInquiryBusiness(t);
    const res = await patch(b, '/v1/inquiry/999999', { name: '', estimate: 'abc' });
    expect(res.status).toBe(404);
    // the same body as every 404
    const plain = await get(b, '/v1/inquiry/999999');
    expect(res.body).toEqual({ ...plain.body, requestId: res.headers['x-request-id'] });
    expect(res.body.detail).toBe('Not found.');
    // another business's inquiry reads as missing
    const other = await newInquiryBusiness(t);
    const theirs = await newInquiry(other);
    expect((await patch(b, `/v1/inquiry/${theirs}`, { name: '' })).status).toBe(404);
  });

  it('an existing inquiry with an invalid body is 400 with the body’s errors, and nothing changes', async () => {
    const b = await newInquiryBusiness(t);
    const id = await newInquiry(b, { name: 'Kept' });
    const res = await patch(b, `/v1/inquiry/${id}`, { name: '' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: ['This field may not be blank.'], requestId: res.headers['x-request-id'] });
    expect((await full(b, id)).name).toBe('Kept');
    expect(await types(b)).toEqual(['inquiry.created']);
  });

  it('a soft-deleted inquiry is 404 with an invalid body and with a valid one', async () => {
    const b = await newInquiryBusiness(t);
    const id = await newInquiry(b);
    expect((await del(b, `/v1/inquiry/${id}`)).status).toBe(204);
    const invalid = await patch(b, `/v1/inquiry/${id}`, { name: '' });
    expect(invalid.status).toBe(404);
    expect(invalid.body.detail).toBe('Not found.');
    const valid = await patch(b, `/v1/inquiry/${id}`, { name: 'x' });
    expect(valid.status).toBe(404);
    expect(valid.body.detail).toBe('Not found.');
    expect(await types(b)).toEqual(['inquiry.created', 'inquiry.deleted']);
  });

  it('an id that is not a number is 404 whatever the body', async () => {
    const b = await newInquiryBusiness(t);
    expect((await patch(b, '/v1/inquiry/abc', { name: '' })).status).toBe(404);
    expect((await patch(b, '/v1/inquiry/abc', { name: 'x' })).status).toBe(404);
  });
});

describe('inquiry.text_history events', () => {
  it('create, change and delete of a note', async () => {
    const b = await newInquiryBusiness(t);
    const id = await newInquiry(b);
    const base = `/v1/inquiry/${id}/text_history`;
    const created = await post(b, base, {
      content: 'First',
      created: '2026-01-05T09:00:00+09:00',
      member: { id: b.ids.members.kim },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // the create answer has no updated (docs/api.md#updated); the full shape has
    expect(created.body).not.toHaveProperty('updated');
    const note = (await get(b, `${base}/${created.body.id}`)).body;
    let all = await events(b);
    expect(all.map((e) => e.type)).toEqual(['inquiry.created', 'inquiry.text_history.created']);
    expect(all[1]).toMatchObject({ changedFields: [], data: note });
    // a note dated in the past: updated (and the event) is the time of the write
    expect(note.created).toBe('2026-01-05T00:00:00.000Z');
    expect(note.updated > note.created).toBe(true);
    expect(all[1].created).toBe(note.updated);

    await sleep(5);
    const changed = await patch(b, `${base}/${note.id}`, { content: 'Second', created: '2026-01-05T00:00:00Z' });
    expect(changed.status).toBe(200);
    expect(changed.body.updated > note.updated).toBe(true);
    all = await events(b);
    expect(all.at(-1)).toMatchObject({
      type: 'inquiry.text_history.updated',
      changedFields: ['content'],
      data: changed.body,
    });
    const moved = await patch(b, `${base}/${note.id}`, { created: '2026-02-01T00:00:00Z' });
    expect((await events(b)).at(-1)).toMatchObject({
      type: 'inquiry.text_history.updated',
      changedFields: ['created'],
      data: moved.body,
    });

    // no-op PATCHes and refused writes: nothing
    for (const same of [{}, { content: 'Second' }, { member: { id: b.ids.members.lee } }]) {
      const res = await patch(b, `${base}/${note.id}`, same);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(moved.body);
    }
    expect((await patch(b, `${base}/${note.id}`, { content: '' })).status).toBe(400);
    expect((await post(b, base, { content: 'x', member: { id: 999999 } })).status).toBe(400);
    expect((await post(b, '/v1/inquiry/999999/text_history', { content: 'x' })).status).toBe(404);
    expect((await patch(b, `/v1/inquiry/${id}/text_history/999999`, { content: 'x' })).status).toBe(404);
    expect(await types(b)).toHaveLength(4);

    expect((await del(b, `${base}/${note.id}`)).status).toBe(204);
    expect((await del(b, `${base}/${note.id}`)).status).toBe(404);
    all = await events(b);
    expect(all.map((e) => e.type)).toEqual([
      'inquiry.created',
      'inquiry.text_history.created',
      'inquiry.text_history.updated',
      'inquiry.text_history.updated',
      'inquiry.text_history.deleted',
    ]);
    expect(all.at(-1)).toMatchObject({ changedFields: [], data: { id: note.id } });
    // every note event names the inquiry; the inquiry's own event names none
    expect(all.map((e) => e.parent)).toEqual([null, ...Array(4).fill({ type: 'inquiry', id })]);
    // a note changes no property of the inquiry
    expect((await full(b, id)).updated).toBe((await full(b, id)).created);
  });

  it('the deprecated /history alias writes the same events', async () => {
    const b = await newInquiryBusiness(t);
    const id = await newInquiry(b);
    const res = await post(b, `/v1/inquiry/${id}/history`, { content: 'Old client' });
    expect(res.status).toBe(201);
    expect((await patch(b, `/v1/inquiry/${id}/history/${res.body.id}`, { content: 'Changed' })).status).toBe(200);
    expect((await del(b, `/v1/inquiry/${id}/history/${res.body.id}`)).status).toBe(204);
    expect(await types(b)).toEqual([
      'inquiry.created',
      'inquiry.text_history.created',
      'inquiry.text_history.updated',
      'inquiry.text_history.deleted',
    ]);
  });
});

describe('updated_start / updated_end', () => {
  it('select inquiries by their last change: a date-time is an instant, inclusive', async () => {
    const b = await newInquiryBusiness(t);
    const a = await newInquiry(b, { name: 'A' });
    const c = await newInquiry(b, { name: 'C' });
    await sleep(5);
    const mark = new Date().toISOString();
    await sleep(5);
    const changed = await patch(b, `/v1/inquiry/${a}`, { name: 'A2' });
    const ids = async (q: string) => {
      const res = await get(b, `/v1/inquiry?${q}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.results as { id: number }[]).map((r) => r.id);
    };
    expect(await ids(`updated_start=${encodeURIComponent(mark)}`)).toEqual([a]);
    expect(await ids(`updated_end=${encodeURIComponent(mark)}`)).toEqual([c]);
    const at = encodeURIComponent(changed.body.updated);
    expect(await ids(`updated_start=${at}&updated_end=${at}`)).toEqual([a]);
    // combined with another filter
    expect(await ids(`updated_start=${encodeURIComponent(mark)}&search=C`)).toEqual([]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: b.timezone }).format(new Date());
    expect((await ids(`updated_start=${today}&updated_end=${today}`)).sort()).toEqual([a, c].sort());
    const bad = await get(b, '/v1/inquiry?updated_start=2026-13-01');
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty('updated_start');
  });

  it('select the text notes of an inquiry by their last change', async () => {
    const b = await newInquiryBusiness(t);
    const id = await newInquiry(b);
    const base = `/v1/inquiry/${id}/text_history`;
    const first = (await post(b, base, { content: 'one' })).body;
    const second = (await post(b, base, { content: 'two' })).body;
    await sleep(5);
    const mark = new Date().toISOString();
    await sleep(5);
    expect((await patch(b, `${base}/${first.id}`, { content: 'one!' })).status).toBe(200);
    const ids = async (q: string) => {
      const res = await get(b, `${base}?${q}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.results as { id: number }[]).map((r) => r.id);
    };
    expect(await ids(`updated_start=${encodeURIComponent(mark)}`)).toEqual([first.id]);
    expect(await ids(`updated_end=${encodeURIComponent(mark)}`)).toEqual([second.id]);
    expect((await get(b, `${base}?updated_end=nope`)).status).toBe(400);
  });
});
