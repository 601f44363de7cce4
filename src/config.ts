/**
 * Configuration: one schema for the environment, parsed once (README.md#configuration).
 *
 * Nothing else in the project reads `process.env`: the entry points call {@link loadConfig} and pass the
 * result to `buildApp(config)` and the CLI commands.
 */
import path from 'node:path';

/**
 * How `X-Signature` is enforced (docs/authentication.md#signature-modes): `optional` (unsigned passes, a
 * signature of either version must verify), `required` (either version required), `v2` (only version 2).
 */
export type SignatureMode = 'optional' | 'required' | 'v2';

/** Where the database lives: a SQLite file (or `:memory:`), or a PostgreSQL connection string. */
export type DatabaseConfig = { dialect: 'sqlite'; path: string } | { dialect: 'postgres'; url: string };

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
   * `BIZAPI_WEBHOOK_ALLOW_PRIVATE` (default false): webhook URLs may name loopback, private and other
   * non-public addresses (intranets, tests); the scheme check stays (docs/webhooks.md#url-safety).
   */
  webhookAllowPrivate: boolean;
  /** Webhook endpoint cap and dispatcher limits (`BIZAPI_WEBHOOK_*`). */
  webhooks: WebhookConfig;
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
}

/** Thrown by {@link loadConfig}; `problems` names every bad variable, one line each. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Parses the environment into a {@link Config}.
 *
 * @param env variables to read (usually `process.env`, merged with an optional `.env` file by the caller)
 * @param cwd directory that relative paths (`sqlite:./data/x.db`, `BIZAPI_DATA_DIR`) resolve against
 * @throws ConfigError listing every invalid variable, not just the first
 */
