import { describe, expect, it } from 'vitest';
import { isHookgateError } from '@hookgate/errors';
import {
  PRODUCER_DEFAULTS,
  redactRedisUrl,
  resolveProducerOptions,
  type SideEffectProducerOptions,
} from './producer-options.js';

const redisUrl = 'redis://127.0.0.1:6379';

describe('resolveProducerOptions', () => {
  it('fills in the defaults', () => {
    expect(resolveProducerOptions({ redisUrl })).toEqual({ redisUrl, ...PRODUCER_DEFAULTS });
    expect(PRODUCER_DEFAULTS.prefix).toBe('{hookgate}');
  });

  it('keeps what it is given', () => {
    const given = {
      redisUrl: 'rediss://user:pw@redis.example:6380/2',
      prefix: '{hookgate-ledger}',
      addTimeoutMs: 250,
      connectTimeoutMs: 500,
      keepCompleted: { ageSeconds: 60, count: 10 },
      attempts: 3,
    };
    expect(resolveProducerOptions(given)).toEqual(given);
  });

  it.each<{ name: string; options: Partial<SideEffectProducerOptions>; message: RegExp }>([
    {
      name: 'a URL that is not redis://',
      options: { redisUrl: 'http://127.0.0.1:6379' },
      message: /^invalid redisUrl "http:/,
    },
    { name: 'not a URL', options: { redisUrl: 'localhost:6379' }, message: /^invalid redisUrl/ },
    { name: 'a prefix with ":"', options: { prefix: 'a:b' }, message: /^invalid queue prefix "a:b"/ },
    {
      name: 'addTimeoutMs 0',
      options: { addTimeoutMs: 0 },
      message: /^invalid addTimeoutMs 0: must be an integer of at least 1$/,
    },
    {
      name: 'connectTimeoutMs not a number',
      options: { connectTimeoutMs: Number.NaN },
      message: /^invalid connectTimeoutMs NaN/,
    },
    { name: 'fractional attempts', options: { attempts: 1.5 }, message: /^invalid attempts 1.5/ },
    {
      name: 'a retention count of 0',
      options: { keepCompleted: { ageSeconds: 60, count: 0 } },
      message: /^invalid keepCompleted.count 0/,
    },
    {
      name: 'a retention age of 0',
      options: { keepCompleted: { ageSeconds: 0, count: 1 } },
      message: /^invalid keepCompleted.ageSeconds 0/,
    },
  ])('refuses $name with HG_ERR_QUEUE_OPTION_INVALID', ({ options, message }) => {
    let caught: unknown;
    try {
      resolveProducerOptions({ redisUrl, ...options });
    } catch (error) {
      caught = error;
    }
    expect(isHookgateError(caught, 'HG_ERR_QUEUE_OPTION_INVALID'), String(caught)).toBe(true);
    expect((caught as Error).message).toMatch(message);
  });

  it('does not repeat a password when refusing a URL', () => {
    expect(() => resolveProducerOptions({ redisUrl: 'http://u:secret@host:1' })).toThrow(/u:\*\*\*@host/);
  });
});

describe('redactRedisUrl', () => {
  it.each([
    { url: 'redis://:secret@127.0.0.1:6379/0', want: 'redis://:***@127.0.0.1:6379/0' },
    { url: 'rediss://user:secret@redis.example:6380', want: 'rediss://user:***@redis.example:6380' },
    { url: 'redis://127.0.0.1:6379', want: 'redis://127.0.0.1:6379' },
    { url: 'not a url', want: 'not a url' },
    { url: 'u:secret@host:6379', want: 'u:***@host:6379' },
  ])('$url', ({ url, want }) => {
    expect(redactRedisUrl(url)).toBe(want);
  });
});
