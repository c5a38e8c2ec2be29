/**
 * A job serialised once, where it is built (a gateway worker): its JSON, its deterministic id and
 * its plugin. The primary adds the JSON to Redis and writes it to the spool as it is, without
 * parsing and serialising the job again (docs/performance.md, "Side-effect jobs").
 */
import { jobIdOf } from './job-id.js';
import type { SideEffectJob } from './job-schema.js';

export interface PreparedJob {
  readonly plugin: string;
  readonly jobId: string;
  /** JSON.stringify of the SideEffectJob: an object, so it ends with '}'. */
  readonly json: string;
}

export function prepareJob(job: SideEffectJob): PreparedJob {
  return { plugin: job.plugin, jobId: jobIdOf(job), json: JSON.stringify(job) };
}

/** The jobs as one spool record's payload: a JSON array of jobs (what decodeJobBatch reads). */
export function preparedJobsJson(jobs: readonly PreparedJob[]): string {
  if (jobs.length === 1) return `[${jobs[0]!.json}]`;
  return `[${jobs.map((job) => job.json).join(',')}]`;
}

/** The job's JSON with one more field last, as JSON.stringify({ ...job, [name]: value }) writes it. */
export function withStringField(job: PreparedJob, name: string, value: string): string {
  return `${job.json.slice(0, -1)},${JSON.stringify(name)}:${JSON.stringify(value)}}`;
}
