/**
 * Configuration of notifications (decisions §6, §8): the dispatcher settings, SMTP and push, with their
 * defaults and their errors.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { emlFileName } from '../../src/modules/notification/notification.channels.ts';
import { leaseMs, retryDelayMs } from '../../src/jobs/outbox-dispatcher.ts';

const CWD = path.resolve('/srv/bizapi');

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, CWD);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('notification configuration', () => {
  it('defaults: dispatcher in the server, 1 s polls, 5 s doubling to 15 min, 10 attempts, 10 s timeouts; no SMTP, no push', () => {
    const c = loadConfig({}, CWD);
    expect(c.dispatcher).toEqual({
      mode: 'in-process',
      pollIntervalMs: 1000,
      retryBaseMs: 5000,
      retryMaxMs: 900_000,
      maxAttempts: 10,
      timeoutMs: 10_000,
      businessIds: undefined,
    });
    expect(c.smtpUrl).toBeUndefined();
    expect(c.pushWebhookUrl).toBeUndefined();
    expect(c.mailFrom).toBe('bizapi <no-reply@localhost>');
  });

  it('reads every variable', () => {
    const c = loadConfig(
      {
        BIZAPI_DISPATCHER: 'off',
        BIZAPI_DISPATCHER_POLL_MS: '250',
        BIZAPI_DISPATCHER_RETRY_BASE_MS: '1000',
        BIZAPI_DISPATCHER_RETRY_MAX_MS: '60000',
        BIZAPI_DISPATCHER_MAX_ATTEMPTS: '3',
        BIZAPI_DISPATCHER_TIMEOUT_MS: '2500',
        BIZAPI_DISPATCHER_BUSINESS_IDS: '7, 12,3',
        SMTP_URL: 'smtps://user:pass@mail.example.com:465',
        BIZAPI_MAIL_FROM: 'CRM <crm@example.com>',
        PUSH_WEBHOOK_URL: 'https://push.example.com/hook',
      },
      CWD,
    );
    expect(c.dispatcher).toEqual({
      mode: 'off',
      pollIntervalMs: 250,
      retryBaseMs: 1000,
      retryMaxMs: 60_000,
      maxAttempts: 3,
      timeoutMs: 2500,
      businessIds: [7, 12, 3],
    });
    expect(c.smtpUrl).toBe('smtps://user:pass@mail.example.com:465');
    expect(c.mailFrom).toBe('CRM <crm@example.com>');
    expect(c.pushWebhookUrl).toBe('https://push.example.com/hook');
  });

  it('names every bad variable, without echoing the SMTP password', () => {
    const problems = problemsOf({
      BIZAPI_DISPATCHER: 'sometimes',
      BIZAPI_DISPATCHER_POLL_MS: '0',
      BIZAPI_DISPATCHER_RETRY_BASE_MS: 'soon',
      BIZAPI_DISPATCHER_MAX_ATTEMPTS: '0',
      BIZAPI_DISPATCHER_TIMEOUT_MS: '-1',
      BIZAPI_DISPATCHER_BUSINESS_IDS: '4,,x',
      SMTP_URL: 'http://user:secret@mail.example.com',
      PUSH_WEBHOOK_URL: 'ftp://push.example.com',
    });
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'SMTP_URL',
      'PUSH_WEBHOOK_URL',
      'BIZAPI_DISPATCHER',
      'BIZAPI_DISPATCHER_POLL_MS',
      'BIZAPI_DISPATCHER_RETRY_BASE_MS',
      'BIZAPI_DISPATCHER_MAX_ATTEMPTS',
      'BIZAPI_DISPATCHER_TIMEOUT_MS',
      'BIZAPI_DISPATCHER_BUSINESS_IDS',
    ]);
    expect(problems.join('\n')).not.toContain('secret');
  });
});

describe('retry and lease arithmetic', () => {
  it('doubles the delay from the base up to the maximum', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, 5000, 30_000))).toEqual([
      5000, 10_000, 20_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('leases a row for longer than three channel timeouts', () => {
    expect(leaseMs(10_000)).toBeGreaterThan(3 * 10_000);
  });

  it('names .eml files by event time and outbox id', () => {
    expect(emlFileName({ outboxId: 42, created: '2026-11-22T05:31:56.123Z' })).toBe('20261122T053156Z-00000042.eml');
  });
});
