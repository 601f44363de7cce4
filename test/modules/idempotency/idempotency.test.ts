/**
 * `Idempotency-Key` through HTTP (decisions §14; docs/api.md#idempotent-retries): replay byte for byte with
 * `Idempotent-Replayed: true`, 422 for a reused key, 409 while the first runs, the header's 400, no storing
 * of 5xx / 429, 50 concurrent requests → one record, the tenant rule, the lock timeout of a crashed claim,
 * the 24-hour expiry and its purge, and the call log's replay mark.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRetention } from '../../../src/jobs/retention.ts';
import { fingerprint, IDEMPOTENCY_TTL_MS } from '../../../src/modules/idempotency/idempotency.service.ts';
import { buildSiblingApp, buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { type SignedRequest } from '../../setup/signed-request.ts';
import { DIALECT } from '../../setup/test-db.ts';
import { apiClient } from '../../setup/api-client.ts';

let t: TestApp;
const { call, raw } = apiClient(() => t.app);
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

let seq = 0;
/** A key no other test uses. */
function newKeyName(): string {
  return `key-${process.pid}-${Date.now()}-${++seq}`;
}

function createClient(name: string, key?: string): SignedRequest {
  return {
    method: 'POST',
    url: '/v1/client',
    body: { companyName: name },
    headers: key === undefined ? {} : { 'idempotency-key': key },
  };
}

