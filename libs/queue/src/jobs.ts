/**
 * `@hookgate/queue/jobs`: the job schema, its builder, decoder and ids, without BullMQ (the
 * library's index loads it, about 0.2 s): for code that builds or reads jobs without talking to
 * Redis (the gateway's side-effect sink and its IPC messages).
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