export function loadConfig(env: Record<string, string | undefined>, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  const get = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  /** A comma-separated list of positive integer ids; unset → `undefined`. */
  const idList = (name: string): number[] | undefined => {
    const v = get(name);
    if (v === undefined) return undefined;
    const parts = v.split(',').map((p) => p.trim());
    if (parts.some((p) => !/^[1-9]\d{0,14}$/.test(p))) {
      problems.push(`${name}: "${v}" is not a comma-separated list of positive integer ids`);
      return undefined;
    }
    return parts.map(Number);
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const v = get(name);
    if (v === undefined) return fallback;
    if ((allowed as readonly string[]).includes(v)) return v as T;
    problems.push(`${name}: "${v}" is not one of ${allowed.join(', ')}`);
    return fallback;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const v = get(name);
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      problems.push(`${name}: "${v}" is not an integer between ${min} and ${max}`);
      return fallback;
    }
    return Number(v);
  };
  const url = (name: string, protocols: string[]): string | undefined => {
    const v = get(name);
    if (v === undefined) return undefined;
    try {
      const u = new URL(v);
      if (!protocols.includes(u.protocol)) throw new Error('protocol');
      return v;
    } catch {
      problems.push(`${name}: "${redact(v)}" is not a ${protocols.join(' or ')} URL`);
      return undefined;
    }
  };

  /** An `http(s)://host[:port]` origin with no path, query or credentials; returned without a trailing slash. */
  const origin = (name: string): string | undefined => {
    const v = get(name);
    if (v === undefined) return undefined;
    try {
      const u = new URL(v);
      if (!['http:', 'https:'].includes(u.protocol)) throw new Error('protocol');
      if (u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash) throw new Error('parts');
      return u.origin;
    } catch {
      problems.push(`${name}: "${redact(v)}" is not an http or https origin such as https://api.example.com (no path, query or credentials)`);
      return undefined;
    }
  };

  const dataDir = path.resolve(cwd, get('BIZAPI_DATA_DIR') ?? './data');

  const databaseUrl = get('DATABASE_URL') ?? 'sqlite:./data/bizapi.db';
  let database: DatabaseConfig = { dialect: 'sqlite', path: path.resolve(cwd, 'data/bizapi.db') };
  if (databaseUrl.startsWith('sqlite:')) {
    const p = databaseUrl.slice('sqlite:'.length);
    if (p === '') problems.push('DATABASE_URL: "sqlite:" needs a path, e.g. sqlite:./data/bizapi.db');
    else database = { dialect: 'sqlite', path: p === ':memory:' ? ':memory:' : path.resolve(cwd, p) };
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    if (url('DATABASE_URL', ['postgres:', 'postgresql:']) !== undefined) database = { dialect: 'postgres', url: databaseUrl };
  } else {
    problems.push(`DATABASE_URL: "${redact(databaseUrl)}" must start with sqlite: or postgres://`);
  }

  let masterKey: Buffer | undefined;
  const mk = get('BIZAPI_MASTER_KEY');
  if (mk !== undefined) {
    masterKey = parseMasterKey(mk);
    if (masterKey === undefined) problems.push('BIZAPI_MASTER_KEY: must be 32 bytes as 64 hex characters or base64');
  }

  let trustProxy: boolean | number | string = false;
  const tp = get('BIZAPI_TRUST_PROXY');
  if (tp !== undefined) {
    if (tp === 'true' || tp === 'false') trustProxy = tp === 'true';
    else if (/^\d+$/.test(tp)) trustProxy = Number(tp);
    else if (/^[0-9a-fA-F:./,\s]+$/.test(tp)) trustProxy = tp;
    else problems.push(`BIZAPI_TRUST_PROXY: "${tp}" is not true, false, a hop count or a list of addresses`);
  }

  const storage = oneOf('BIZAPI_STORAGE', ['local', 's3'] as const, 'local');
  let s3: S3Config | undefined;
  if (storage === 's3') {
    const bucket = get('S3_BUCKET');
    if (bucket === undefined) problems.push('S3_BUCKET: required when BIZAPI_STORAGE=s3');
    s3 = {
      endpoint: url('S3_ENDPOINT', ['http:', 'https:']),
      bucket: bucket ?? '',
      region: get('S3_REGION') ?? 'us-east-1',
      accessKeyId: get('S3_ACCESS_KEY_ID'),
      secretAccessKey: get('S3_SECRET_ACCESS_KEY'),
      forcePathStyle: oneOf('S3_FORCE_PATH_STYLE', ['true', 'false'] as const, 'false') === 'true',
    };
  }

  // 7 days is the longest lifetime an S3 pre-signed URL may have; 5 GiB the largest single S3 PUT.
  const files: FilesConfig = {
    uploadUrlTtlSeconds: integer('BIZAPI_UPLOAD_URL_TTL', 60, 1, 604800),
    downloadUrlTtlSeconds: integer('BIZAPI_DOWNLOAD_URL_TTL', 3600, 1, 604800),
    maxUploadBytes: integer('BIZAPI_UPLOAD_MAX_BYTES', 50 * 1024 * 1024, 1, 5 * 1024 * 1024 * 1024),
  };
  const redisUrl = url('REDIS_URL', ['redis:', 'rediss:']);
  const rateLimitStore = oneOf('BIZAPI_RATE_LIMIT_STORE', ['memory', 'database', 'redis'] as const, redisUrl ? 'redis' : 'memory');
  if (rateLimitStore === 'redis' && get('REDIS_URL') === undefined) problems.push('BIZAPI_RATE_LIMIT_STORE: "redis" needs REDIS_URL');

  const config: Config = {
    databaseUrl,
    database,
    host: get('HOST') ?? '127.0.0.1',
    port: integer('PORT', 8000, 0, 65535),
    dataDir,
    masterKey,
    signatureMode: oneOf('BIZAPI_SIGNATURE_MODE', ['optional', 'required', 'v2'] as const, 'optional'),
    idempotencyLockTimeout: integer('BIZAPI_IDEMPOTENCY_LOCK_TIMEOUT', 60_000, 1000, 86_400_000),
    eventRetentionDays: integer('BIZAPI_EVENT_RETENTION_DAYS', 30, 1, 3650),
    webhookAllowPrivate: oneOf('BIZAPI_WEBHOOK_ALLOW_PRIVATE', ['true', 'false'] as const, 'false') === 'true',
    webhooks: {
      maxEndpoints: integer('BIZAPI_WEBHOOK_MAX_ENDPOINTS', 20, 1, 100_000),
      concurrency: integer('BIZAPI_WEBHOOK_CONCURRENCY', 2000, 1, 100_000),
      perEndpoint: integer('BIZAPI_WEBHOOK_PER_ENDPOINT', 4, 1, 1000),
      perBusiness: integer('BIZAPI_WEBHOOK_PER_BUSINESS', 20, 1, 100_000),
      sickConcurrency: integer('BIZAPI_WEBHOOK_SICK_CONCURRENCY', 1000, 1, 100_000),
      sickAfter: integer('BIZAPI_WEBHOOK_SICK_AFTER', 3, 1, 1000),
    },
    rateLimit: integer('BIZAPI_RATE_LIMIT', 1000, 0, 1_000_000_000),
    trustProxy,
    storage,
    s3,
    files,
    smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: get('BIZAPI_MAIL_FROM') ?? 'bizapi <no-reply@localhost>',
    pushWebhookUrl: url('PUSH_WEBHOOK_URL', ['http:', 'https:']),
    dispatcher: {
      mode: oneOf('BIZAPI_DISPATCHER', ['in-process', 'off'] as const, 'in-process'),
      pollIntervalMs: integer('BIZAPI_DISPATCHER_POLL_MS', 1000, 10, 3_600_000),
      retryBaseMs: integer('BIZAPI_DISPATCHER_RETRY_BASE_MS', 5000, 1, 86_400_000),
      retryMaxMs: integer('BIZAPI_DISPATCHER_RETRY_MAX_MS', 900_000, 1, 86_400_000),
      maxAttempts: integer('BIZAPI_DISPATCHER_MAX_ATTEMPTS', 10, 1, 1000),
      timeoutMs: integer('BIZAPI_DISPATCHER_TIMEOUT_MS', 10_000, 100, 600_000),
      businessIds: idList('BIZAPI_DISPATCHER_BUSINESS_IDS'),
    },
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    rateLimitStore,
    redisUrl,
    metricsToken: get('BIZAPI_METRICS_TOKEN'),
    requestTimeout: integer('BIZAPI_REQUEST_TIMEOUT', 30_000, 1, 3_600_000),
    keepAliveTimeout: integer('BIZAPI_KEEP_ALIVE_TIMEOUT', 72_000, 1, 3_600_000),
    shutdownTimeout: integer('BIZAPI_SHUTDOWN_TIMEOUT', 30_000, 1, 3_600_000),
    shutdownDelay: integer('BIZAPI_SHUTDOWN_DELAY', 0, 0, 3_600_000),
    maxEventLoopDelay: integer('BIZAPI_MAX_EVENT_LOOP_DELAY', 1000, 0, 3_600_000),
    publicUrl: origin('BIZAPI_PUBLIC_URL'),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
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

/** Hides the password of a URL before it is printed. */
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
