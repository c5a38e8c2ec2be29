import { describe, expect, it } from 'vitest';
import { QueueKeys } from 'bullmq';
import { isHookgateError } from '@hookgate/errors';
import {
  DEFAULT_QUEUE_PREFIX,
  jobKey,
  pluginOfQueueName,
  reconcileQueueName,
  validateQueuePrefix,
} from './queue-names.js';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isHookgateError(error) ? error.code : 'not a HookgateError';
  }
  return undefined;
}

describe('reconcileQueueName', () => {
  it.each([
    { name: 'a plain name', plugin: 'ledger', want: 'hookgate-reconcile-ledger' },
    { name: 'a subdomain', plugin: 'dns.example-1.io', want: 'hookgate-reconcile-dns.example-1.io' },
    {
      name: 'the longest name',
      plugin: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`,
      want: undefined,
    },
  ])('accepts $name', ({ plugin, want }) => {
    const name = reconcileQueueName(plugin);
    expect(name).toBe(want ?? `hookgate-reconcile-${plugin}`);
    expect(pluginOfQueueName(name)).toBe(plugin);
  });

  it.each([
    { name: 'empty', plugin: '' },
    { name: 'uppercase', plugin: 'Ledger' },
    { name: 'a colon (BullMQ key separator)', plugin: 'a:b' },
    { name: 'braces (a Cluster hash tag)', plugin: '{x}' },
    { name: 'a leading dash', plugin: '-x' },
    { name: 'an underscore', plugin: 'pod_defaults' },
    { name: 'longer than 253', plugin: 'a'.repeat(254) },
  ])('refuses $name with HG_ERR_QUEUE_OPTION_INVALID', ({ plugin }) => {
    expect(codeOf(() => reconcileQueueName(plugin))).toBe('HG_ERR_QUEUE_OPTION_INVALID');
  });

  it('knows no plugin for a queue that is not a reconcile queue', () => {
    expect(pluginOfQueueName('other-queue')).toBeUndefined();
    expect(pluginOfQueueName('hookgate-reconcile-')).toBeUndefined();
  });
});

describe('validateQueuePrefix', () => {
  it.each(['{hookgate}', 'hookgate', '{hookgate-ledger}', 'bull', 'env.{hg}_1'])('accepts %s', (prefix) => {
    expect(validateQueuePrefix(prefix)).toBe(prefix);
  });

  it.each(['', 'a:b', '{}', '{a}{b}', '{a', 'a}', 'has space', 'x'.repeat(65)])('refuses %j', (prefix) => {
    expect(codeOf(() => validateQueuePrefix(prefix))).toBe('HG_ERR_QUEUE_OPTION_INVALID');
  });

  it('defaults to a Cluster hash tag', () => {
    expect(DEFAULT_QUEUE_PREFIX).toMatch(/^\{[^}]+\}$/);
  });
});

describe('jobKey', () => {
  it("is BullMQ's key of the job hash", () => {
    const queue = reconcileQueueName('ledger');
    expect(jobKey(DEFAULT_QUEUE_PREFIX, queue, 'se1-abc')).toBe(
      new QueueKeys(DEFAULT_QUEUE_PREFIX).toKey(queue, 'se1-abc'),
    );
  });
});
