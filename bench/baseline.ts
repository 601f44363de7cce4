/**
 * The bare baseline of the benchmark (issue 7): the same operations as bizapi — GET one client,
 * GET the first page of clients (also with one `search` term, an unindexed LIKE scan), POST a client — served by plain `node:http` with the same database driver
 * and prepared statements, and no framework: no schema validation, no serializer, no plugins. It still does
 * the work any correct server must do: look the API key up on every request, verify the HMAC signature over
 * the raw body, filter by business, and answer the same JSON shapes. Its throughput is the yardstick bizapi
 * is measured against.
 *
 * Run by bench/run.ts as a child process; environment: DATABASE_URL (sqlite:<path> | postgres://…),
 * BIZAPI_MASTER_KEY (hex), PORT, and BASELINE_WORKERS (default 1): with more, a `node:cluster` primary forks
 * that many processes sharing the port, as `bizapi serve --workers N` does, so the two scale side by side.
 */
import cluster from 'node:cluster';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { loadSqliteDriver } from '../src/db/create-db.ts';
import { verifySignature } from '../src/modules/auth/hmac.ts';
import { decryptSecret } from '../src/modules/auth/secret-box.ts';
import { parseMasterKey } from '../src/config.ts';

interface KeyRow {
  api_key_id: number;
  business_id: number;
  secret_ciphertext: string;
}
interface ClientRow {
  [column: string]: unknown;
  id: number;
  company_name: string;
  created: string | Date;
  status_id: number | null;
  status_title: string | null;
  in_charge: string | null;
  position: string | null;
  contact: string | null;
  email: string | null;
}

/** The few queries the baseline runs, as prepared statements on either driver. */
interface Queries {
  key(hash: string): Promise<KeyRow | undefined>;
  client(businessId: number, id: number): Promise<ClientRow | undefined>;
  fields(businessId: number, clientId: number): Promise<{ field_id: number; value: string }[]>;
  page(businessId: number, limit: number): Promise<ClientRow[]>;
  /** The first page of clients one of whose four searched columns contains `term` (unindexed LIKE scan). */
  search(businessId: number, term: string, limit: number): Promise<ClientRow[]>;
  insert(businessId: number, companyName: string, created: string): Promise<ClientRow>;
}

const SUMMARY = `c.id, c.company_name, c.created, c.status_id, s.title AS status_title, c.in_charge, c.position, c.contact, c.email`;
const FROM = `FROM client c LEFT JOIN client_status s ON s.id = c.status_id`;
const KEY_SQL = `SELECT k.id AS api_key_id, k.business_id, k.secret_ciphertext FROM api_key k WHERE k.key_hash = $1 AND k.revoked_at IS NULL`;
const DETAIL = `${SUMMARY}, c.content, c.business_registration_number, c.ceo_name, c.company_address, c.company_detail_address,
  c.business_type, c.business_class, c.branch_number, c.tax_invoice_email, c.is_hidden`;
const CLIENT_SQL = `SELECT ${DETAIL} ${FROM} WHERE c.business_id = $1 AND c.id = $2 AND c.deleted_at IS NULL`;
const FIELDS_SQL = `SELECT field_id, value FROM client_field_value WHERE business_id = $1 AND client_id = $2`;
const PAGE_SQL = `SELECT ${SUMMARY} ${FROM} WHERE c.business_id = $1 AND c.deleted_at IS NULL ORDER BY c.created DESC, c.id DESC LIMIT $2`;
const SEARCH_SQL = `SELECT ${SUMMARY} ${FROM} WHERE c.business_id = $1 AND c.deleted_at IS NULL AND (lower(c.company_name) LIKE $2
  OR lower(c.in_charge) LIKE $2 OR lower(c.contact) LIKE $2 OR lower(c.email) LIKE $2) ORDER BY c.created DESC, c.id DESC LIMIT $3`;

