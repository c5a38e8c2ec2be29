/**
 * `@hookgate/queue/jobs`: the job schema, its builder, decoder and ids, without BullMQ. The gateway's
 * workers build jobs on every review with side effects but never talk to Redis (the primary does),
 * and the library's index would load BullMQ (about 0.2 s) into each of them.
 */
export * from './job-schema.js';
export { decodeJob, describeJobFieldError, type DecodeJobResult, type JobFieldError } from './decode-job.js';
export {
  buildSideEffectJob,
  decisionFromOutcome,
  decodeEffectPayload,
  summarizeAdmission,
  type ReportedEffect,
  type SideEffectJobInput,
} from './build-job.js';
export { computeJobId, jobIdOf, JOB_ID_PREFIX, type JobIdentity } from './job-id.js';
export { prepareJob, preparedJobsJson, withStringField, type PreparedJob } from './prepared-job.js';
