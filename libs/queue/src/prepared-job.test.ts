import { describe, expect, it } from 'vitest';
import { decodeJob } from './decode-job.js';
import { jobIdOf } from './job-id.js';
import { prepareJob, preparedJobsJson, withStringField } from './prepared-job.js';
import { sampleJob } from './testing/sample-job.js';

describe('prepared jobs', () => {
  const jobs = [sampleJob(), sampleJob({ effect: { kind: 'claim', key: 'shop/"quoted"\n', payload: 'AQI=' } })];

  it('carry the job id and plugin, and JSON that decodes to the same job', () => {
    for (const job of jobs) {
      const prepared = prepareJob(job);
      expect(prepared.jobId).toBe(jobIdOf(job));
      expect(prepared.plugin).toBe(job.plugin);
      expect(decodeJob(JSON.parse(prepared.json))).toEqual({ ok: true, value: job });
    }
  });

  it('a spool record of them is the bytes JSON.stringify(jobs) writes (records spooled before read the same)', () => {
    expect(preparedJobsJson(jobs.map(prepareJob))).toBe(JSON.stringify(jobs));
    expect(preparedJobsJson([prepareJob(jobs[0]!)])).toBe(JSON.stringify([jobs[0]]));
  });

  it('a field added last is what JSON.stringify({ ...job, field }) writes', () => {
    for (const job of jobs)
      expect(withStringField(prepareJob(job), 'addToken', 'a"b')).toBe(JSON.stringify({ ...job, addToken: 'a"b' }));
  });
});
