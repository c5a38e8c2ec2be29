/**
 * One spool record holds the jobs of one review (or of one background batch kept for replay): a
 * JSON array of jobs, schema v1 each. Decoding never throws: a record that does not decode, or
 * items that are not jobs, are reported so that the caller logs and counts them and moves on.
 */
import {
  decodeJob,
  describeJobFieldError,
  preparedJobsJson,
  reconcileQueueName,
  type PreparedJob,
  type SideEffectJob,
} from '@hookgate/queue';

/** The jobs' JSON as they came (serialised once, in the worker): the same bytes as JSON.stringify(jobs). */
export function encodeJobBatch(jobs: readonly PreparedJob[]): Buffer {
  return Buffer.from(preparedJobsJson(jobs), 'utf8');
}

export interface DecodedJobBatch {
  readonly jobs: SideEffectJob[];
  /** What could not be read: the whole record, or one item by its index. */
  readonly problems: string[];
}

export function decodeJobBatch(payload: Buffer): DecodedJobBatch {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.toString('utf8'));
  } catch (error) {
    return { jobs: [], problems: [`not JSON (${(error as Error).message})`] };
  }
  if (!Array.isArray(parsed)) return { jobs: [], problems: ['not a JSON array of jobs'] };
  const jobs: SideEffectJob[] = [];
  const problems: string[] = [];
  parsed.forEach((item: unknown, index) => {
    const decoded = decodeJob(item);
    if (!decoded.ok) return void problems.push(`job ${index}: ${describeJobFieldError(decoded.error)}`);
    // A plugin name no queue can have would fail its add for ever and block the drain behind it.
    const problem = queueProblem(decoded.value.plugin);
    if (problem === undefined) jobs.push(decoded.value);
    else problems.push(`job ${index}: ${problem}`);
  });
  return { jobs, problems };
}

function queueProblem(plugin: string): string | undefined {
  try {
    reconcileQueueName(plugin);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
