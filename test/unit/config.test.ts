/**
 * Configuration (decisions §6): defaults, every accepted form of each variable, and one ConfigError that
 * names every bad variable at once without echoing secrets.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseMasterKey, sessionUrlOf, usesNamedStatements } from '../../src/config.ts';

const CWD = path.resolve('/srv/bizapi');
const HEX_KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';

/** The ConfigError `loadConfig(env)` throws (fails the test when it does not throw one). */
function problemsOf(env: Record<string, string | undefined>): string[] {
  let caught: unknown;
  try {
    loadConfig(env, CWD);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ConfigError);
  return (caught as ConfigError).problems;
}

describe('loadConfig defaults', () => {
  const config = loadConfig({}, CWD);

  it('uses the embedded SQLite database under ./data, resolved against cwd', () => {
    expect(config.databaseUrl).toBe('sqlite:./data/bizapi.db');
    expect(config.database).toEqual({ dialect: 'sqlite', path: path.join(CWD, 'data', 'bizapi.db') });
    expect(config.dataDir).toBe(path.join(CWD, 'data'));
  });

  it('listens on 127.0.0.1:8000', () => {
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(8000);
  });

  it('has optional signatures, 1000 requests per minute, local storage, log level info', () => {
    expect(config.signatureMode).toBe('optional');
    expect(config.rateLimit).toBe(1000);
    expect(config.storage).toBe('local');
    expect(config.s3).toBeUndefined();
    expect(config.logLevel).toBe('info');
  });

  it('has no master key, proxy trust, SMTP or push webhook unless configured', () => {
    expect(config.masterKey).toBeUndefined();
    expect(config.trustProxy).toBe(false);
    expect(config.smtpUrl).toBeUndefined();
    expect(config.pushWebhookUrl).toBeUndefined();
    expect(typeof config.mailFrom).toBe('string');
  });

  it('treats empty and blank variables as unset', () => {
    const c = loadConfig({ PORT: '', HOST: '   ', DATABASE_URL: '', LOG_LEVEL: ' ' }, CWD);
    expect(c.port).toBe(8000);
    expect(c.host).toBe('127.0.0.1');
    expect(c.database.dialect).toBe('sqlite');
    expect(c.logLevel).toBe('info');
  });

  it('defaults cwd to the process working directory', () => {
    expect(loadConfig({}).dataDir).toBe(path.resolve(process.cwd(), 'data'));
  });
});