function sqliteQueries(path: string): Queries {
  const Driver = loadSqliteDriver();
  const db = new Driver(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  const q = (sql: string) => db.prepare(sql.replace(/\$\d+/g, '?'));
  const key = q(KEY_SQL);
  const client = q(CLIENT_SQL);
  const fields = q(FIELDS_SQL);
  const page = q(PAGE_SQL);
  const search = q(SEARCH_SQL);
  const insert = q(
    `INSERT INTO client (business_id, company_name, is_hidden, created) VALUES ($1, $2, 0, $3) RETURNING id`,
  );
  const byId = q(`SELECT ${SUMMARY} ${FROM} WHERE c.id = $1`);
  return {
    key: async (hash) => key.get(hash) as KeyRow | undefined,
    client: async (b, id) => client.get(b, id) as ClientRow | undefined,
    search: async (b, term, limit) => {
      const like = `%${term.toLowerCase()}%`;
      return search.all(b, like, like, like, like, limit) as ClientRow[];
    },
    fields: async (b, id) => fields.all(b, id) as { field_id: number; value: string }[],
    page: async (b, limit) => page.all(b, limit) as ClientRow[],
    insert: async (b, name, created) => {
      const { id } = insert.get(b, name, created) as { id: number };
      return byId.get(id) as ClientRow;
    },
  };
}

function postgresQueries(url: string): Queries {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const one = async <T>(name: string, text: string, values: unknown[]) =>
    (await pool.query({ name, text, values })).rows[0] as T | undefined;
  return {
    key: (hash) => one<KeyRow>('key', KEY_SQL, [hash]),
    client: (b, id) => one<ClientRow>('client', CLIENT_SQL, [b, id]),
    fields: async (b, id) =>
      (await pool.query({ name: 'fields', text: FIELDS_SQL, values: [b, id] })).rows as {
        field_id: number;
        value: string;
      }[],
    page: async (b, limit) =>
      (await pool.query({ name: 'page', text: PAGE_SQL, values: [b, limit] })).rows as ClientRow[],
    search: async (b, term, limit) =>
      (await pool.query({ name: 'search', text: SEARCH_SQL, values: [b, `%${term.toLowerCase()}%`, limit] }))
        .rows as ClientRow[],
    insert: async (b, name, created) =>
      (await one<ClientRow>(
        'insert',
        `WITH c AS (INSERT INTO client (business_id, company_name, is_hidden, created) VALUES ($1, $2, false, $3) RETURNING *)
         SELECT ${SUMMARY} FROM c LEFT JOIN client_status s ON s.id = c.status_id`,
        [b, name, created],
      ))!,
  };
}

const iso = (v: string | Date) => (typeof v === 'string' ? v : v.toISOString());
const toSummary = (r: ClientRow) => ({
  id: r.id,
  companyName: r.company_name,
  created: iso(r.created),
  status: r.status_id === null ? null : { id: r.status_id, title: r.status_title },
  inCharge: r.in_charge,
  position: r.position,
  contact: r.contact,
  email: r.email,
});
const toDetail = (r: ClientRow, fieldSet: { field_id: number; value: string }[]) => ({
  ...toSummary(r),
  content: r.content,
  businessRegistrationNumber: r.business_registration_number,
  ceoName: r.ceo_name,
  companyAddress: r.company_address,
  companyDetailAddress: r.company_detail_address,
  businessType: r.business_type,
  businessClass: r.business_class,
  branchNumber: r.branch_number,
  taxInvoiceEmail: r.tax_invoice_email,
  fieldSet: fieldSet.map((f) => ({ field: { id: f.field_id }, value: f.value })),
  isHidden: r.is_hidden === 1 || r.is_hidden === true,
});

const url = process.env.DATABASE_URL ?? '';
const masterKey = parseMasterKey(process.env.BIZAPI_MASTER_KEY ?? '');
if (!masterKey) throw new Error('BIZAPI_MASTER_KEY is required');
const queries = url.startsWith('postgres') ? postgresQueries(url) : sqliteQueries(url.replace(/^sqlite:/, ''));
const secrets = new Map<number, string>();

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

async function handle(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
  const apiKey = req.headers['x-api-key'];
  if (typeof apiKey !== 'string') return send(res, 401, { detail: 'Authentication credentials were not provided.' });
  const key = await queries.key(createHash('sha256').update(apiKey).digest('hex'));
  if (!key) return send(res, 401, { detail: 'Invalid API key.' });
  let secret = secrets.get(key.api_key_id);
  if (secret === undefined) secrets.set(key.api_key_id, (secret = decryptSecret(masterKey!, key.secret_ciphertext)));
  const signature = req.headers['x-signature'];
  if (typeof signature === 'string' && !verifySignature(secret, raw, signature))
    return send(res, 403, { detail: 'Invalid signature.' });
  const u = new URL(req.url ?? '/', 'http://localhost');
  const one = /^\/v1\/client\/(\d+)\/?$/.exec(u.pathname);
  if (req.method === 'GET' && one) {
    const row = await queries.client(key.business_id, Number(one[1]));
    if (!row) return send(res, 404, { detail: 'Not found.' });
    return send(res, 200, toDetail(row, await queries.fields(key.business_id, row.id)));
  }
  if (/^\/v1\/client\/?$/.test(u.pathname)) {
    if (req.method === 'GET') {
      // `search` (one term; `%` and `_` are not escaped: the bench's terms have none).
      const term = u.searchParams.get('search');
      const rows =
        term !== null ? await queries.search(key.business_id, term, 21) : await queries.page(key.business_id, 21);
      const results = rows.slice(0, 20).map(toSummary);
      const next =
        rows.length > 20
          ? `http://${req.headers.host}/v1/client/?cursor=${Buffer.from(String(results.at(-1)!.id)).toString('base64url')}`
          : null;
      return send(res, 200, { next, previous: null, results });
    }
    if (req.method === 'POST') {
      let body: { companyName?: unknown };
      try {
        body = JSON.parse(raw.toString('utf8')) as { companyName?: unknown };
      } catch {
        return send(res, 400, { detail: 'JSON parse error' });
      }
      if (typeof body.companyName !== 'string' || body.companyName === '')
        return send(res, 400, { companyName: ['This field is required.'] });
      return send(
        res,
        201,
        toSummary(await queries.insert(key.business_id, body.companyName, new Date().toISOString())),
      );
    }
  }
  send(res, 404, { detail: 'Not found.' });
}

const workers = Number(process.env.BASELINE_WORKERS ?? 1);
if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork();
  process.once('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
    process.exit(0);
  });
} else startServer();

/** Serves the baseline on PORT (one process; a cluster worker shares the primary's port). */
function startServer(): void {
  createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).catch((err: unknown) => {
        process.stderr.write(`${String(err)}\n`);
        send(res, 500, { detail: 'A server error occurred.' });
      });
    });
  }).listen(Number(process.env.PORT), '127.0.0.1');
  process.once('SIGTERM', () => process.exit(0));
}
