/**
 * The operation settings of the configuration: rate-limit store and Redis, metrics token, timeouts, load
 * shedding and shutdown — defaults, accepted values, and errors naming each bad variable without secrets.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, '/srv/bizapi');
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('loadConfig did not throw');
}

describe('operation settings', () => {
  it('defaults: memory counters, no Redis, open metrics, 30 s requests, 72 s keep-alive, shedding past 1 s of lag, immediate 30 s shutdown', () => {
    const c = loadConfig({}, '/srv/bizapi');
    expect(c).toMatchObject({
      rateLimitStore: 'memory',
      redisUrl: undefined,
      metricsToken: undefined,
      requestTimeout: 30_000,
      keepAliveTimeout: 72_000,
      maxEventLoopDelay: 1000,
      shutdownDelay: 0,
      shutdownTimeout: 30_000,
    });
  });

  it('shares the counters through Redis when REDIS_URL is set, unless BIZAPI_RATE_LIMIT_STORE says otherwise', () => {
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379/0' }).rateLimitStore).toBe('redis');
    expect(loadConfig({ REDIS_URL: 'rediss://cache:6380' }).redisUrl).toBe('rediss://cache:6380');
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379', BIZAPI_RATE_LIMIT_STORE: 'database' }).rateLimitStore).toBe(
      'database',
    );
    expect(loadConfig({ BIZAPI_RATE_LIMIT_STORE: 'database' }).rateLimitStore).toBe('database');
  });

  it('reads the metrics token, the timeouts, the shedding threshold and the shutdown settings', () => {
    const c = loadConfig({
      BIZAPI_METRICS_TOKEN: 'tok',
      BIZAPI_REQUEST_TIMEOUT: '5000',
      BIZAPI_KEEP_ALIVE_TIMEOUT: '65000',
      BIZAPI_MAX_EVENT_LOOP_DELAY: '0',
      BIZAPI_SHUTDOWN_DELAY: '10000',
      BIZAPI_SHUTDOWN_TIMEOUT: '45000',
    });
    expect(c).toMatchObject({
      metricsToken: 'tok',
      requestTimeout: 5000,
      keepAliveTimeout: 65_000,
      maxEventLoopDelay: 0,
      shutdownDelay: 10_000,
      shutdownTimeout: 45_000,
    });
  });

  it('names every bad variable, and never prints the Redis password', () => {
    const problems = problemsOf({
      BIZAPI_RATE_LIMIT_STORE: 'etcd',
      REDIS_URL: 'http://user:hunter2@cache:6379',
      BIZAPI_REQUEST_TIMEOUT: '0',
      BIZAPI_KEEP_ALIVE_TIMEOUT: 'soon',
      BIZAPI_MAX_EVENT_LOOP_DELAY: '-1',
      BIZAPI_SHUTDOWN_DELAY: '1.5',
      BIZAPI_SHUTDOWN_TIMEOUT: 'forever',
    });
    for (const name of [
      'BIZAPI_RATE_LIMIT_STORE',
      'REDIS_URL',
      'BIZAPI_REQUEST_TIMEOUT',
      'BIZAPI_KEEP_ALIVE_TIMEOUT',
      'BIZAPI_MAX_EVENT_LOOP_DELAY',
      'BIZAPI_SHUTDOWN_DELAY',
      'BIZAPI_SHUTDOWN_TIMEOUT',
    ]) {
      expect(
        problems.some((p) => p.startsWith(`${name}:`)),
        name,
      ).toBe(true);
    }
    expect(problems.join('\n')).not.toContain('hunter2');
  });

  it('refuses BIZAPI_RATE_LIMIT_STORE=redis without REDIS_URL', () => {
    expect(problemsOf({ BIZAPI_RATE_LIMIT_STORE: 'redis' })).toEqual([
      'BIZAPI_RATE_LIMIT_STORE: "redis" needs REDIS_URL',
    ]);
  });
});
