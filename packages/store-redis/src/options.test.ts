import { describe, expect, it } from 'vitest';
import { maskRedisUrl, resolveRedisOptions } from './options.js';

describe('maskRedisUrl', () => {
  it('masks the password and keeps the rest', () => {
    expect(maskRedisUrl('redis://:hunter2@cache:6379/0')).toBe('redis://:****@cache:6379/0');
    expect(maskRedisUrl('rediss://app:hunter2@cache:6380')).toBe('rediss://app:****@cache:6380');
    expect(maskRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });

  it('never echoes a URL it cannot parse', () => {
    expect(maskRedisUrl('redis//:hunter2@cache')).not.toContain('hunter2');
  });
});

describe('resolveRedisOptions', () => {
  it('fills in defaults', () => {
    expect(resolveRedisOptions({ url: 'redis://127.0.0.1:6379' })).toMatchObject({
      connectUrl: 'redis://127.0.0.1:6379',
      prefix: 'wg',
      lockDurationMs: 30_000,
      stalledIntervalMs: 30_000,
      sweepIntervalMs: 30_000,
      busyDelayMs: 250,
    });
  });

  it('takes its own parameters off the URL and leaves the connection’s', () => {
    const resolved = resolveRedisOptions({
      url: 'redis://:pw@127.0.0.1:6379/3?prefix=team-a&lock_duration_ms=2000&family=4&sweep_interval_ms=500',
    });
    expect(resolved).toMatchObject({
      connectUrl: 'redis://:pw@127.0.0.1:6379/3?family=4',
      displayUrl: 'redis://:****@127.0.0.1:6379/3?family=4',
      prefix: 'team-a',
      lockDurationMs: 2000,
      stalledIntervalMs: 2000,
      sweepIntervalMs: 500,
    });
  });

  it('lets explicit options win over the URL', () => {
    const resolved = resolveRedisOptions({ url: 'redis://h:6379?prefix=a', prefix: 'b' });
    expect(resolved.prefix).toBe('b');
  });

  it('names store.url in its errors, without the password', () => {
    expect(() => resolveRedisOptions({ url: 'http://:pw@h:6379' })).toThrow(
      'store.url must start with redis:// or rediss://, not http:// (http://:****@h:6379/)',
    );
    expect(() => resolveRedisOptions({ url: 'not a url' })).toThrow(/store\.url is not a URL/);
    expect(() => resolveRedisOptions({ url: 'redis://h?lock_duration_ms=soon' })).toThrow(
      /store\.url has a bad parameter: lock_duration_ms/,
    );
    expect(() => resolveRedisOptions({ url: 'redis://h?keyPrefix=x' })).toThrow(/use \?prefix=/);
  });
});
