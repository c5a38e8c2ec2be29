/**
 * The contract StandardJobAdd relies on: for a side-effect job, the script call it makes is the
 * one BullMQ's own add makes (command and version, keys, packed arguments, data, packed options).
 * Neither sends anything (both calls are recorded). A bullmq upgrade that changes the add script's
 * arguments fails here; then follow BullMQ's addJobToTransaction or drop the fast path.
 */
import { describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { BACKOFF_TYPE } from './backoff.js';
import { prepareJob, withStringField } from './prepared-job.js';
import { JOB_NAMES, reconcileQueueName } from './queue-names.js';
import { bullmqAddCall, StandardJobAdd, type ScriptClient } from './standard-job-add.js';
import { sampleJob } from './testing/sample-job.js';
import bullmqPackage from 'bullmq/package.json' with { type: 'json' };

const options = {
  attempts: 12,
  backoff: { type: BACKOFF_TYPE },
  removeOnComplete: { age: 86_400, count: 100_000 },
  removeOnFail: false,
} as const;

function queue(): Queue {
  // Never connects: the connection is lazy and nothing here awaits the client.
  return new Queue(reconcileQueueName('ledger'), {
    connection: { host: '127.0.0.1', port: 1, lazyConnect: true },
    prefix: '{hgtest-contract}',
  });
}

describe('StandardJobAdd', () => {
  it('makes the script call BullMQ makes for the same job', async () => {
    const q = queue();
    try {
      const add = await StandardJobAdd.create(q, JOB_NAMES.sideEffect, options);
      for (const uid of ['u-1', 'another-request-uid']) {
        const job = prepareJob(sampleJob({}, { uid }));
        const data = withStringField(job, 'addToken', 'token-1');
        let ours = { name: '', args: [] as unknown[] };
        const recorder: ScriptClient = {
          runCommand(name, args) {
            ours = { name, args };
            return Promise.resolve(job.jobId);
          },
        };
        await add.add(recorder, job.jobId, data, 1_764_143_540_123);
        const bullmq = await bullmqAddCall(
          q,
          JOB_NAMES.sideEffect,
          data,
          { ...options, jobId: job.jobId },
          1_764_143_540_123,
        );
        expect(ours.name).toBe(bullmq.name);
        expect(ours.args).toEqual(bullmq.args);
      }
    } finally {
      await q.close();
    }
  });

  it('bullmq is pinned to the version this was checked against', () => {
    // Not a range: an upgrade is a deliberate change that runs the contract test above.
    expect(bullmqPackage.version).toBe('6.7.0');
  });
});
