/**
 * The second yardstick of issue 38 ("the bare server"; run by bench/run.ts beside the limit, bench/README.md): the least a
 * server can do for `GET /v1/client/{id}` and `POST /v1/client` and still be one — plain `node:http`, the
 * API key looked up in the database on every request (SHA-256, one prepared statement), then one statement
 * for the answer: the client row by id and business, or the INSERT … RETURNING of a new client, written
 * with `synchronous=FULL` on SQLite. No signature check, no field set, no call log, no schema, no framework:
 * the floor under both bizapi and the benchmark's own baseline (bench/baseline.ts, "the limit"), which also
 * verifies the HMAC, reads the field set and reads the row back after an insert.
 *
 * Run by bench/run.ts as a child process (one process); environment: DATABASE_URL (sqlite:<path> |
 * postgres://…) and PORT. Anything else answers 404; a missing or unknown key 401.
 */
import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import pg from 'pg';
import { loadSqliteDriver } from '../src/db/create-db.ts';

/** The three statements, on either driver. */
interface Queries {
  key(hash: string): Promise<number | undefined>;
  client(businessId: number, id: number): Promise<Record<string, unknown> | undefined>;
  insert(businessId: number, companyName: string, created: string): Promise<Record<string, unknown>>;
}

const KEY_SQL = 'SELECT business_id FROM api_key WHERE key_hash = $1 AND revoked_at IS NULL';
const CLIENT_SQL = `SELECT id, company_name AS "companyName", created, status_id AS "statusId", in_charge AS "inCharge", email
  FROM client WHERE business_id = $1 AND id = $2 AND deleted_at IS NULL`;
const INSERT_SQL = `INSERT INTO client (business_id, company_name, is_hidden, created) VALUES ($1, $2, $3, $4)
  RETURNING id, company_name AS "companyName", created, status_id AS "statusId", in_charge AS "inCharge", email`;

function sqliteQueries(path: string): Queries {
  const Driver = loadSqliteDriver();
  const db = new Driver(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  const q = (text: string) => db.prepare(text.replace(/\$\d+/g, '?'));
  const key = q(KEY_SQL).pluck();
  const client = q(CLIENT_SQL);
  const insert = q(INSERT_SQL);
  return {
    key: async (hash) => key.get(hash) as number | undefined,
    client: async (b, id) => client.get(b, id) as Record<string, unknown> | undefined,
    insert: async (b, name, created) => insert.get(b, name, 0, created) as Record<string, unknown>,
  };
}

function postgresQueries(url: string): Queries {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const one = async (name: string, text: string, values: unknown[]) =>
    (await pool.query({ name, text, values })).rows[0] as Record<string, unknown> | undefined;
  return {
    key: async (hash) => (await one('key', KEY_SQL, [hash]))?.business_id as number | undefined,
    client: (b, id) => one('client', CLIENT_SQL, [b, id]),
    insert: async (b, name, created) => (await one('insert', INSERT_SQL, [b, name, false, created]))!,
  };
}

const url = process.env.DATABASE_URL ?? '';
const queries = url.startsWith('postgres') ? postgresQueries(url) : sqliteQueries(url.replace(/^sqlite:/, ''));

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const ONE = /^\/v1\/client\/(\d+)$/;

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    void (async () => {
      const apiKey = req.headers['x-api-key'];
      const businessId =
        typeof apiKey === 'string' ? await queries.key(createHash('sha256').update(apiKey).digest('hex')) : undefined;
      if (businessId === undefined) return send(res, 401, { detail: 'Invalid API key.' });
      const one = req.method === 'GET' ? ONE.exec(req.url ?? '') : null;
      if (one) {
        const row = await queries.client(businessId, Number(one[1]));
        return row ? send(res, 200, row) : send(res, 404, { detail: 'Not found.' });
      }
      if (req.method === 'POST' && req.url === '/v1/client') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { companyName: string };
        return send(res, 201, await queries.insert(businessId, body.companyName, new Date().toISOString()));
      }
      send(res, 404, { detail: 'Not found.' });
    })().catch((err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      send(res, 500, { detail: 'A server error occurred.' });
    });
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => process.exit(0));
