/**
 * Configuration: one schema for the environment, parsed once (README.md#configuration).
 *
 * Nothing else in the project reads `process.env` (scripts/check-floors.mjs): the entry points read it with
 * {@link readEnvironment}, call {@link loadConfig} and pass the result to `buildApp(config)` and the CLI commands.
 * {@link CONFIG_SCHEMA} is the one list of variables (name, type, default, bounds, the {@link Config} field each
 * fills); the {@link Config} type is its `Static`, but for the few values {@link toConfig} derives.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject } from 'ajv';
import dotenv from 'dotenv';
import type EnvSchemaFn from 'env-schema';
import type { Static, TBoolean, TEnum, TInteger, TObject, TOptional, TProperties, TSchema, TString } from 'typebox';

/** The variables as {@link CONFIG_SCHEMA} nests them, validated, before {@link toConfig}. */
type Env = Static<typeof CONFIG_SCHEMA>;

/**
 * How `X-Signature` is enforced (docs/authentication.md#signature-modes): `optional` (unsigned passes, a
 * signature of either version must verify), `required` (either version required), `v2` (only version 2).
 */
export type SignatureMode = Env['signatureMode'];

/** Where the database lives: a SQLite file (or `:memory:`), or a PostgreSQL connection string. */
export type DatabaseConfig = { dialect: 'sqlite'; path: string } | PostgresConfig;

/**
 * A PostgreSQL database (docs/deployment.md#transaction-mode-poolers-pgbouncer). `url` may name PgBouncer
 * (or another pooler): `poolMode: 'transaction'` says it pools by transaction, so bizapi keeps no state on a
 * server connection between transactions. The fields: {@link CONFIG_SCHEMA}'s `database`.
 */
export type PostgresConfig = { dialect: 'postgres' } & Partial<Env['database']> & { url: string };

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

/** S3-compatible object storage settings, present when `BIZAPI_STORAGE=s3` (which requires `S3_BUCKET`). */
export type S3Config = Omit<Env['s3'], 'bucket'> & { bucket: string };

/** Attachment uploads and downloads (docs/api.md#attachments): {@link CONFIG_SCHEMA}'s `files`. */
export type FilesConfig = Env['files'];

/** The notification outbox dispatcher (README.md#notifications): {@link CONFIG_SCHEMA}'s `dispatcher`. */
export type DispatcherConfig = Omit<Env['dispatcher'], 'businessIds'> & {
  /**
   * `BIZAPI_DISPATCHER_BUSINESS_IDS` (comma-separated business ids): this process delivers only these
   * businesses' notifications; `undefined` (unset) delivers every business's. For splitting workers by tenant.
   */
  businessIds: readonly number[] | undefined;
};

/**
 * The parsed, validated configuration of one process: {@link CONFIG_SCHEMA}'s fields, but for those
 * {@link toConfig} derives (the database, the master key, `trustProxy`, S3, the dispatcher's business ids and
 * the rate-limit store).
 */
export type Config = Omit<Env, 'database' | 'masterKey' | 'trustProxy' | 's3' | 'dispatcher' | 'rateLimitStore'> & {
  /** `DATABASE_URL` as given (`sqlite:<path>` or `postgres://…`). */
  databaseUrl: string;
  database: DatabaseConfig;
  /** 32-byte master key from `BIZAPI_MASTER_KEY`; `undefined` means "use or create `<dataDir>/master.key`". */
  masterKey: Buffer | undefined;
  /** Fastify's `trustProxy` (`BIZAPI_TRUST_PROXY`): false, true, a hop count, or a comma-separated list of addresses / CIDRs. */
  trustProxy: boolean | number | string;
  s3: S3Config | undefined;
  dispatcher: DispatcherConfig;
  /**
   * Where the rate-limit counters live (docs/deployment.md#5-several-api-processes-behind-a-load-balancer):
   * `memory` (per process), `database` (shared through the configured database), `redis` (shared through
   * `REDIS_URL`). `BIZAPI_RATE_LIMIT_STORE`, default: `redis` when `REDIS_URL` is set, else `memory`.
   */
  rateLimitStore: 'memory' | 'database' | 'redis';
  /**
   * Whether `BIZAPI_RATE_LIMIT_STORE` is set (in the process environment or `.env`), rather than
   * {@link rateLimitStore} being its default: `bizapi serve --workers` shares the default `memory` store
   * through the database, never a store the operator chose.
   */
  rateLimitStoreSet: boolean;
};