async function countClients(b: TestBusiness, name: string): Promise<number> {
  const row = await t.testDb.db
    .selectFrom('client')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('business_id', '=', b.businessId)
    .where('company_name', '=', name)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('replay', () => {
  it('answers a retried POST with the stored answer, byte for byte, and creates one record', async () => {
    const b = await newBusiness(t);
    const key = newKeyName();
    const first = await raw(b, createClient('Acme Retry', key));
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await raw(b, createClient('Acme Retry', key));
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await countClients(b, 'Acme Retry')).toBe(1);
  });

  it('replays a PATCH even after the record changed, and a DELETE (204, no body)', async () => {
    const b = await newBusiness(t);
    const created = await call(b, createClient('Before'));
    const url = `/v1/client/${created.body.id}`;
    const key = newKeyName();
    const patch: SignedRequest = {
      method: 'PATCH',
      url,
      body: { companyName: 'After' },
      headers: { 'idempotency-key': key },
    };
    const first = await raw(b, patch);
    expect(first.statusCode).toBe(200);
    await raw(b, { method: 'PATCH', url, body: { companyName: 'Changed since' } });
    const again = await raw(b, patch);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect((await call(b, { method: 'GET', url })).body.companyName).toBe('Changed since');

    const delKey = newKeyName();
    const del: SignedRequest = { method: 'DELETE', url, headers: { 'idempotency-key': delKey } };
    expect((await raw(b, del)).statusCode).toBe(204);
    const delAgain = await raw(b, del);
    expect(delAgain.statusCode).toBe(204);
    expect(delAgain.body).toBe('');
    expect(delAgain.headers['idempotent-replayed']).toBe('true');
    // Without the key the record is gone.
    expect((await raw(b, { method: 'DELETE', url })).statusCode).toBe(404);
  });

  it('stores 4xx answers too (a validation error is replayed, not re-run)', async () => {
    const b = await newBusiness(t);
    const key = newKeyName();
    const bad: SignedRequest = {
      method: 'POST',
      url: '/v1/client',
      body: { companyName: '' },
      headers: { 'idempotency-key': key },
    };
    const first = await raw(b, bad);
    expect(first.statusCode).toBe(400);
    const again = await raw(b, bad);
    expect(again.statusCode).toBe(400);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(JSON.parse(again.body)).toEqual(JSON.parse(first.body));
  });

  it('ignores the header on GET', async () => {
    const b = await newBusiness(t);
    const res = await raw(b, { method: 'GET', url: '/v1/client', headers: { 'idempotency-key': 'x' } });
    expect(res.statusCode).toBe(200);
    const res2 = await raw(b, { method: 'GET', url: '/v1/client', headers: { 'idempotency-key': 'x' } });
    expect(res2.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('reuse and conflicts', () => {
  it('answers 422 idempotency_key_reused for the same key with another body, path or method', async () => {
    const b = await newBusiness(t);
    const key = newKeyName();
    expect((await raw(b, createClient('One', key))).statusCode).toBe(201);
    const otherBody = await call(b, createClient('Two', key));
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toMatchObject({ code: 'idempotency_key_reused', detail: expect.any(String) });
    const otherPath = await call(b, { ...createClient('One', key), url: '/v1/client/?x=1' });
    expect(otherPath.status).toBe(422);
    const otherMethod = await call(b, { method: 'DELETE', url: '/v1/client/1', headers: { 'idempotency-key': key } });
    expect(otherMethod.status).toBe(422);
    expect(await countClients(b, 'Two')).toBe(0);
  });

  it('answers 409 idempotency_key_in_progress with Retry-After: 1 while the first request runs', async () => {
    const b = await newBusiness(t);
    const key = newKeyName();
    const body = JSON.stringify({ companyName: 'Running' });
    // The claim of a request that is still running (its lock has not expired).
    await t.testDb.db
      .insertInto('idempotency_key')
      .values({
        business_id: b.businessId,
        key,
        fingerprint: fingerprint('POST', '/v1/client', Buffer.from(body)),
        claim_token: 'running',
        locked_until: Date.now() + 60_000,
        expires_at: Date.now() + IDEMPOTENCY_TTL_MS,
      })
      .execute();
    const res = await call(b, createClient('Running', key));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'idempotency_key_in_progress' });
    expect(res.headers['retry-after']).toBe('1');
    expect(await countClients(b, 'Running')).toBe(0);
  });

  it('lets a key be claimed again once the claim of a crashed request is past its lock timeout', async () => {
    const b = await newBusiness(t);
    const key = newKeyName();
    const body = JSON.stringify({ companyName: 'Crashed' });
    await t.testDb.db
      .insertInto('idempotency_key')
      .values({
        business_id: b.businessId,
        key,
        fingerprint: fingerprint('POST', '/v1/client', Buffer.from(body)),
        claim_token: 'crashed',
        locked_until: Date.now() - 1,
        expires_at: Date.now() + IDEMPOTENCY_TTL_MS,
      })
      .execute();
    const res = await raw(b, createClient('Crashed', key));
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect((await raw(b, createClient('Crashed', key))).headers['idempotent-replayed']).toBe('true');
    expect(await countClients(b, 'Crashed')).toBe(1);
  });

  it('50 concurrent requests with one key create exactly one record; the others get the answer or 409', async () => {
    const b = await newBusiness(t);
    const key = newKeyName();
    const results = await Promise.all(Array.from({ length: 50 }, () => raw(b, createClient('Concurrent', key))));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const originals = results.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
    expect(originals).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode === 201)) expect(r.body).toBe(originals[0]!.body);
    expect(await countClients(b, 'Concurrent')).toBe(1);
    const rows = await t.testDb.db
      .selectFrom('idempotency_key')
      .select('id')
      .where('business_id', '=', b.businessId)
      .where('key', '=', key)
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe('the header', () => {
  it.each([
    ['a 256-character key', 'k'.repeat(256), 'Ensure this field has no more than 255 characters.'],
    ['a non-ASCII key', 'clé', 'Must be printable ASCII characters only.'],
  ])('answers 400 for %s, in the validation shape, and creates nothing', async (_name, key, message) => {
    const b = await newBusiness(t);
    const res = await call(b, createClient('Bad key', key));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ 'Idempotency-Key': [message] });
    expect(await countClients(b, 'Bad key')).toBe(0);
  });

  it('accepts 255 printable characters, spaces and symbols included', async () => {
    const b = await newBusiness(t);
    const key = `${newKeyName()} ~!@#$%^&*()`.padEnd(255, 'x');
    expect((await raw(b, createClient('Long key', key))).statusCode).toBe(201);
    expect((await raw(b, createClient('Long key', key))).headers['idempotent-replayed']).toBe('true');
  });
});

describe('tenants', () => {
  it('a key of one business never replays another business’s answer', async () => {
    const a = await newBusiness(t);
    const b = await newBusiness(t);
    const key = newKeyName();
    const first = await call(a, createClient('Shared key', key));
    const other = await call(b, createClient('Shared key', key));
    expect(other.status).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.body.id).not.toBe(first.body.id);
    expect(await countClients(a, 'Shared key')).toBe(1);
    expect(await countClients(b, 'Shared key')).toBe(1);
    // And a different body under the same key in the other business is not "reused" either.
    const b2 = await newBusiness(t);
    expect((await raw(b2, createClient('Something else', key))).statusCode).toBe(201);
  });
});

describe('answers that are not stored', () => {
  it('releases the key after a 5xx, so a retry runs', async () => {
    const b = await newBusiness(t);
    const key = newKeyName();
    const name = `boom-${key}`;
    // A real failure inside the handler: the INSERT of this one client name raises in the database. On
    // PostgreSQL a CHECK constraint refuses it (SQLSTATE 23514, which the API does not map): Citus propagates
    // it to every shard, where it refuses a trigger on a distributed table (without `citus.enable_unsafe_triggers`).
    if (DIALECT === 'postgres') {
      await sql
        .raw(`alter table client add constraint idem_boom check (company_name <> '${name}')`)
        .execute(t.testDb.db);
    } else {
      await sql
        .raw(
          `create trigger idem_boom before insert on client when new.company_name = '${name}' begin select raise(abort, 'boom'); end`,
        )
        .execute(t.testDb.db);
    }
    try {
      // A 500 is what this test provokes: the response conformance check (which forbids 500) is off for it.
      process.env.BIZAPI_CONFORMANCE = 'off';
      expect((await raw(b, createClient(name, key))).statusCode).toBe(500);
    } finally {
      delete process.env.BIZAPI_CONFORMANCE;
      await sql
        .raw(DIALECT === 'postgres' ? 'alter table client drop constraint idem_boom' : 'drop trigger idem_boom')
        .execute(t.testDb.db);
    }
    const rows = await t.testDb.db
      .selectFrom('idempotency_key')
      .select('id')
      .where('business_id', '=', b.businessId)
      .execute();
    expect(rows).toHaveLength(0);
    const retry = await raw(b, createClient(name, key));
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  }, 15_000);

  it('a 429 does not consume the key', async () => {
    const limited = await buildSiblingApp(t, { BIZAPI_RATE_LIMIT: '1' });
    try {
      const b = await newBusiness(t);
      const key = newKeyName();
      expect((await apiClient(limited).raw(b, { method: 'GET', url: '/v1/folder' })).statusCode).toBe(200);
      expect((await apiClient(limited).raw(b, createClient('Throttled', key))).statusCode).toBe(429);
      const res = await raw(b, createClient('Throttled', key));
      expect(res.statusCode).toBe(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    } finally {
      await limited.close();
    }
  });
});

describe('expiry, purge and the call log', () => {
  it('an answer older than 24 hours is void: the key runs again, and the purge deletes expired rows', async () => {
    const b = await newBusiness(t);
    const key = newKeyName();
    expect((await raw(b, createClient('Yesterday', key))).statusCode).toBe(201);
    await t.testDb.db
      .updateTable('idempotency_key')
      .set({ expires_at: Date.now() - 1 })
      .where('business_id', '=', b.businessId)
      .execute();
    const res = await raw(b, createClient('Today', key));
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();

    const old = newKeyName();
    expect((await raw(b, createClient('Old', old))).statusCode).toBe(201);
    await t.testDb.db
      .updateTable('idempotency_key')
      .set({ expires_at: Date.now() - 1 })
      .where('key', '=', old)
      .execute();
    const purged = await runRetention(t.testDb.db);
    expect(purged.idempotencyKeys).toBeGreaterThanOrEqual(1);
    const left = await t.testDb.db
      .selectFrom('idempotency_key')
      .select('key')
      .where('business_id', '=', b.businessId)
      .execute();
    expect(left.map((r) => r.key)).toEqual([key]);
  });

  it('a claim lives 24 hours', async () => {
    const b = await newBusiness(t);
    const key = newKeyName();
    const before = Date.now();
    await raw(b, createClient('TTL', key));
    const row = await t.testDb.db
      .selectFrom('idempotency_key')
      .select('expires_at')
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(Number(row.expires_at) - before).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(Number(row.expires_at) - before).toBeLessThan(24 * 3600_000 + 60_000);
  });

  it('the call log marks the replayed call', async () => {
    const b = await newBusiness(t);
    const key = newKeyName();
    await raw(b, createClient('Logged', key));
    await raw(b, createClient('Logged', key));
    await t.app.logWriter.flush();
    const log = await call(b, { method: 'GET', url: '/v1/log/' });
    const posts = log.body.results.filter((r: { method: string }) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[0]).toMatchObject({ statusCode: '201', idempotentReplayed: true });
    expect(posts[1].idempotentReplayed).toBeUndefined();
    expect(posts[0].responseBody).toEqual(posts[1].responseBody);
  });
});
