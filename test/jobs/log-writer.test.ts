/**
 * The API call log's batch writer (decisions §9: buffered writes, a response never waits): rows wait in
 * memory until a flush, a full batch flushes early, a buffer past its row or text bound drops its oldest
 * rows, a failed batch is retried once and then written row by row so one bad row cannot sink the others.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { LogWriter } from '../../src/jobs/log-writer.ts';
import type { NewApiLogRow } from '../../src/db/tables/log.table.ts';
import { createBusiness } from '../../src/modules/auth/auth.service.ts';
import { openTestDb, type TestDb } from '../setup/test-db.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(async () => {
  await t.close();
});

async function business(): Promise<number> {
  return (await createBusiness(t.db, { name: 'Log writer', plan: 'AGENCY', timezone: 'UTC' })).id;
}

function row(businessId: number, path: string): NewApiLogRow {
  return {
    business_id: businessId,
    ip_address: '127.0.0.1',
    method: 'GET',
    path,
    referrer: '',
    status_code: '200',
    request_body: null,
    response_body: '{"ok":true}',
    created: new Date().toISOString(),
  };
}

async function paths(businessId: number): Promise<string[]> {
  const rows = await t.db
    .selectFrom('api_log')
    .select('path')
    .where('business_id', '=', businessId)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.path);
}

describe('LogWriter', () => {
  it('keeps rows in memory until flushed, then writes them all', async () => {
    const id = await business();
    const writer = new LogWriter(t.db);
    writer.enqueue(row(id, '/a'));
    writer.enqueue(row(id, '/b'));
    expect(writer.size).toBe(2);
    expect(await paths(id)).toEqual([]);
    await writer.flush();
    expect(writer.size).toBe(0);
    expect(writer.written).toBe(2);
    expect(await paths(id)).toEqual(['/a', '/b']);
  });

  it('flushes on its own once a batch is full', async () => {
    const id = await business();
    const writer = new LogWriter(t.db, { batchSize: 3 });
    for (const p of ['/1', '/2', '/3']) writer.enqueue(row(id, p));
    await vi.waitFor(async () => expect(await paths(id)).toEqual(['/1', '/2', '/3']));
  });

  it('flushes every interval once started, and writes the rest on close', async () => {
    const id = await business();
    const writer = new LogWriter(t.db, { flushIntervalMs: 20 }).start();
    writer.enqueue(row(id, '/tick'));
    await vi.waitFor(async () => expect(await paths(id)).toEqual(['/tick']));
    writer.enqueue(row(id, '/last'));
    await writer.close();
    expect(await paths(id)).toEqual(['/tick', '/last']);
  });

  it('drops the oldest rows when the buffer overflows, and counts them', async () => {
    const id = await business();
    const writer = new LogWriter(t.db, { maxBuffered: 3 });
    for (const p of ['/1', '/2', '/3', '/4', '/5']) writer.enqueue(row(id, p));
    expect(writer.size).toBe(3);
    expect(writer.dropped).toBe(2);
    await writer.flush();
    expect(await paths(id)).toEqual(['/3', '/4', '/5']);
  });

  it('drops the oldest rows when the text in the buffer passes its bound, and counts them', async () => {
    const id = await business();
    const big = (p: string) => ({ ...row(id, p), response_body: JSON.stringify({ text: 'x'.repeat(1000) }) });
    // Each row is ~1,150 characters with the allowance: three fit under 3,500, a fourth does not.
    const writer = new LogWriter(t.db, { maxBufferedChars: 3500 });
    for (const p of ['/1', '/2', '/3']) writer.enqueue(big(p));
    expect(writer.dropped).toBe(0);
    writer.enqueue(big('/4'));
    writer.enqueue(row(id, '/small'));
    expect(writer.size).toBe(3);
    expect(writer.dropped).toBe(2);
    await writer.flush();
    expect(await paths(id)).toEqual(['/3', '/4', '/small']);
    // The bound counts what is in the buffer now: after the flush, three big rows fit again.
    for (const p of ['/5', '/6', '/7']) writer.enqueue(big(p));
    expect(writer.dropped).toBe(2);
  });

  it('retries a failed batch once, then writes it row by row and drops only the rows the database refuses', async () => {
    const id = await business();
    const writer = new LogWriter(t.db);
    writer.enqueue(row(id, '/good-1'));
    writer.enqueue(row(2_000_000_000, '/orphan')); // no such business: a foreign-key violation
    writer.enqueue(row(id, '/good-2'));
    await writer.flush();
    expect(writer.size).toBe(3); // put back after the first failure
    expect(await paths(id)).toEqual([]);
    await writer.flush();
    expect(writer.size).toBe(0);
    expect(writer.dropped).toBe(1);
    expect(await paths(id)).toEqual(['/good-1', '/good-2']);
  });

  it('writes a batch of several INSERT statements all or nothing: after a failure and the retry, no row is there twice', async () => {
    const id = await business();
    // batchSize above the 600 rows: no early flush (enqueue's, at 500 rows) runs beside the test's own, which
    // would retry the put-back rows one by one while the test reads what the first flush left (an empty set)
    const writer = new LogWriter(t.db, { batchSize: 1000 });
    const sent = Array.from({ length: 600 }, (_, i) => `/bulk-${i}`);
    for (const [i, path] of sent.entries()) writer.enqueue(row(i === 550 ? 2_000_000_000 : id, path)); // the second INSERT (500 rows each) fails
    await writer.flush();
    expect(await paths(id)).toEqual([]); // the first INSERT was rolled back with the second
    await writer.flush();
    expect(await paths(id)).toEqual(sent.filter((_, i) => i !== 550));
    expect(writer.written).toBe(599);
    expect(writer.dropped).toBe(1);
  });

  it('writes every column exactly as given (one JSON parameter per INSERT): text of any kind, nulls, the replay mark', async () => {
    const id = await business();
    const writer = new LogWriter(t.db);
    const odd = 'quote " backslash \\ newline \n tab \t 한글 😀 NUL-escape \\u0000 % _ \'';
    const rows: NewApiLogRow[] = [
      {
        ...row(id, `/v1/client?search=${encodeURIComponent('한빛')}&q=%27`),
        referrer: odd,
        request_body: JSON.stringify({ companyName: odd }),
        response_body: null,
        idempotent_replayed: 1,
      },
      {
        ...row(id, '/v1/client/1'),
        ip_address: '::ffff:10.0.0.1',
        method: 'PATCH',
        status_code: '400',
        request_body: JSON.stringify(odd),
        response_body: JSON.stringify({ detail: odd }),
      },
      {
        ...row(id, '/v1/log/'),
        request_body: 'x'.repeat(70_000),
        response_body: '[]',
        created: '2026-11-26T01:02:03.456Z',
      },
    ];
    for (const r of rows) writer.enqueue(r);
    await writer.flush();
    const stored = await t.db
      .selectFrom('api_log')
      .select([
        'business_id',
        'ip_address',
        'method',
        'path',
        'referrer',
        'status_code',
        'request_body',
        'response_body',
        'created',
        'idempotent_replayed',
      ])
      .where('business_id', '=', id)
      .orderBy('id')
      .execute();
    expect(stored.map((r) => ({ ...r, created: new Date(r.created).toISOString() }))).toEqual(
      rows.map((r) => ({ ...r, idempotent_replayed: r.idempotent_replayed ?? null })),
    );
  });

  it('never throws to its callers, even when the database is gone', async () => {
    const broken = {
      insertInto() {
        throw new Error('connection refused');
      },
    } as unknown as Db;
    const writer = new LogWriter(broken);
    writer.enqueue(row(1, '/x'));
    await expect(writer.flush()).resolves.toBeUndefined();
    await expect(writer.close()).resolves.toBeUndefined();
    expect(writer.dropped).toBe(1);
  });
});
