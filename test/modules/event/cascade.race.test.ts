/**
 * A cascade against a record created at the same moment (PostgreSQL, docs/api.md#cascades): a PATCH that changes
 * what others nest (a client's `companyName`, a contract's `title`, an inquiry's `name`) while a new record that
 * nests it (an inquiry, a project, a todo) is created. The new record's events must end with the new summary —
 * either its `*.created` carries it, or the cascade's `*.updated` follows — else a mirror built from the feed
 * keeps the old one. The interleaving is forced: a transaction of the test holds the event table
 * (`LOCK TABLE event IN SHARE MODE`), so the PATCH stops at its first event write with its row lock held, the
 * create is sent then, and the lock is released once the create is blocked too. Without the cause's `FOR UPDATE`
 * lock (sql-helpers `forUpdateOf`) the client and inquiry cases fail: the new record commits with the old
 * summary and the cascade, which read the nesting records before, writes nothing for it. A project already
 * locks its contract when it is created (contract.service), so that case guards the order. On SQLite writes are
 * one at a time (`BEGIN IMMEDIATE`), so the race cannot happen there.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../setup/api-client.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, type TestBusiness } from '../../setup/factories.ts';
import { DIALECT } from '../../setup/test-db.ts';
import { CITUS } from '../../setup/test-workers.ts';
import { until } from '../../setup/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const { get, post, patch } = apiClient(() => t.app);

const CONTRACT = { title: 'Website', amount: 1000, type: 'I', startDate: '2026-01-01', endDate: '2026-12-31' };
const TODO = { type: 'CA', dueDate: '2026-12-01', action: 'Call' };

/** `POST url body`, expecting 201; the answer. */
async function created(b: TestBusiness, url: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await post(b, url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/**
 * The backends waiting for a lock that `pid` holds, directly. On Citus the ids are global pids
 * (`citus_backend_gpid()`) and the waits are read from `citus_lock_waits`, which sees every node: the POST
 * waits for the PATCH's row lock on the worker that holds the business's shard, where the coordinator's
 * `pg_blocking_pids` does not see it.
 */
async function blockedBy(pid: number): Promise<number[]> {
  const { rows } = CITUS
    ? await sql<{ pid: string }>`select waiting_gpid as pid from citus_lock_waits where blocking_gpid = ${pid}`.execute(
        t.testDb.db,
      )
    : await sql<{ pid: number }>`select pid from pg_stat_activity where ${pid} = any(pg_blocking_pids(pid))`.execute(
        t.testDb.db,
      );
  return rows.map((r) => Number(r.pid));
}

/** This session's id as {@link blockedBy} names it: its pid, on Citus its global pid. */
const ownPid = CITUS
  ? sql<{ pid: string }>`select citus_backend_gpid() as pid`
  : sql<{ pid: number }>`select pg_backend_pid() as pid`;

/**
 * Runs `change` (the PATCH) and `create` (the POST) so that the POST starts while the PATCH holds its row lock,
 * before either has written an event; answers the POST's answer once both have ended.
 */
async function race(
  change: () => Promise<{ status: number; body: any }>,
  create: () => Promise<{ status: number; body: any }>,
) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let holding!: (pid: number) => void;
  const held = new Promise<number>((resolve) => (holding = resolve));
  const holder = t.testDb.db.transaction().execute(async (trx) => {
    await sql`lock table event in share mode`.execute(trx);
    holding(Number((await ownPid.execute(trx)).rows[0]!.pid));
    await gate;
  });
  let changed: Promise<{ status: number; body: any }> | undefined;
  let createdNow: Promise<{ status: number; body: any }> | undefined;
  try {
    const holderPid = await held;
    changed = change();
    let changerPid = 0;
    await until(
      async () => {
        changerPid = (await blockedBy(holderPid))[0] ?? 0;
        return changerPid !== 0;
      },
      10_000,
      'the PATCH to wait at its event write',
    );
    createdNow = create();
    // the POST waits either for the PATCH's row lock (its reference) or, like the PATCH, at its event write
    await until(
      async () => (await blockedBy(changerPid)).length > 0 || (await blockedBy(holderPid)).length > 1,
      10_000,
      'the POST to wait',
    );
  } finally {
    release();
    await holder;
  }
  const [c, n] = await Promise.all([changed!, createdNow!]);
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  expect(n.status, JSON.stringify(n.body)).toBe(201);
  return n.body as Record<string, any>;
}

/** The events of `resource` `id`, in feed order (`after_sequence`). */
async function eventsOf(b: TestBusiness, resource: string, id: number): Promise<any[]> {
  const res = await get(b, '/v1/event?after_sequence=0&page_size=100');
  expect(res.status).toBe(200);
  return (res.body.results as any[]).filter((e) => e.type.startsWith(`${resource}.`) && e.data.id === id);
}

describe.skipIf(DIALECT !== 'postgres')(
  'a cascade and a record created meanwhile that nests its cause (PostgreSQL)',
  () => {
    it("a client renamed while an inquiry is created for it: the inquiry's last event carries the new name", async () => {
      const b = await newBusiness(t);
      const client = await created(b, '/v1/client', { companyName: 'Old name' });
      const inquiry = await race(
        () => patch(b, `/v1/client/${client.id}`, { companyName: 'New name' }),
        () => post(b, '/v1/inquiry', { name: 'Lead', client: { id: client.id } }),
      );
      const now = (await get(b, `/v1/inquiry/${inquiry.id}`)).body;
      expect(now.client.companyName).toBe('New name');
      const events = await eventsOf(b, 'inquiry', inquiry.id);
      expect(events.at(-1)?.data.client.companyName, JSON.stringify(events.map((e) => [e.type, e.data.client]))).toBe(
        'New name',
      );
    });

    it("a contract retitled while a project is created for it: the project's last event carries the new title", async () => {
      const b = await newBusiness(t);
      const contract = await created(b, '/v1/contract', CONTRACT);
      const project = await race(
        () => patch(b, `/v1/contract/${contract.id}`, { title: 'New title' }),
        () => post(b, '/v1/project', { title: 'P', contract: { id: contract.id } }),
      );
      expect((await get(b, `/v1/project/${project.id}`)).body.contract.title).toBe('New title');
      const events = await eventsOf(b, 'project', project.id);
      expect(events.at(-1)?.data.contract.title, JSON.stringify(events.map((e) => [e.type, e.data.contract]))).toBe(
        'New title',
      );
    });

    it("an inquiry renamed while a todo is created for it: the todo's last event carries the new name", async () => {
      const b = await newBusiness(t);
      const inquiry = await created(b, '/v1/inquiry', { name: 'Old name' });
      const todo = await race(
        () => patch(b, `/v1/inquiry/${inquiry.id}`, { name: 'New name' }),
        () => post(b, '/v1/todo', { ...TODO, inquiry: { id: inquiry.id } }),
      );
      expect((await get(b, `/v1/todo/${todo.id}`)).body.inquiry.name).toBe('New name');
      const events = await eventsOf(b, 'todo', todo.id);
      expect(events.at(-1)?.data.inquiry.name, JSON.stringify(events.map((e) => [e.type, e.data.inquiry]))).toBe(
        'New name',
      );
    });
  },
);
