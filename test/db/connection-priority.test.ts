/**
 * The SQLite connection's order (src/db/connection-priority.ts, docs/webhooks.md#fairness-and-limits): while
 * a transaction holds a process's one connection, the queries waiting for it get it in the order they asked,
 * except that those run inside `withConnectionPriority` (the in-process dispatcher's claim) go first. On
 * PostgreSQL (a pool) it changes nothing: the same queries all answer.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withConnectionPriority } from '../../src/db/connection-priority.ts';
import { DIALECT, openTestDb, type TestDb } from '../setup/test-db.ts';

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(async () => {
  await t.close();
});

/**
 * Holds one connection in a transaction (on PostgreSQL one of the pool's) until `release()`; resolves once the
 * transaction has begun. `done` settles when it has ended; `onEnd` runs inside it, just before.
 */
async function holdConnection(
  onEnd: () => void = () => undefined,
): Promise<{ release: () => void; done: Promise<void> }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let begun!: () => void;
  const started = new Promise<void>((resolve) => (begun = resolve));
  const done = t.db.transaction().execute(async (trx) => {
    await sql`select 1`.execute(trx);
    begun();
    await held;
    onEnd();
  });
  await started;
  return { release, done };
}

describe(`connection priority on ${DIALECT}`, () => {
  it('a query run with priority gets the connection before the queries that asked for it earlier', async () => {
    const order: string[] = [];
    // a write transaction holds the connection (on PostgreSQL one of the pool's)
    const { release, done: writer } = await holdConnection(() => order.push('transaction'));
    const query = (name: string) => sql`select 1 as one`.execute(t.db).then(() => order.push(name));
    const first = query('first');
    const second = query('second');
    const claim = withConnectionPriority(() => query('priority'));
    const third = query('third');
    // every query has asked for the connection by now
    await new Promise((r) => setTimeout(r, 50));
    release();
    await Promise.all([writer, first, second, claim, third]);
    if (DIALECT === 'sqlite') expect(order).toEqual(['transaction', 'priority', 'first', 'second', 'third']);
    else expect([...order].sort()).toEqual(['first', 'priority', 'second', 'third', 'transaction']);
  });

  it('priorities keep their own order, and a failed query hands the connection on', async () => {
    const order: string[] = [];
    const { release, done: writer } = await holdConnection();
    const query = (name: string) => sql`select 1 as one`.execute(t.db).then(() => order.push(name));
    const normal = query('normal');
    const failing = withConnectionPriority(() => sql`select * from no_such_table`.execute(t.db)).catch(() =>
      order.push('failed'),
    );
    const p1 = withConnectionPriority(() => query('p1'));
    const p2 = withConnectionPriority(() => query('p2'));
    await new Promise((r) => setTimeout(r, 50));
    release();
    await Promise.all([writer, normal, failing, p1, p2]);
    if (DIALECT === 'sqlite') expect(order).toEqual(['failed', 'p1', 'p2', 'normal']);
    else expect([...order].sort()).toEqual(['failed', 'normal', 'p1', 'p2']);
  });
});