describe('loadConfig values', () => {
  it('reads host, port, signature mode, rate limit and log level', () => {
    const c = loadConfig(
      { HOST: '0.0.0.0', PORT: '9000', BIZAPI_SIGNATURE_MODE: 'required', BIZAPI_RATE_LIMIT: '0', LOG_LEVEL: 'debug' },
      CWD,
    );
    expect(c.host).toBe('0.0.0.0');
    expect(c.port).toBe(9000);
    expect(c.signatureMode).toBe('required');
    expect(c.rateLimit).toBe(0);
    expect(c.logLevel).toBe('debug');
  });

  it('accepts port 0 (a free port) and 65535', () => {
    expect(loadConfig({ PORT: '0' }, CWD).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }, CWD).port).toBe(65535);
  });

  it('resolves a relative SQLite path and BIZAPI_DATA_DIR against cwd; keeps absolute ones', () => {
    const c = loadConfig({ DATABASE_URL: 'sqlite:./var/app.db', BIZAPI_DATA_DIR: 'state' }, CWD);
    expect(c.database).toEqual({ dialect: 'sqlite', path: path.join(CWD, 'var', 'app.db') });
    expect(c.dataDir).toBe(path.join(CWD, 'state'));
    const abs = loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.db', BIZAPI_DATA_DIR: '/tmp/data' }, CWD);
    expect(abs.database).toEqual({ dialect: 'sqlite', path: path.resolve('/tmp/x.db') });
    expect(abs.dataDir).toBe(path.resolve('/tmp/data'));
  });

  it('accepts sqlite::memory:', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }, CWD).database).toEqual({
      dialect: 'sqlite',
      path: ':memory:',
    });
  });

  it('accepts postgres:// and postgresql:// URLs', () => {
    const url = 'postgres://bizapi:s3cret@db.internal:5432/bizapi?sslmode=require';
    const c = loadConfig({ DATABASE_URL: url }, CWD);
    expect(c.database).toEqual({ dialect: 'postgres', url, poolMode: 'session' });
    expect(c.databaseUrl).toBe(url);
    expect(loadConfig({ DATABASE_URL: 'postgresql://localhost/bizapi' }, CWD).database).toEqual({
      dialect: 'postgres',
      url: 'postgresql://localhost/bizapi',
      poolMode: 'session',
    });
  });

  it('reads the transaction-mode pooler settings (docs/deployment.md#transaction-mode-poolers-pgbouncer)', () => {
    const url = 'postgres://bizapi:s3cret@pgbouncer:6432/bizapi';
    const direct = 'postgres://bizapi:s3cret@db:5432/bizapi';
    const pooled = loadConfig(
      { DATABASE_URL: url, DATABASE_POOL_MODE: 'transaction', DATABASE_DIRECT_URL: direct },
      CWD,
    ).database;
    expect(pooled).toEqual({ dialect: 'postgres', url, poolMode: 'transaction', directUrl: direct });
    if (pooled.dialect !== 'postgres') throw new Error('postgres expected');
    // no named statements behind the pooler unless asked for; LISTEN on the direct URL, or nowhere
    expect(usesNamedStatements(pooled)).toBe(false);
    expect(sessionUrlOf(pooled)).toBe(direct);
    expect(sessionUrlOf({ ...pooled, directUrl: undefined })).toBeUndefined();
    expect(usesNamedStatements({ ...pooled, prepared: true })).toBe(true);
    const plain = loadConfig({ DATABASE_URL: url, BIZAPI_PG_PREPARED: 'false' }, CWD).database;
    if (plain.dialect !== 'postgres') throw new Error('postgres expected');
    expect(usesNamedStatements(plain)).toBe(false);
    expect(sessionUrlOf(plain)).toBe(url);
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_POOL_MODE: 'statement' }, CWD)).toThrow(
      /DATABASE_POOL_MODE: "statement" is not one of session, transaction/,
    );
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_DIRECT_URL: 'mysql://db/x' }, CWD)).toThrow(
      /DATABASE_DIRECT_URL: "mysql:\/\/db\/x" is not a postgres: or postgresql: URL/,
    );
    expect(() => loadConfig({ DATABASE_URL: url, BIZAPI_PG_PREPARED: 'no' }, CWD)).toThrow(
      /BIZAPI_PG_PREPARED: "no" is not one of true, false/,
    );
  });

  it('accepts a master key as 64 hex characters', () => {
    expect(loadConfig({ BIZAPI_MASTER_KEY: HEX_KEY }, CWD).masterKey).toEqual(Buffer.from(HEX_KEY, 'hex'));
    expect(loadConfig({ BIZAPI_MASTER_KEY: HEX_KEY.toUpperCase() }, CWD).masterKey).toEqual(
      Buffer.from(HEX_KEY, 'hex'),
    );
  });

  it('accepts a master key as base64 (padded or not, standard or URL alphabet)', () => {
    const key = Buffer.from(Array.from({ length: 32 }, (_, i) => 255 - i * 3));
    for (const text of [key.toString('base64'), key.toString('base64url'), key.toString('base64').replace(/=+$/, '')]) {
      expect(loadConfig({ BIZAPI_MASTER_KEY: text }, CWD).masterKey).toEqual(key);
    }
  });

  it('reads BIZAPI_TRUST_PROXY as true, false, a hop count or addresses', () => {
    expect(loadConfig({ BIZAPI_TRUST_PROXY: 'true' }, CWD).trustProxy).toBe(true);
    expect(loadConfig({ BIZAPI_TRUST_PROXY: 'false' }, CWD).trustProxy).toBe(false);
    expect(loadConfig({ BIZAPI_TRUST_PROXY: '2' }, CWD).trustProxy).toBe(2);
    expect(loadConfig({ BIZAPI_TRUST_PROXY: '10.0.0.0/8' }, CWD).trustProxy).toBe('10.0.0.0/8');
    expect(loadConfig({ BIZAPI_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8, ::1' }, CWD).trustProxy).toBe(
      '127.0.0.1, 10.0.0.0/8, ::1',
    );
  });

  it('configures S3 storage', () => {
    const c = loadConfig(
      {
        BIZAPI_STORAGE: 's3',
        S3_BUCKET: 'files',
        S3_ENDPOINT: 'https://s3.example.com',
        S3_ACCESS_KEY_ID: 'AK',
        S3_SECRET_ACCESS_KEY: 'SK',
      },
      CWD,
    );
    expect(c.storage).toBe('s3');
    expect(c.s3).toEqual({
      endpoint: 'https://s3.example.com',
      bucket: 'files',
      region: 'us-east-1',
      accessKeyId: 'AK',
      secretAccessKey: 'SK',
      forcePathStyle: false,
    });
  });

  it('reads SMTP, mail sender and push webhook', () => {
    const c = loadConfig(
      {
        SMTP_URL: 'smtps://user:pw@mail.example.com:465',
        BIZAPI_MAIL_FROM: 'Biz <biz@example.com>',
        PUSH_WEBHOOK_URL: 'https://hooks.example.com/x',
      },
      CWD,
    );
    expect(c.smtpUrl).toBe('smtps://user:pw@mail.example.com:465');
    expect(c.mailFrom).toBe('Biz <biz@example.com>');
    expect(c.pushWebhookUrl).toBe('https://hooks.example.com/x');
  });
});

