/**
 * Configuration: one schema for the environment, parsed once (README.md#configuration).
 *
 * Nothing else in the project reads `process.env` (scripts/check-floors.mjs): the entry points read it with
 * {@link readEnvironment}, call {@link loadConfig} and pass the result to `buildApp(config)` and the CLI commands.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject } from 'ajv';
import dotenv from 'dotenv';
import type EnvSchemaFn from 'env-schema';
import type { Static, TBoolean, TEnum, TInteger, TObject, TOptional, TSchema, TString } from 'typebox';

/**
 * How `X-Signature` is enforced (docs/authentication.md#signature-modes): `optional` (unsigned passes, a
 * signature of either version must verify), `required` (either version required), `v2` (only version 2).
 */
export type SignatureMode = 'optional' | 'required' | 'v2';

/** Where the database lives: a SQLite file (or `:memory:`), or a PostgreSQL connection string. */
export type DatabaseConfig = { dialect: 'sqlite'; path: string } | PostgresConfig;

/**
 * A PostgreSQL database (docs/deployment.md#transaction-mode-poolers-pgbouncer). `url` may name PgBouncer
 * (or another pooler): `poolMode: 'transaction'` says it pools by transaction, so bizapi keeps no state on a
 * server connection between transactions.
 */
export interface PostgresConfig {
  dialect: 'postgres';
  /** `DATABASE_URL`: every query and transaction goes here. */
  url: string;
  /**
   * `DATABASE_DIRECT_URL`: the same database without a transaction-mode pooler in between, for what needs a
   * session (the webhook dispatchers' `LISTEN`). Absent: `url` serves, unless `poolMode` is `transaction`.
   */
  directUrl?: string | undefined;
  /** `DATABASE_POOL_MODE`: `session` (default: a direct connection, or a session-mode pooler) or `transaction`. */
  poolMode?: 'session' | 'transaction' | undefined;
  /**
   * `BIZAPI_PG_PREPARED`: the hottest queries run as named prepared statements, kept by each server
   * connection (src/db/prepared-query.ts). Default `true`, but `false` with `poolMode: 'transaction'` (a pooler
   * without prepared-statement support hands each transaction any server connection).
   */
  prepared?: boolean | undefined;
}

/**
 * The URL on which `config` can hold a session (`LISTEN`): `DATABASE_DIRECT_URL`, else `DATABASE_URL` unless
 * it goes through a transaction-mode pooler; `undefined` then (live delivery falls back to polling,
 * docs/deployment.md#transaction-mode-poolers-pgbouncer).
 */
export function sessionUrlOf(config: PostgresConfig): string | undefined {
  return config.directUrl ?? (config.poolMode === 'transaction' ? undefined : config.url);
}

/** Whether `config` runs named prepared statements ({@link PostgresConfig.prepared} and its default). */
export function usesNamedStatements(config: PostgresConfig): boolean {
  return config.prepared ?? config.poolMode !== 'transaction';
}

