/**
 * The SQLite statement cache of create-db.ts: a SQL text prepared before is served from the cache, the least
 * recently used text is dropped beyond the size, results stay right when statements are reused, and close()
 * closes the database.
 */
import { describe, expect, it } from 'vitest';
import { loadSqliteDriver, STATEMENT_CACHE_SIZE, withStatementCache } from '../../src/db/create-db.ts';

function open() {
  const SqliteDatabase = loadSqliteDriver();
  const sqlite = new SqliteDatabase(':memory:');
  return { sqlite, cached: withStatementCache(sqlite) };
}

describe('SQLite statement cache', () => {
  it('returns the same prepared statement for the same SQL text, with the right results each time', () => {
    const { cached } = open();
    cached.prepare('create table t (id integer primary key, v text)').run();
    const insert = cached.prepare('insert into t (v) values (?)');
    expect(cached.prepare('insert into t (v) values (?)')).toBe(insert);
    insert.run('a');
    cached.prepare('insert into t (v) values (?)').run('b');
    const select = 'select v from t where id = ?';
    expect(cached.prepare(select).get(1)).toEqual({ v: 'a' });
    expect(cached.prepare(select).get(2)).toEqual({ v: 'b' });
    cached.close();
  });

  it(`keeps the ${STATEMENT_CACHE_SIZE} most recently used texts and drops the least recently used`, () => {
    const { cached } = open();
    const first = cached.prepare('select 0');
    const one = cached.prepare('select 1');
    const two = cached.prepare('select 2');
    for (let i = 3; i < STATEMENT_CACHE_SIZE; i++) cached.prepare(`select ${i}`);
    expect(cached.prepare('select 0')).toBe(first); // used again: now the most recent
    cached.prepare(`select ${STATEMENT_CACHE_SIZE}`); // evicts 'select 1', the least recently used
    expect(cached.prepare('select 0')).toBe(first);
    expect(cached.prepare('select 2')).toBe(two);
    const again = cached.prepare('select 1');
    expect(again).not.toBe(one);
    expect(again.pluck().get()).toBe(1);
    cached.close();
  });

  it('close() closes the database', () => {
    const { sqlite, cached } = open();
    cached.prepare('select 1');
    cached.close();
    expect(sqlite.open).toBe(false);
  });
});