describe('loadConfig errors', () => {
  it('reports every bad variable at once', () => {
    const problems = problemsOf({
      PORT: '70000',
      BIZAPI_SIGNATURE_MODE: 'sometimes',
      DATABASE_URL: 'mysql://root@localhost/bizapi',
      BIZAPI_MASTER_KEY: 'too-short',
      SMTP_URL: 'http://mail.example.com',
      LOG_LEVEL: 'verbose',
      BIZAPI_STORAGE: 's3',
    });
    const names = [
      'PORT',
      'BIZAPI_SIGNATURE_MODE',
      'DATABASE_URL',
      'BIZAPI_MASTER_KEY',
      'SMTP_URL',
      'LOG_LEVEL',
      'S3_BUCKET',
    ];
    for (const name of names) {
      expect(
        problems.some((p) => p.startsWith(`${name}:`)),
        name,
      ).toBe(true);
    }
    expect(problems).toHaveLength(names.length);
  });

  it('puts every problem into the error message', () => {
    let caught: unknown;
    try {
      loadConfig({ PORT: 'abc', LOG_LEVEL: 'loud' }, CWD);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect(caught).toBeInstanceOf(Error);
    const err = caught as ConfigError;
    expect(err.name).toBe('ConfigError');
    expect(err.message).toContain('PORT');
    expect(err.message).toContain('LOG_LEVEL');
  });

  it('rejects bad ports', () => {
    for (const port of ['abc', '-1', '65536', '80.5', '1e3', '0x50']) {
      expect(problemsOf({ PORT: port }), port).toEqual([expect.stringMatching(/^PORT:/)]);
    }
  });

  it('rejects a negative or non-numeric rate limit', () => {
    expect(problemsOf({ BIZAPI_RATE_LIMIT: '-5' })).toEqual([expect.stringMatching(/^BIZAPI_RATE_LIMIT:/)]);
    expect(problemsOf({ BIZAPI_RATE_LIMIT: 'many' })).toEqual([expect.stringMatching(/^BIZAPI_RATE_LIMIT:/)]);
  });

  it('rejects an empty sqlite path and a malformed postgres URL', () => {
    expect(problemsOf({ DATABASE_URL: 'sqlite:' })).toEqual([expect.stringMatching(/^DATABASE_URL:/)]);
    expect(problemsOf({ DATABASE_URL: 'postgres://host:notaport/db' })).toEqual([
      expect.stringMatching(/^DATABASE_URL:/),
    ]);
  });

  it('rejects master keys of the wrong length or alphabet', () => {
    for (const key of [
      HEX_KEY.slice(2),
      `${HEX_KEY}00`,
      Buffer.alloc(16).toString('base64'),
      Buffer.alloc(33).toString('base64'),
      'not a key!',
    ]) {
      expect(problemsOf({ BIZAPI_MASTER_KEY: key }), key).toEqual([expect.stringMatching(/^BIZAPI_MASTER_KEY:/)]);
    }
  });

  it('rejects a bad BIZAPI_TRUST_PROXY, BIZAPI_STORAGE, S3_ENDPOINT or PUSH_WEBHOOK_URL', () => {
    expect(problemsOf({ BIZAPI_TRUST_PROXY: 'yes please' })).toEqual([expect.stringMatching(/^BIZAPI_TRUST_PROXY:/)]);
    expect(problemsOf({ BIZAPI_STORAGE: 'gcs' })).toEqual([expect.stringMatching(/^BIZAPI_STORAGE:/)]);
    expect(problemsOf({ BIZAPI_STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://x' })).toEqual([
      expect.stringMatching(/^S3_ENDPOINT:/),
    ]);
    expect(problemsOf({ PUSH_WEBHOOK_URL: 'not a url' })).toEqual([expect.stringMatching(/^PUSH_WEBHOOK_URL:/)]);
  });

  it('never echoes the password of a bad DATABASE_URL or SMTP_URL', () => {
    const problems = problemsOf({
      DATABASE_URL: 'mysql://admin:hunter2-secret@db.example.com/bizapi',
      SMTP_URL: 'http://mailer:smtp-secret-pw@mail.example.com',
    });
    const text = problems.join('\n');
    expect(text).not.toContain('hunter2-secret');
    expect(text).not.toContain('smtp-secret-pw');
    expect(text).toContain('DATABASE_URL');
    expect(text).toContain('db.example.com');
    const malformedPg = problemsOf({ DATABASE_URL: 'postgres://admin:pg-secret-pw@db.example.com:port/bizapi' }).join(
      '\n',
    );
    expect(malformedPg).not.toContain('pg-secret-pw');
  });

  it('never echoes any part of a password that contains "@", or of one without a user name', () => {
    const text = [
      ...problemsOf({ DATABASE_URL: 'mysql://admin:pa55@word-secret@db.example.com/bizapi' }),
      ...problemsOf({ DATABASE_URL: 'mysql://:lonely-secret@db.example.com/bizapi' }),
    ].join('\n');
    expect(text).not.toContain('word-secret');
    expect(text).not.toContain('lonely-secret');
  });
});

describe('parseMasterKey', () => {
  it('decodes hex and base64, trimming whitespace', () => {
    expect(parseMasterKey(`${HEX_KEY}\n`)).toEqual(Buffer.from(HEX_KEY, 'hex'));
    const key = Buffer.alloc(32, 0x5a);
    expect(parseMasterKey(` ${key.toString('base64')} `)).toEqual(key);
  });

  it('returns undefined for anything else', () => {
    for (const text of ['', 'xyz', HEX_KEY.slice(1), Buffer.alloc(31).toString('base64'), 'g'.repeat(64)]) {
      expect(parseMasterKey(text), text).toBeUndefined();
    }
  });
});

describe('loadConfig attachments (decisions §7 "Files")', () => {
  it('defaults to 60 s upload URLs, 1 h download URLs and 50 MiB files', () => {
    expect(loadConfig({}, CWD).files).toEqual({
      uploadUrlTtlSeconds: 60,
      downloadUrlTtlSeconds: 3600,
      maxUploadBytes: 52428800,
    });
  });

  it('reads BIZAPI_UPLOAD_URL_TTL, BIZAPI_DOWNLOAD_URL_TTL, BIZAPI_UPLOAD_MAX_BYTES and S3_FORCE_PATH_STYLE', () => {
    const c = loadConfig(
      {
        BIZAPI_UPLOAD_URL_TTL: '300',
        BIZAPI_DOWNLOAD_URL_TTL: '600',
        BIZAPI_UPLOAD_MAX_BYTES: '1048576',
        BIZAPI_STORAGE: 's3',
        S3_BUCKET: 'b',
        S3_FORCE_PATH_STYLE: 'true',
      },
      CWD,
    );
    expect(c.files).toEqual({ uploadUrlTtlSeconds: 300, downloadUrlTtlSeconds: 600, maxUploadBytes: 1048576 });
    expect(c.s3?.forcePathStyle).toBe(true);
  });

  it('rejects lifetimes beyond 7 days (the S3 maximum), zero, and sizes that are not positive integers', () => {
    const problems = problemsOf({
      BIZAPI_UPLOAD_URL_TTL: '604801',
      BIZAPI_DOWNLOAD_URL_TTL: '0',
      BIZAPI_UPLOAD_MAX_BYTES: '10MB',
      BIZAPI_STORAGE: 's3',
      S3_BUCKET: 'b',
      S3_FORCE_PATH_STYLE: 'yes',
    });
    for (const name of [
      'BIZAPI_UPLOAD_URL_TTL',
      'BIZAPI_DOWNLOAD_URL_TTL',
      'BIZAPI_UPLOAD_MAX_BYTES',
      'S3_FORCE_PATH_STYLE',
    ]) {
      expect(
        problems.some((p) => p.startsWith(`${name}:`)),
        name,
      ).toBe(true);
    }
    expect(problems).toHaveLength(4);
  });
});