/** S3-compatible object storage settings, present when `BIZAPI_STORAGE=s3`. */
export interface S3Config {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** `S3_FORCE_PATH_STYLE`: `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO, Ceph, …). */
  forcePathStyle: boolean;
}

/** Attachment uploads and downloads (docs/api.md#attachments). */
export interface FilesConfig {
  /** `BIZAPI_UPLOAD_URL_TTL`: seconds a pre-signed upload URL stays valid (default 60, the reference's). */
  uploadUrlTtlSeconds: number;
  /** `BIZAPI_DOWNLOAD_URL_TTL`: seconds a pre-signed download URL stays valid (default 3600). */
  downloadUrlTtlSeconds: number;
  /** `BIZAPI_UPLOAD_MAX_BYTES`: largest accepted file in bytes (default 50 MiB). */
  maxUploadBytes: number;
}

/**
 * The notification outbox dispatcher (README.md#notifications). `mode`: `in-process` runs it inside `bizapi serve`;
 * `off` leaves delivery to a separate `bizapi worker` (which always runs it). A failed delivery is retried
 * after `min(retryBaseMs × 2^(attempt − 1), retryMaxMs)`, at most `maxAttempts` attempts in all.
 */
export interface DispatcherConfig {
  mode: 'in-process' | 'off';
  /** Pause between two polls of an idle outbox, in milliseconds. */
  pollIntervalMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
  /** Timeout of one SMTP or push delivery, in milliseconds. */
  timeoutMs: number;
  /**
   * `BIZAPI_DISPATCHER_BUSINESS_IDS` (comma-separated business ids): this process delivers only these
   * businesses' notifications; `undefined` (unset) delivers every business's. For splitting workers by tenant.
   */
  businessIds: readonly number[] | undefined;
}

/**
 * Webhook limits and the webhook dispatcher's fairness (docs/webhooks.md#fairness-and-limits). Attempts in
 * flight are capped per endpoint and per business across every dispatcher sharing the database, and per
 * process in each lane: the normal lane, and the *sick* lane of endpoints whose last `sickAfter` attempts got
 * no answer (timed out, or failed to connect), where such an endpoint gets one attempt at a time until one
 * succeeds. A waiting socket costs little, so the per-process limits are large: every business at its cap
 * must still leave room.
 */
export interface WebhookConfig {
  /** `BIZAPI_WEBHOOK_MAX_ENDPOINTS` (default 20): endpoints a business may have. */
  maxEndpoints: number;
  /** `BIZAPI_WEBHOOK_CONCURRENCY` (default 2000): attempts in flight at once in one dispatcher process (normal lane). */
  concurrency: number;
  /** `BIZAPI_WEBHOOK_PER_ENDPOINT` (default 4): attempts in flight to one endpoint, across dispatchers. */
  perEndpoint: number;
  /** `BIZAPI_WEBHOOK_PER_BUSINESS` (default 20): attempts in flight of one business in each lane, across dispatchers. */
  perBusiness: number;
  /** `BIZAPI_WEBHOOK_SICK_CONCURRENCY` (default 1000): attempts in flight at once in one process's sick lane. */
  sickConcurrency: number;
  /** `BIZAPI_WEBHOOK_SICK_AFTER` (default 3): attempts in a row without an answer that make an endpoint sick. */
  sickAfter: number;
}

/**
 * What `bizapi import --from` reads from a source, at most (docs/deployment.md#source-limits): past a limit
 * the import stops with a message naming the request and the limit.
 */
export interface ImportSourceConfig {
  /**
   * `BIZAPI_IMPORT_ALLOW_PRIVATE` (default false): attachment downloads may go to loopback, private and other
   * non-public addresses (a source on the intranet, tests); cloud metadata addresses stay refused.
   */
  allowPrivate: boolean;
  /** `BIZAPI_IMPORT_MAX_ANSWER_BYTES` (default 64 MiB): the largest answer (one page or record) read from the source, in bytes. */
  maxAnswerBytes: number;
  /** `BIZAPI_IMPORT_MAX_PAGES` (default 10 000): pages read of one list at most (100 records a page). */
  maxPages: number;
  /** `BIZAPI_IMPORT_REQUEST_TIMEOUT` (default 120 000): milliseconds one request to the source may take, its whole answer read. */
  requestTimeoutMs: number;
}

/** The parsed, validated configuration of one process. */
export interface Config {
  /** `DATABASE_URL` as given (`sqlite:<path>` or `postgres://…`). */
  databaseUrl: string;
  database: DatabaseConfig;
  host: string;
  /** TCP port, 0..65535 (0 picks a free port). */
  port: number;
  /** Absolute path of `BIZAPI_DATA_DIR`: master key, local file storage, e-mail outbox. */
  dataDir: string;
  /** 32-byte master key from `BIZAPI_MASTER_KEY`; `undefined` means "use or create `<dataDir>/master.key`". */
  masterKey: Buffer | undefined;
  signatureMode: SignatureMode;
  /**
   * `BIZAPI_IDEMPOTENCY_LOCK_TIMEOUT`, milliseconds (default 60 000): how long the claim of an
   * `Idempotency-Key` whose request never answered (a crashed process) blocks the key; after it, the key can
   * be claimed again (docs/api.md#idempotent-retries). Keep it above `BIZAPI_REQUEST_TIMEOUT`.
   */
  idempotencyLockTimeout: number;
  /** `BIZAPI_EVENT_RETENTION_DAYS` (default 30): days events are kept (docs/api.md#events). */
  eventRetentionDays: number;
  /**
   * Live followers of the feed (docs/api.md#following-the-feed-live): `maxPerBusiness`
   * (`BIZAPI_EVENT_FOLLOWERS_MAX_PER_BUSINESS`, default 100) long-polls and streams of one business per
   * process, beyond which 429; `heartbeatMs` (`BIZAPI_EVENT_STREAM_HEARTBEAT_MS`, default 15 000) between a
   * stream's `: ping` comments.
   */
  eventFollowers: { maxPerBusiness: number; heartbeatMs: number };
  /**
   * `BIZAPI_WEBHOOK_ALLOW_PRIVATE` (default false): webhook URLs may name loopback, private and other
   * non-public addresses (intranets, tests); the scheme check stays (docs/webhooks.md#url-safety).
   */
  webhookAllowPrivate: boolean;
  /** Webhook endpoint cap and dispatcher limits (`BIZAPI_WEBHOOK_*`). */
  webhooks: WebhookConfig;
  /** The limits of `bizapi import --from` on what a source answers (`BIZAPI_IMPORT_*`). */
  importSource: ImportSourceConfig;
  /** Requests per minute per API key; 0 turns rate limiting off. */
  rateLimit: number;
  /** Fastify's `trustProxy`: false, true, a hop count, or a comma-separated list of addresses / CIDRs. */
  trustProxy: boolean | number | string;
  storage: 'local' | 's3';
  s3: S3Config | undefined;
  files: FilesConfig;
  smtpUrl: string | undefined;
  mailFrom: string;
  pushWebhookUrl: string | undefined;
  dispatcher: DispatcherConfig;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * Where the rate-limit counters live (docs/deployment.md#5-several-api-processes-behind-a-load-balancer):
   * `memory` (per process), `database` (shared through the configured database), `redis` (shared through
   * `REDIS_URL`). Default: `redis` when `REDIS_URL` is set, else `memory`.
   */
  rateLimitStore: 'memory' | 'database' | 'redis';
  /**
   * Whether `BIZAPI_RATE_LIMIT_STORE` is set (in the process environment or `.env`), rather than
   * {@link rateLimitStore} being its default: `bizapi serve --workers` shares the default `memory` store
   * through the database, never a store the operator chose.
   */
  rateLimitStoreSet: boolean;
  /** `REDIS_URL` (`redis://` or `rediss://`), required by `rateLimitStore: 'redis'`. */
  redisUrl: string | undefined;
  /** `BIZAPI_METRICS_TOKEN`: when set, `GET /metrics` requires `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** Milliseconds to receive a whole request and to produce its response (`BIZAPI_REQUEST_TIMEOUT`). */
  requestTimeout: number;
  /** Milliseconds an idle keep-alive connection stays open (`BIZAPI_KEEP_ALIVE_TIMEOUT`). */
  keepAliveTimeout: number;
  /** Milliseconds a graceful shutdown may take before the process exits anyway (`BIZAPI_SHUTDOWN_TIMEOUT`). */
  shutdownTimeout: number;
  /**
   * Milliseconds between the start of a graceful shutdown and closing the listening socket, during which
   * `/readyz` answers 503 and requests are still served, so load balancers stop routing first (`BIZAPI_SHUTDOWN_DELAY`).
   */
  shutdownDelay: number;
  /** Event-loop delay in milliseconds beyond which `/v1` requests are shed with 503; 0 = never (`BIZAPI_MAX_EVENT_LOOP_DELAY`). */
  maxEventLoopDelay: number;
  /**
   * `BIZAPI_PUBLIC_URL`: the origin clients reach the API at (`https://api.example.com`, no path), used for
   * `next` / `previous` links and pre-signed URLs instead of the request's `Host`; `undefined` when unset
   * (the `Host` header is used, and must be valid). See docs/deployment.md#public-url.
   */
  publicUrl: string | undefined;
  /** `bizapi serve` as several processes (src/cluster.ts). */
  cluster: ClusterConfig;
}

/**
 * What `bizapi serve --workers` reads (docs/deployment.md#several-processes-on-one-machine-bizapi-serve---workers).
 */
export interface ClusterConfig {
  /**
   * `BIZAPI_WORKERS` as given (a count or `auto`), the worker count when `--workers` is not: checked by
   * `parseWorkers` (src/cluster.ts) only then, so a bad one stops `bizapi serve` alone.
   */
  workers: string | undefined;
  /** `BIZAPI_CLUSTER_WORKER`: the index the `serve` primary gives each worker it forks; `undefined` in any other process. */
  workerIndex: number | undefined;
  /** `NODE_OPTIONS`: the Node flags the operator set, which the workers' own V8 flags do not override. */
  nodeOptions: string | undefined;
}

/** Thrown by {@link loadConfig}; `problems` names every bad variable, one line each. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The string formats of {@link EnvSchema}: each one's test, and the problem a value failing it reports (after
 * `NAME: `). Passwords of URLs are masked in the problems.
 */
const FORMATS: Record<string, { test(v: string): boolean; problem(v: string): string }> = {
  'database-url': {
    test: (v) => (v.startsWith('sqlite:') ? v !== 'sqlite:' : /^postgres(ql)?:\/\//.test(v) && isUrl(v, ['postgres:', 'postgresql:'])),
    problem: (v) =>
      v.startsWith('sqlite:')
        ? '"sqlite:" needs a path, e.g. sqlite:./data/bizapi.db'
        : /^postgres(ql)?:\/\//.test(v)
          ? `"${redact(v)}" is not a postgres: or postgresql: URL`
          : `"${redact(v)}" must start with sqlite: or postgres://`,
  },
  'postgres-url': {
    test: (v) => /^postgres(ql)?:\/\//.test(v) && isUrl(v, ['postgres:', 'postgresql:']),
    problem: (v) => `"${redact(v)}" is not a postgres: or postgresql: URL`,
  },
  'master-key': { test: (v) => parseMasterKey(v) !== undefined, problem: () => 'must be 32 bytes as 64 hex characters or base64' },
  'trust-proxy': {
    test: (v) => /^(true|false|[0-9a-fA-F:./,\s]+)$/.test(v),
    problem: (v) => `"${v}" is not true, false, a hop count or a list of addresses`,
  },
  'http-url': urlFormat(['http:', 'https:']),
  'smtp-url': urlFormat(['smtp:', 'smtps:']),
  'redis-url': urlFormat(['redis:', 'rediss:']),
  'http-origin': {
    test: (v) => {
      const u = parseUrl(v);
      return u !== undefined && ['http:', 'https:'].includes(u.protocol) && !u.username && !u.password && (u.pathname === '/' || u.pathname === '') && !u.search && !u.hash;
    },
    problem: (v) => `"${redact(v)}" is not an http or https origin such as https://api.example.com (no path, query or credentials)`,
  },
  'id-list': {
    test: (v) => /^[1-9]\d{0,14}(\s*,\s*[1-9]\d{0,14})*$/.test(v),
    problem: (v) => `"${v}" is not a comma-separated list of positive integer ids`,
  },
};

function parseUrl(v: string): URL | undefined {
  try {
    return new URL(v);
  } catch {
    return undefined;
  }
}

function isUrl(v: string, protocols: string[]): boolean {
  const u = parseUrl(v);
  return u !== undefined && protocols.includes(u.protocol);
}

function urlFormat(protocols: string[]): (typeof FORMATS)[string] {
  return { test: (v) => isUrl(v, protocols), problem: (v) => `"${redact(v)}" is not a ${protocols.join(' or ')} URL` };
}

// The schema is plain JSON Schema, typed with TypeBox's types: TypeBox's runtime, Ajv and env-schema take
// seconds to load under tsx on a busy machine, and every `bizapi` command loads this module, most of them
// (`sign`, `request`, `mcp`) without parsing the configuration. Ajv and env-schema are loaded by the first
// loadConfig call. The objects are those TypeBox builds (Type.Integer, Type.String, Type.Enum).
const schema = <T extends TSchema>(json: object): T => json as unknown as T;
/**
 * A whole number from `minimum` to `maximum`, written in digits only: the text must first be a string of digits
 * (so `1e3`, `0x10`, `+5`, `8.0`, which Ajv's coercion would read as numbers, are refused), then Ajv coerces it to
 * the integer the bounds check (the subschemas run in order on the same value).
 */
const OptionalInt = (minimum: number, maximum: number) =>
  schema<TOptional<TInteger>>({ allOf: [{ type: 'string', pattern: '^[0-9]+$' }, { type: 'integer', minimum, maximum }] });
const Int = (fallback: number, minimum: number, maximum: number) => schema<TInteger>({ ...OptionalInt(minimum, maximum), default: fallback });
/** A string with a default. */
const Str = (fallback: string, format?: keyof typeof FORMATS) => schema<TString>({ type: 'string', default: fallback, ...(format && { format }) });
/** A string of one of the {@link FORMATS}, optional. */
const Text = (format?: keyof typeof FORMATS) => schema<TOptional<TString>>({ type: 'string', ...(format && { format }) });
/** One of `values`, `fallback` when unset. */
const OneOf = <const T extends string[]>(values: T, fallback: T[number]) => schema<TEnum<T>>({ enum: values, default: fallback });
/** `true` or `false` (Ajv coerces these two strings and no others to booleans), `false` when unset. */
const OptionalFlag = schema<TOptional<TBoolean>>({ type: 'boolean' });
const Flag = schema<TBoolean>({ type: 'boolean', default: false });

/**
 * Every variable the server reads, its type, default and bounds (README.md#configuration). In the order the
 * problems are listed. An empty or blank variable counts as unset; values are trimmed.
 */
const PROPERTIES = {
  DATABASE_URL: Str('sqlite:./data/bizapi.db', 'database-url'),
  DATABASE_DIRECT_URL: Text('postgres-url'),
  DATABASE_POOL_MODE: OneOf(['session', 'transaction'], 'session'),
  BIZAPI_PG_PREPARED: OptionalFlag,
  BIZAPI_MASTER_KEY: Text('master-key'),
  BIZAPI_TRUST_PROXY: Text('trust-proxy'),
  BIZAPI_STORAGE: OneOf(['local', 's3'], 'local'),
  S3_BUCKET: Text(),
  S3_ENDPOINT: Text('http-url'),
  S3_FORCE_PATH_STYLE: Flag,
  S3_REGION: Str('us-east-1'),
  S3_ACCESS_KEY_ID: Text(),
  S3_SECRET_ACCESS_KEY: Text(),
  // 7 days is the longest lifetime an S3 pre-signed URL may have; 5 GiB the largest single S3 PUT.
  BIZAPI_UPLOAD_URL_TTL: Int(60, 1, 604800),
  BIZAPI_DOWNLOAD_URL_TTL: Int(3600, 1, 604800),
  BIZAPI_UPLOAD_MAX_BYTES: Int(50 * 1024 * 1024, 1, 5 * 1024 * 1024 * 1024),
  REDIS_URL: Text('redis-url'),
  BIZAPI_RATE_LIMIT_STORE: schema<TOptional<TEnum<['memory', 'database', 'redis']>>>({ enum: ['memory', 'database', 'redis'] }),
  BIZAPI_DATA_DIR: Str('./data'),
  HOST: Str('127.0.0.1'),
  PORT: Int(8000, 0, 65535),
  BIZAPI_SIGNATURE_MODE: OneOf(['optional', 'required', 'v2'], 'optional'),
  BIZAPI_IDEMPOTENCY_LOCK_TIMEOUT: Int(60_000, 1000, 86_400_000),
  BIZAPI_EVENT_RETENTION_DAYS: Int(30, 1, 3650),
  BIZAPI_EVENT_FOLLOWERS_MAX_PER_BUSINESS: Int(100, 1, 1_000_000),
  BIZAPI_EVENT_STREAM_HEARTBEAT_MS: Int(15_000, 10, 3_600_000),
  BIZAPI_WEBHOOK_ALLOW_PRIVATE: Flag,
  BIZAPI_WEBHOOK_MAX_ENDPOINTS: Int(20, 1, 100_000),
  BIZAPI_WEBHOOK_CONCURRENCY: Int(2000, 1, 100_000),
  BIZAPI_WEBHOOK_PER_ENDPOINT: Int(4, 1, 1000),
  BIZAPI_WEBHOOK_PER_BUSINESS: Int(20, 1, 100_000),
  BIZAPI_WEBHOOK_SICK_CONCURRENCY: Int(1000, 1, 100_000),
  BIZAPI_WEBHOOK_SICK_AFTER: Int(3, 1, 1000),
  BIZAPI_IMPORT_ALLOW_PRIVATE: Flag,
  // 256 MiB: well below the longest string V8 makes (0x1fffffe8 characters).
  BIZAPI_IMPORT_MAX_ANSWER_BYTES: Int(64 * 1024 * 1024, 65_536, 256 * 1024 * 1024),
  BIZAPI_IMPORT_MAX_PAGES: Int(10_000, 1, 10_000_000),
  BIZAPI_IMPORT_REQUEST_TIMEOUT: Int(120_000, 100, 3_600_000),
  BIZAPI_RATE_LIMIT: Int(1000, 0, 1_000_000_000),
  SMTP_URL: Text('smtp-url'),
  BIZAPI_MAIL_FROM: Str('bizapi <no-reply@localhost>'),
  PUSH_WEBHOOK_URL: Text('http-url'),
  BIZAPI_DISPATCHER: OneOf(['in-process', 'off'], 'in-process'),
  BIZAPI_DISPATCHER_POLL_MS: Int(1000, 10, 3_600_000),
  BIZAPI_DISPATCHER_RETRY_BASE_MS: Int(5000, 1, 86_400_000),
  BIZAPI_DISPATCHER_RETRY_MAX_MS: Int(900_000, 1, 86_400_000),
  BIZAPI_DISPATCHER_MAX_ATTEMPTS: Int(10, 1, 1000),
  BIZAPI_DISPATCHER_TIMEOUT_MS: Int(10_000, 100, 600_000),
  BIZAPI_DISPATCHER_BUSINESS_IDS: Text('id-list'),
  LOG_LEVEL: OneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  BIZAPI_METRICS_TOKEN: Text(),
  BIZAPI_REQUEST_TIMEOUT: Int(30_000, 1, 3_600_000),
  BIZAPI_KEEP_ALIVE_TIMEOUT: Int(72_000, 1, 3_600_000),
  BIZAPI_SHUTDOWN_TIMEOUT: Int(30_000, 1, 3_600_000),
  BIZAPI_SHUTDOWN_DELAY: Int(0, 0, 3_600_000),
  BIZAPI_MAX_EVENT_LOOP_DELAY: Int(1000, 0, 3_600_000),
  BIZAPI_PUBLIC_URL: Text('http-origin'),
  BIZAPI_WORKERS: Text(),
  BIZAPI_CLUSTER_WORKER: OptionalInt(0, 255),
  NODE_OPTIONS: Text(),
};
const EnvSchema = schema<TObject<typeof PROPERTIES>>({ type: 'object', properties: PROPERTIES });
type Env = Static<typeof EnvSchema>;
type VariableSchema = { type?: string; enum?: string[]; format?: string; allOf?: [unknown, { minimum: number; maximum: number }] };
const VARIABLES = PROPERTIES as unknown as Record<string, VariableSchema>;
const NAMES = Object.keys(VARIABLES);
/** The variables read only with `BIZAPI_STORAGE=s3`. */
const S3_VARIABLES = NAMES.filter((name) => name.startsWith('S3_'));

let envSchema: typeof EnvSchemaFn | undefined;
let ajv: Ajv | undefined;
/**
 * Validates `data` against {@link EnvSchema} with env-schema and the Ajv it builds (every error, defaults, types
 * coerced from the text), the {@link FORMATS} added; that Ajv is kept, so the schema is compiled once. Both are
 * loaded by the first call.
 * @throws Error with Ajv's `errors` when a variable is bad
 */
function validate(data: Record<string, string>): Env {
  envSchema ??= createRequire(import.meta.url)('env-schema') as typeof EnvSchemaFn;
  const withFormats = (instance: Ajv) => {
    for (const [name, format] of Object.entries(FORMATS)) instance.addFormat(name, { type: 'string', validate: format.test });
    return (ajv = instance);
  };
  return envSchema<Env>({ schema: EnvSchema, data, env: false, ajv: ajv ?? { customOptions: withFormats } });
}

/** The problem a bad value of the variable `name` reports, from its schema. */
function problemOf(name: string, text: string): string {
  const { type, enum: values, format, allOf } = VARIABLES[name]!;
  if (values !== undefined || type === 'boolean') return `${name}: "${text}" is not one of ${(values ?? ['true', 'false']).join(', ')}`;
  if (format !== undefined) return `${name}: ${FORMATS[format]!.problem(text)}`;
  return `${name}: "${text}" is not an integer between ${allOf![1].minimum} and ${allOf![1].maximum}`;
}

/**
 * Parses the environment into a {@link Config}, in two steps: the variables against {@link EnvSchema}
 * (env-schema with Ajv: types, defaults, bounds, formats), then the rules that join several variables (S3
 * needs a bucket, the Redis store needs `REDIS_URL`, the database dialect from `DATABASE_URL`, paths resolved
 * against `cwd`).
 *
 * @param env variables to read (usually `process.env` over an optional `.env` file: {@link readEnvironment})
 * @param cwd directory that relative paths (`sqlite:./data/x.db`, `BIZAPI_DATA_DIR`) resolve against
 * @throws ConfigError listing every invalid variable, not just the first
 */
export function loadConfig(env: Record<string, string | undefined>, cwd: string = process.cwd()): Config {
  // The text of each variable, trimmed; blank is unset, and the S3_* variables are read only with BIZAPI_STORAGE=s3.
  const text: Record<string, string> = {};
  for (const name of NAMES) {
    const v = env[name]?.trim();
    if (v !== undefined && v !== '') text[name] = v;
  }
  if (text.BIZAPI_STORAGE !== 's3') for (const name of S3_VARIABLES) delete text[name];

  const problems: [name: string, problem: string][] = [];
  let values: Env | undefined;
  try {
    values = validate({ ...text });
  } catch (err) {
    const errors = (err as { errors?: ErrorObject[] }).errors;
    if (errors === undefined) throw err;
    for (const name of new Set(errors.map((e) => e.instancePath.slice(1)))) problems.push([name, problemOf(name, text[name]!)]);
  }
  // The rules that join several variables.
  if (text.BIZAPI_STORAGE === 's3' && text.S3_BUCKET === undefined) problems.push(['S3_BUCKET', 'S3_BUCKET: required when BIZAPI_STORAGE=s3']);
  if (text.BIZAPI_RATE_LIMIT_STORE === 'redis' && text.REDIS_URL === undefined) {
    problems.push(['BIZAPI_RATE_LIMIT_STORE', 'BIZAPI_RATE_LIMIT_STORE: "redis" needs REDIS_URL']);
  }
  if (values === undefined || problems.length > 0) {
    problems.sort(([a], [b]) => NAMES.indexOf(a) - NAMES.indexOf(b));
    throw new ConfigError(problems.map(([, problem]) => problem));
  }
  return toConfig(values, cwd);
}

/**
 * The {@link Config} of valid variables: the database dialect from `DATABASE_URL`, paths resolved against
 * `cwd`, the rate-limit store's default (`redis` with `REDIS_URL`, else `memory`), and the other derived values.
 */
function toConfig(v: Env, cwd: string): Config {
  const sqlitePath = v.DATABASE_URL.startsWith('sqlite:') ? v.DATABASE_URL.slice('sqlite:'.length) : undefined;
  const tp = v.BIZAPI_TRUST_PROXY;
  return {
    databaseUrl: v.DATABASE_URL,
    database:
      sqlitePath === undefined
        ? {
            dialect: 'postgres',
            url: v.DATABASE_URL,
            directUrl: v.DATABASE_DIRECT_URL,
            poolMode: v.DATABASE_POOL_MODE,
            prepared: v.BIZAPI_PG_PREPARED,
          }
        : { dialect: 'sqlite', path: sqlitePath === ':memory:' ? ':memory:' : path.resolve(cwd, sqlitePath) },
    host: v.HOST,
    port: v.PORT,
    dataDir: path.resolve(cwd, v.BIZAPI_DATA_DIR),
    masterKey: v.BIZAPI_MASTER_KEY === undefined ? undefined : parseMasterKey(v.BIZAPI_MASTER_KEY),
    signatureMode: v.BIZAPI_SIGNATURE_MODE,
    idempotencyLockTimeout: v.BIZAPI_IDEMPOTENCY_LOCK_TIMEOUT,
    eventRetentionDays: v.BIZAPI_EVENT_RETENTION_DAYS,
    eventFollowers: { maxPerBusiness: v.BIZAPI_EVENT_FOLLOWERS_MAX_PER_BUSINESS, heartbeatMs: v.BIZAPI_EVENT_STREAM_HEARTBEAT_MS },
    webhookAllowPrivate: v.BIZAPI_WEBHOOK_ALLOW_PRIVATE,
    webhooks: {
      maxEndpoints: v.BIZAPI_WEBHOOK_MAX_ENDPOINTS,
      concurrency: v.BIZAPI_WEBHOOK_CONCURRENCY,
      perEndpoint: v.BIZAPI_WEBHOOK_PER_ENDPOINT,
      perBusiness: v.BIZAPI_WEBHOOK_PER_BUSINESS,
      sickConcurrency: v.BIZAPI_WEBHOOK_SICK_CONCURRENCY,
      sickAfter: v.BIZAPI_WEBHOOK_SICK_AFTER,
    },
    importSource: {
      allowPrivate: v.BIZAPI_IMPORT_ALLOW_PRIVATE,
      maxAnswerBytes: v.BIZAPI_IMPORT_MAX_ANSWER_BYTES,
      maxPages: v.BIZAPI_IMPORT_MAX_PAGES,
      requestTimeoutMs: v.BIZAPI_IMPORT_REQUEST_TIMEOUT,
    },
    rateLimit: v.BIZAPI_RATE_LIMIT,
    trustProxy: tp === undefined || tp === 'false' ? false : tp === 'true' ? true : /^\d+$/.test(tp) ? Number(tp) : tp,
    storage: v.BIZAPI_STORAGE,
    s3:
      v.BIZAPI_STORAGE === 's3'
        ? {
            endpoint: v.S3_ENDPOINT,
            bucket: v.S3_BUCKET ?? '',
            region: v.S3_REGION,
            accessKeyId: v.S3_ACCESS_KEY_ID,
            secretAccessKey: v.S3_SECRET_ACCESS_KEY,
            forcePathStyle: v.S3_FORCE_PATH_STYLE,
          }
        : undefined,
    files: { uploadUrlTtlSeconds: v.BIZAPI_UPLOAD_URL_TTL, downloadUrlTtlSeconds: v.BIZAPI_DOWNLOAD_URL_TTL, maxUploadBytes: v.BIZAPI_UPLOAD_MAX_BYTES },
    smtpUrl: v.SMTP_URL,
    mailFrom: v.BIZAPI_MAIL_FROM,
    pushWebhookUrl: v.PUSH_WEBHOOK_URL,
    dispatcher: {
      mode: v.BIZAPI_DISPATCHER,
      pollIntervalMs: v.BIZAPI_DISPATCHER_POLL_MS,
      retryBaseMs: v.BIZAPI_DISPATCHER_RETRY_BASE_MS,
      retryMaxMs: v.BIZAPI_DISPATCHER_RETRY_MAX_MS,
      maxAttempts: v.BIZAPI_DISPATCHER_MAX_ATTEMPTS,
      timeoutMs: v.BIZAPI_DISPATCHER_TIMEOUT_MS,
      businessIds: v.BIZAPI_DISPATCHER_BUSINESS_IDS?.split(',').map(Number),
    },
    logLevel: v.LOG_LEVEL,
    rateLimitStore: v.BIZAPI_RATE_LIMIT_STORE ?? (v.REDIS_URL !== undefined ? 'redis' : 'memory'),
    rateLimitStoreSet: v.BIZAPI_RATE_LIMIT_STORE !== undefined,
    redisUrl: v.REDIS_URL,
    metricsToken: v.BIZAPI_METRICS_TOKEN,
    requestTimeout: v.BIZAPI_REQUEST_TIMEOUT,
    keepAliveTimeout: v.BIZAPI_KEEP_ALIVE_TIMEOUT,
    shutdownTimeout: v.BIZAPI_SHUTDOWN_TIMEOUT,
    shutdownDelay: v.BIZAPI_SHUTDOWN_DELAY,
    maxEventLoopDelay: v.BIZAPI_MAX_EVENT_LOOP_DELAY,
    publicUrl: v.BIZAPI_PUBLIC_URL === undefined ? undefined : new URL(v.BIZAPI_PUBLIC_URL).origin,
    cluster: { workers: v.BIZAPI_WORKERS, workerIndex: v.BIZAPI_CLUSTER_WORKER, nodeOptions: v.NODE_OPTIONS },
  };
}

/** The environment of a process, as {@link readEnvironment} reads it. */
export interface Environment {
  /** `process.env` over the variables of {@link file} (process variables win). A copy: `process.env` is untouched. */
  env: Record<string, string | undefined>;
  /** The absolute path of the `.env` file read (it may not exist). */
  file: string;
  /** The variables whose value came from {@link file}. */
  fromFile: ReadonlySet<string>;
}

/**
 * Reads the environment: `process.env` over the optional `.env` file of the working directory, a variable of
 * the process winning over the file's (docs/deployment.md#2-configuration). The one place that reads
 * `process.env` (scripts/check-floors.mjs keeps it so); what it returns goes to {@link loadConfig}.
 */
export function readEnvironment(): Environment {
  const env: Record<string, string | undefined> = { ...process.env };
  const file = path.resolve('.env');
  const parsed = dotenv.config({ path: file, processEnv: env as dotenv.DotenvPopulateInput, quiet: true }).parsed ?? {};
  return { env, file, fromFile: new Set(Object.keys(parsed).filter((name) => process.env[name] === undefined)) };
}

/** Decodes a 32-byte key written as 64 hex characters or as base64; `undefined` when it is neither. */
export function parseMasterKey(text: string): Buffer | undefined {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) {
    const b = Buffer.from(t, 'base64');
    if (b.length === 32) return b;
  }
  return undefined;
}

/** `v` with the password of a URL's user info masked (`postgres://bizapi:***@db/bizapi`), for messages. */
export function redactUrl(v: string): string {
  return redact(v);
}

function redact(v: string): string {
  return v.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)@/, (_m, scheme: string, userInfo: string) => {
    const colon = userInfo.indexOf(':');
    return `${scheme}${colon >= 0 ? `${userInfo.slice(0, colon)}:***` : userInfo}@`;
  });
}