/** Thrown by {@link loadConfig}; `problems` names every bad variable, one line each. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The string formats of {@link CONFIG_SCHEMA}: each one's test, and the problem a value failing it reports (after
 * `NAME: `). Passwords of URLs are masked in the problems.
 */
const FORMATS: Record<string, { test(v: string): boolean; problem(v: string): string }> = {
  'database-url': {
    test: (v) =>
      v.startsWith('sqlite:')
        ? v !== 'sqlite:'
        : /^postgres(ql)?:\/\//.test(v) && isUrl(v, ['postgres:', 'postgresql:']),
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
  'master-key': {
    test: (v) => parseMasterKey(v) !== undefined,
    problem: () => 'must be 32 bytes as 64 hex characters or base64',
  },
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
      return (
        u !== undefined &&
        ['http:', 'https:'].includes(u.protocol) &&
        !u.username &&
        !u.password &&
        (u.pathname === '/' || u.pathname === '') &&
        !u.search &&
        !u.hash
      );
    },
    problem: (v) =>
      `"${redact(v)}" is not an http or https origin such as https://api.example.com (no path, query or credentials)`,
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
// loadConfig call. The objects are those TypeBox builds (Type.Object, Type.Integer, Type.String, Type.Enum),
// each variable's with one key more: `env`, the variable's name.
/** The variable `env`, of the JSON Schema `json`, typed as TypeBox's `T`. */
const variable = <T extends TSchema>(env: string, json: object): T => ({ env, ...json }) as unknown as T;
/**
 * A whole number from `minimum` to `maximum`, written in digits only: the text must first be a string of digits
 * (so `1e3`, `0x10`, `+5`, `8.0`, which Ajv's coercion would read as numbers, are refused), then Ajv coerces it to
 * the integer the bounds check (the subschemas run in order on the same value).
 */
const digits = (minimum: number, maximum: number) => ({
  allOf: [
    { type: 'string', pattern: '^[0-9]+$' },
    { type: 'integer', minimum, maximum },
  ],
});
const OptionalInt = (env: string, minimum: number, maximum: number) =>
  variable<TOptional<TInteger>>(env, digits(minimum, maximum));
const Int = (env: string, fallback: number, minimum: number, maximum: number) =>
  variable<TInteger>(env, { ...digits(minimum, maximum), default: fallback });
/** A string with a default. */
const Str = (env: string, fallback: string, format?: keyof typeof FORMATS) =>
  variable<TString>(env, { type: 'string', default: fallback, ...(format && { format }) });
/** A string of one of the {@link FORMATS}, optional. */
const Text = (env: string, format?: keyof typeof FORMATS) =>
  variable<TOptional<TString>>(env, { type: 'string', ...(format && { format }) });
/** One of `values`, `fallback` when unset. */
const OneOf = <const T extends string[]>(env: string, values: T, fallback: T[number]) =>
  variable<TEnum<T>>(env, { enum: values, default: fallback });
/** `true` or `false` (Ajv coerces these two strings and no others to booleans), `false` when unset. */
const OptionalFlag = (env: string) => variable<TOptional<TBoolean>>(env, { type: 'boolean' });
const Flag = (env: string) => variable<TBoolean>(env, { type: 'boolean', default: false });
/** Fields that group variables. */
const Group = <P extends TProperties>(properties: P) => ({ type: 'object', properties }) as unknown as TObject<P>;

/**
 * Every variable the server reads, its type, default and bounds (README.md#configuration), as the field of the
 * {@link Config} it fills. In the order the problems are listed. An empty or blank variable counts as unset;
 * values are trimmed.
 */
const CONFIG_SCHEMA = Group({
  database: Group({
    /** `DATABASE_URL`: every query and transaction goes here. */
    url: Str('DATABASE_URL', 'sqlite:./data/bizapi.db', 'database-url'),
    /**
     * `DATABASE_DIRECT_URL`: the same database without a transaction-mode pooler in between, for what needs a
     * session (the webhook dispatchers' `LISTEN`). Absent: `url` serves, unless `poolMode` is `transaction`.
     */
    directUrl: Text('DATABASE_DIRECT_URL', 'postgres-url'),
    /** `DATABASE_POOL_MODE`: `session` (default: a direct connection, or a session-mode pooler) or `transaction`. */
    poolMode: OneOf('DATABASE_POOL_MODE', ['session', 'transaction'], 'session'),
    /**
     * `BIZAPI_PG_PREPARED`: the hottest queries run as named prepared statements, kept by each server
     * connection (src/db/prepared-query.ts). Default `true`, but `false` with `poolMode: 'transaction'` (a pooler
     * without prepared-statement support hands each transaction any server connection).
     */
    prepared: OptionalFlag('BIZAPI_PG_PREPARED'),
  }),
  masterKey: Text('BIZAPI_MASTER_KEY', 'master-key'),
  trustProxy: Text('BIZAPI_TRUST_PROXY', 'trust-proxy'),
  storage: OneOf('BIZAPI_STORAGE', ['local', 's3'], 'local'),
  /** S3-compatible object storage, read only with `BIZAPI_STORAGE=s3`. */
  s3: Group({
    bucket: Text('S3_BUCKET'),
    endpoint: Text('S3_ENDPOINT', 'http-url'),
    /** `S3_FORCE_PATH_STYLE`: `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO, Ceph, …). */
    forcePathStyle: Flag('S3_FORCE_PATH_STYLE'),
    region: Str('S3_REGION', 'us-east-1'),
    accessKeyId: Text('S3_ACCESS_KEY_ID'),
    secretAccessKey: Text('S3_SECRET_ACCESS_KEY'),
  }),
  // 7 days is the longest lifetime an S3 pre-signed URL may have; 5 GiB the largest single S3 PUT.
  files: Group({
    /** `BIZAPI_UPLOAD_URL_TTL`: seconds a pre-signed upload URL stays valid (default 60, the reference's). */
    uploadUrlTtlSeconds: Int('BIZAPI_UPLOAD_URL_TTL', 60, 1, 604800),
    /** `BIZAPI_DOWNLOAD_URL_TTL`: seconds a pre-signed download URL stays valid (default 3600). */
    downloadUrlTtlSeconds: Int('BIZAPI_DOWNLOAD_URL_TTL', 3600, 1, 604800),
    /** `BIZAPI_UPLOAD_MAX_BYTES`: largest accepted file in bytes (default 50 MiB). */
    maxUploadBytes: Int('BIZAPI_UPLOAD_MAX_BYTES', 50 * 1024 * 1024, 1, 5 * 1024 * 1024 * 1024),
  }),
  /** `REDIS_URL` (`redis://` or `rediss://`), required by `rateLimitStore: 'redis'`. */
  redisUrl: Text('REDIS_URL', 'redis-url'),
  rateLimitStore: variable<TOptional<TEnum<['memory', 'database', 'redis']>>>('BIZAPI_RATE_LIMIT_STORE', {
    enum: ['memory', 'database', 'redis'],
  }),
  /** Absolute path of `BIZAPI_DATA_DIR`: master key, local file storage, e-mail outbox. */
  dataDir: Str('BIZAPI_DATA_DIR', './data'),
  host: Str('HOST', '127.0.0.1'),
  /** TCP port, 0..65535 (0 picks a free port). */
  port: Int('PORT', 8000, 0, 65535),
  signatureMode: OneOf('BIZAPI_SIGNATURE_MODE', ['optional', 'required', 'v2'], 'optional'),
  /**
   * `BIZAPI_IDEMPOTENCY_LOCK_TIMEOUT`, milliseconds (default 60 000): how long the claim of an
   * `Idempotency-Key` whose request never answered (a crashed process) blocks the key; after it, the key can
   * be claimed again (docs/api.md#idempotent-retries). Keep it above `BIZAPI_REQUEST_TIMEOUT`.
   */
  idempotencyLockTimeout: Int('BIZAPI_IDEMPOTENCY_LOCK_TIMEOUT', 60_000, 1000, 86_400_000),
  /** `BIZAPI_EVENT_RETENTION_DAYS` (default 30): days events are kept (docs/api.md#events). */
  eventRetentionDays: Int('BIZAPI_EVENT_RETENTION_DAYS', 30, 1, 3650),
  /** Live followers of the feed (docs/api.md#following-the-feed-live). */
  eventFollowers: Group({
    /** `BIZAPI_EVENT_FOLLOWERS_MAX_PER_BUSINESS` (default 100): long-polls and streams of one business per process, beyond which 429. */
    maxPerBusiness: Int('BIZAPI_EVENT_FOLLOWERS_MAX_PER_BUSINESS', 100, 1, 1_000_000),
    /** `BIZAPI_EVENT_STREAM_HEARTBEAT_MS` (default 15 000): milliseconds between a stream's `: ping` comments. */
    heartbeatMs: Int('BIZAPI_EVENT_STREAM_HEARTBEAT_MS', 15_000, 10, 3_600_000),
  }),
  /**
   * `BIZAPI_WEBHOOK_ALLOW_PRIVATE` (default false): webhook URLs may name loopback, private and other
   * non-public addresses (intranets, tests); the scheme check stays (docs/webhooks.md#url-safety).
   */
  webhookAllowPrivate: Flag('BIZAPI_WEBHOOK_ALLOW_PRIVATE'),
  /**
   * Webhook limits and the webhook dispatcher's fairness (docs/webhooks.md#fairness-and-limits). Attempts in
   * flight are capped per endpoint and per business across every dispatcher sharing the database, and per
   * process in each lane: the normal lane, and the *sick* lane of endpoints whose last `sickAfter` attempts got
   * no answer (timed out, or failed to connect), where such an endpoint gets one attempt at a time until one
   * succeeds. A waiting socket costs little, so the per-process limits are large: every business at its cap
   * must still leave room.
   */
  webhooks: Group({
    /** `BIZAPI_WEBHOOK_MAX_ENDPOINTS` (default 20): endpoints a business may have. */
    maxEndpoints: Int('BIZAPI_WEBHOOK_MAX_ENDPOINTS', 20, 1, 100_000),
    /** `BIZAPI_WEBHOOK_CONCURRENCY` (default 2000): attempts in flight at once in one dispatcher process (normal lane). */
    concurrency: Int('BIZAPI_WEBHOOK_CONCURRENCY', 2000, 1, 100_000),
    /** `BIZAPI_WEBHOOK_PER_ENDPOINT` (default 4): attempts in flight to one endpoint, across dispatchers. */
    perEndpoint: Int('BIZAPI_WEBHOOK_PER_ENDPOINT', 4, 1, 1000),
    /** `BIZAPI_WEBHOOK_PER_BUSINESS` (default 20): attempts in flight of one business in each lane, across dispatchers. */
    perBusiness: Int('BIZAPI_WEBHOOK_PER_BUSINESS', 20, 1, 100_000),
    /** `BIZAPI_WEBHOOK_SICK_CONCURRENCY` (default 1000): attempts in flight at once in one process's sick lane. */
    sickConcurrency: Int('BIZAPI_WEBHOOK_SICK_CONCURRENCY', 1000, 1, 100_000),
    /** `BIZAPI_WEBHOOK_SICK_AFTER` (default 3): attempts in a row without an answer that make an endpoint sick. */
    sickAfter: Int('BIZAPI_WEBHOOK_SICK_AFTER', 3, 1, 1000),
  }),
  /**
   * What `bizapi import --from` reads from a source, at most (docs/deployment.md#source-limits): past a limit
   * the import stops with a message naming the request and the limit.
   */
  importSource: Group({
    /**
     * `BIZAPI_IMPORT_ALLOW_PRIVATE` (default false): attachment downloads may go to loopback, private and other
     * non-public addresses (a source on the intranet, tests); cloud metadata addresses stay refused.
     */
    allowPrivate: Flag('BIZAPI_IMPORT_ALLOW_PRIVATE'),
    /**
     * `BIZAPI_IMPORT_MAX_ANSWER_BYTES` (default 64 MiB): the largest answer (one page or record) read from the
     * source, in bytes. At most 256 MiB: well below the longest string V8 makes (0x1fffffe8 characters).
     */
    maxAnswerBytes: Int('BIZAPI_IMPORT_MAX_ANSWER_BYTES', 64 * 1024 * 1024, 65_536, 256 * 1024 * 1024),
    /** `BIZAPI_IMPORT_MAX_PAGES` (default 10 000): pages read of one list at most (100 records a page). */
    maxPages: Int('BIZAPI_IMPORT_MAX_PAGES', 10_000, 1, 10_000_000),
    /** `BIZAPI_IMPORT_REQUEST_TIMEOUT` (default 120 000): milliseconds one request to the source may take, its whole answer read. */
    requestTimeoutMs: Int('BIZAPI_IMPORT_REQUEST_TIMEOUT', 120_000, 100, 3_600_000),
  }),
  /** `BIZAPI_RATE_LIMIT`: requests per minute per API key; 0 turns rate limiting off. */
  rateLimit: Int('BIZAPI_RATE_LIMIT', 1000, 0, 1_000_000_000),
  smtpUrl: Text('SMTP_URL', 'smtp-url'),
  mailFrom: Str('BIZAPI_MAIL_FROM', 'bizapi <no-reply@localhost>'),
  pushWebhookUrl: Text('PUSH_WEBHOOK_URL', 'http-url'),
  /**
   * The notification outbox dispatcher (README.md#notifications). `mode`: `in-process` runs it inside `bizapi serve`;
   * `off` leaves delivery to a separate `bizapi worker` (which always runs it). A failed delivery is retried
   * after `min(retryBaseMs × 2^(attempt − 1), retryMaxMs)`, at most `maxAttempts` attempts in all.
   */
  dispatcher: Group({
    mode: OneOf('BIZAPI_DISPATCHER', ['in-process', 'off'], 'in-process'),
    /** Pause between two polls of an idle outbox, in milliseconds. */
    pollIntervalMs: Int('BIZAPI_DISPATCHER_POLL_MS', 1000, 10, 3_600_000),
    retryBaseMs: Int('BIZAPI_DISPATCHER_RETRY_BASE_MS', 5000, 1, 86_400_000),
    retryMaxMs: Int('BIZAPI_DISPATCHER_RETRY_MAX_MS', 900_000, 1, 86_400_000),
    maxAttempts: Int('BIZAPI_DISPATCHER_MAX_ATTEMPTS', 10, 1, 1000),
    /** Timeout of one SMTP or push delivery, in milliseconds. */
    timeoutMs: Int('BIZAPI_DISPATCHER_TIMEOUT_MS', 10_000, 100, 600_000),
    businessIds: Text('BIZAPI_DISPATCHER_BUSINESS_IDS', 'id-list'),
  }),
  logLevel: OneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  /** `BIZAPI_METRICS_TOKEN`: when set, `GET /metrics` requires `Authorization: Bearer <token>`. */
  metricsToken: Text('BIZAPI_METRICS_TOKEN'),
  /** Milliseconds to receive a whole request and to produce its response (`BIZAPI_REQUEST_TIMEOUT`). */
  requestTimeout: Int('BIZAPI_REQUEST_TIMEOUT', 30_000, 1, 3_600_000),
  /** Milliseconds an idle keep-alive connection stays open (`BIZAPI_KEEP_ALIVE_TIMEOUT`). */
  keepAliveTimeout: Int('BIZAPI_KEEP_ALIVE_TIMEOUT', 72_000, 1, 3_600_000),
  /** Milliseconds a graceful shutdown may take before the process exits anyway (`BIZAPI_SHUTDOWN_TIMEOUT`). */
  shutdownTimeout: Int('BIZAPI_SHUTDOWN_TIMEOUT', 30_000, 1, 3_600_000),
  /**
   * Milliseconds between the start of a graceful shutdown and closing the listening socket, during which
   * `/readyz` answers 503 and requests are still served, so load balancers stop routing first (`BIZAPI_SHUTDOWN_DELAY`).
   */
  shutdownDelay: Int('BIZAPI_SHUTDOWN_DELAY', 0, 0, 3_600_000),
  /** Event-loop delay in milliseconds beyond which `/v1` requests are shed with 503; 0 = never (`BIZAPI_MAX_EVENT_LOOP_DELAY`). */
  maxEventLoopDelay: Int('BIZAPI_MAX_EVENT_LOOP_DELAY', 1000, 0, 3_600_000),
  /**
   * `BIZAPI_PUBLIC_URL`: the origin clients reach the API at (`https://api.example.com`, no path), used for
   * `next` / `previous` links and pre-signed URLs instead of the request's `Host`; `undefined` when unset
   * (the `Host` header is used, and must be valid). See docs/deployment.md#public-url.
   */
  publicUrl: Text('BIZAPI_PUBLIC_URL', 'http-origin'),
  /** What `bizapi serve --workers` reads (docs/deployment.md#several-processes-on-one-machine-bizapi-serve---workers). */
  cluster: Group({
    /**
     * `BIZAPI_WORKERS` as given (a count or `auto`), the worker count when `--workers` is not: checked by
     * `parseWorkers` (src/cluster.ts) only then, so a bad one stops `bizapi serve` alone.
     */
    workers: Text('BIZAPI_WORKERS'),
    /** `BIZAPI_CLUSTER_WORKER`: the index the `serve` primary gives each worker it forks; `undefined` in any other process. */
    workerIndex: OptionalInt('BIZAPI_CLUSTER_WORKER', 0, 255),
    /** `NODE_OPTIONS`: the Node flags the operator set, which the workers' own V8 flags do not override. */
    nodeOptions: Text('NODE_OPTIONS'),
  }),
});

/** A node of {@link CONFIG_SCHEMA}: a group of fields, or a variable (its name in `env`). */
type SchemaNode = {
  env?: string;
  properties?: Record<string, SchemaNode>;
  type?: string;
  enum?: string[];
  format?: string;
};
type VariableSchema = Omit<SchemaNode, 'env' | 'properties'> & {
  allOf?: [unknown, { minimum: number; maximum: number }];
};
/** Each variable's JSON Schema by its name, in the order of {@link CONFIG_SCHEMA}. */
const VARIABLES: Record<string, VariableSchema> = {};
(function collect({ env, properties, ...json }: SchemaNode) {
  if (env === undefined) Object.values(properties!).forEach(collect);
  else VARIABLES[env] = json;
})(CONFIG_SCHEMA as SchemaNode);
/** The flat schema env-schema validates the variables against. */
const ENV_SCHEMA = { type: 'object', properties: VARIABLES };
const NAMES = Object.keys(VARIABLES);
/** The variables read only with `BIZAPI_STORAGE=s3`. */
const S3_VARIABLES = NAMES.filter((name) => name.startsWith('S3_'));

/** The value of each field of `node` from the variables' `values`: {@link CONFIG_SCHEMA}'s shape. */
function nest(node: SchemaNode, values: Record<string, unknown>): unknown {
  if (node.env !== undefined) return values[node.env];
  return Object.fromEntries(Object.entries(node.properties!).map(([key, child]) => [key, nest(child, values)]));
}

let envSchema: typeof EnvSchemaFn | undefined;
let ajv: Ajv | undefined;
/**
 * Validates `data` against {@link VARIABLES} with env-schema and the Ajv it builds (every error, defaults, types
 * coerced from the text), the {@link FORMATS} added; that Ajv is kept, so the schema is compiled once. Both are
 * loaded by the first call.
 * @throws Error with Ajv's `errors` when a variable is bad
 */
function validate(data: Record<string, string>): Env {
  envSchema ??= createRequire(import.meta.url)('env-schema') as typeof EnvSchemaFn;
  const withFormats = (instance: Ajv) => {
    for (const [name, format] of Object.entries(FORMATS))
      instance.addFormat(name, { type: 'string', validate: format.test });
    return (ajv = instance);
  };
  const values = envSchema({ schema: ENV_SCHEMA, data, env: false, ajv: ajv ?? { customOptions: withFormats } });
  return nest(CONFIG_SCHEMA as SchemaNode, values) as Env;
}

/** The problem a bad value of the variable `name` reports, from its schema. */
function problemOf(name: string, text: string): string {
  const { type, enum: values, format, allOf } = VARIABLES[name]!;
  if (values !== undefined || type === 'boolean')
    return `${name}: "${text}" is not one of ${(values ?? ['true', 'false']).join(', ')}`;
  if (format !== undefined) return `${name}: ${FORMATS[format]!.problem(text)}`;
  return `${name}: "${text}" is not an integer between ${allOf![1].minimum} and ${allOf![1].maximum}`;
}
/**
 * Parses the environment into a {@link Config}, in two steps: the variables against {@link CONFIG_SCHEMA}
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
    for (const name of new Set(errors.map((e) => e.instancePath.slice(1))))
      problems.push([name, problemOf(name, text[name]!)]);
  }
  // The rules that join several variables.
  if (text.BIZAPI_STORAGE === 's3' && text.S3_BUCKET === undefined)
    problems.push(['S3_BUCKET', 'S3_BUCKET: required when BIZAPI_STORAGE=s3']);
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
 * `cwd`, the rate-limit store's default (`redis` with `REDIS_URL`, else `memory`), and the other derived values;
 * every other field as {@link CONFIG_SCHEMA} reads it.
 */
function toConfig(e: Env, cwd: string): Config {
  const { url } = e.database;
  const sqlitePath = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : undefined;
  const tp = e.trustProxy;
  return {
    ...e,
    databaseUrl: url,
    database:
      sqlitePath === undefined
        ? { dialect: 'postgres', ...e.database }
        : { dialect: 'sqlite', path: sqlitePath === ':memory:' ? ':memory:' : path.resolve(cwd, sqlitePath) },
    dataDir: path.resolve(cwd, e.dataDir),
    masterKey: e.masterKey === undefined ? undefined : parseMasterKey(e.masterKey),
    trustProxy: tp === undefined || tp === 'false' ? false : tp === 'true' ? true : /^\d+$/.test(tp) ? Number(tp) : tp,
    s3: e.storage === 's3' ? { ...e.s3, bucket: e.s3.bucket ?? '' } : undefined,
    dispatcher: { ...e.dispatcher, businessIds: e.dispatcher.businessIds?.split(',').map(Number) },
    rateLimitStore: e.rateLimitStore ?? (e.redisUrl !== undefined ? 'redis' : 'memory'),
    rateLimitStoreSet: e.rateLimitStore !== undefined,
    publicUrl: e.publicUrl === undefined ? undefined : new URL(e.publicUrl).origin,
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
