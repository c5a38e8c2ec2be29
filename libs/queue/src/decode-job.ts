/**
 * `decodeJob(data)`: an untrusted job payload (whatever a Redis client left in the job) into a
 * SideEffectJob, or a value naming the first field that is wrong. Never throws: a worker logs and
 * fails an undecodable job instead of crashing next to its neighbours. Fields it does not know are
 * ignored and not copied, so a newer producer's optional additions pass through version 1.
 */
import type { Operation, Phase } from '@hookgate/admission';
import {
  JOB_SCHEMA_VERSION,
  type AdmissionSummary,
  type GatewayDecision,
  type JobEffect,
  type SideEffectJob,
} from './job-schema.js';

export interface JobFieldError {
  /** Dotted path of the field, e.g. `admission.resource.group`; '' for the payload itself. */
  readonly field: string;
  readonly problem: string;
}

export type DecodeJobResult =
  { readonly ok: true; readonly value: SideEffectJob } | { readonly ok: false; readonly error: JobFieldError };

/** One line for logs: `job field admission.uid: must be a non-empty string`. */
export function describeJobFieldError(error: JobFieldError): string {
  return `job field ${error.field === '' ? '(payload)' : error.field}: ${error.problem}`;
}

const OPERATIONS: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];
const PHASES: readonly Phase[] = ['mutating', 'validating'];
/** Standard base64 with padding, as Buffer.toString('base64') writes it. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Thrown inside the decoder only, caught at its edge: keeps each field check one line. */
class FieldProblem {
  constructor(readonly error: JobFieldError) {}
}

export function decodeJob(data: unknown): DecodeJobResult {
  try {
    return { ok: true, value: readJob(data) };
  } catch (caught) {
    if (caught instanceof FieldProblem) return { ok: false, error: caught.error };
    throw caught;
  }
}

function readJob(data: unknown): SideEffectJob {
  const job = object(data, '');
  const schema = job['schema'];
  if (schema !== JOB_SCHEMA_VERSION) {
    fail(
      'schema',
      typeof schema === 'number'
        ? `unsupported schema version ${schema} (this build reads ${JOB_SCHEMA_VERSION})`
        : `must be the number ${JOB_SCHEMA_VERSION}`,
    );
  }
  return {
    schema: JOB_SCHEMA_VERSION,
    plugin: nonEmpty(job, 'plugin', ''),
    hook: nonEmpty(job, 'hook', ''),
    effect: readEffect(object(job['effect'], 'effect')),
    admission: readAdmission(object(job['admission'], 'admission')),
    decision: readDecision(object(job['decision'], 'decision')),
    gateway: nonEmpty(job, 'gateway', ''),
    time: timestamp(job, 'time', ''),
  };
}

function readEffect(effect: Record<string, unknown>): JobEffect {
  const kind = nonEmpty(effect, 'kind', 'effect');
  const key = nonEmpty(effect, 'key', 'effect');
  const payload = optionalString(effect, 'payload', 'effect');
  if (payload === undefined) return { kind, key };
  if (!BASE64.test(payload)) fail('effect.payload', 'must be standard base64 (A-Z a-z 0-9 + /, padded with =)');
  return { kind, key, payload };
}

function readAdmission(admission: Record<string, unknown>): AdmissionSummary {
  const at = 'admission';
  const resource = object(admission['resource'], `${at}.resource`);
  const summary: AdmissionSummary = {
    uid: nonEmpty(admission, 'uid', at),
    operation: oneOf(admission, 'operation', at, OPERATIONS),
    resource: {
      group: string(resource, 'group', `${at}.resource`),
      version: nonEmpty(resource, 'version', `${at}.resource`),
      resource: nonEmpty(resource, 'resource', `${at}.resource`),
    },
    subResource: string(admission, 'subResource', at),
    namespace: string(admission, 'namespace', at),
    name: string(admission, 'name', at),
    generateName: string(admission, 'generateName', at),
    dryRun: boolean(admission, 'dryRun', at),
    phase: oneOf(admission, 'phase', at, PHASES),
  };
  const objectUid = optionalString(admission, 'objectUid', at);
  const objectResourceVersion = optionalString(admission, 'objectResourceVersion', at);
  const oldObjectResourceVersion = optionalString(admission, 'oldObjectResourceVersion', at);
  const oldObjectUid = optionalString(admission, 'oldObjectUid', at);
  const objectGeneration = optionalGeneration(admission, 'objectGeneration', at);
  const oldObjectGeneration = optionalGeneration(admission, 'oldObjectGeneration', at);
  return {
    ...summary,
    ...(objectUid === undefined ? {} : { objectUid }),
    ...(objectResourceVersion === undefined ? {} : { objectResourceVersion }),
    ...(oldObjectResourceVersion === undefined ? {} : { oldObjectResourceVersion }),
    ...(oldObjectUid === undefined ? {} : { oldObjectUid }),
    ...(objectGeneration === undefined ? {} : { objectGeneration }),
    ...(oldObjectGeneration === undefined ? {} : { oldObjectGeneration }),
  };
}

function readDecision(decision: Record<string, unknown>): GatewayDecision {
  const allowed = boolean(decision, 'allowed', 'decision');
  if (allowed) return { allowed: true };
  const by = oneOf(decision, 'by', 'decision', ['hook', 'error'] as const);
  const code = httpCode(decision, 'code', 'decision');
  if (by === 'hook') return { allowed: false, by, hook: nonEmpty(decision, 'hook', 'decision'), code };
  const hook = optionalString(decision, 'hook', 'decision');
  const reason = nonEmpty(decision, 'reason', 'decision');
  return hook === undefined ? { allowed: false, by, code, reason } : { allowed: false, by, hook, code, reason };
}

function fail(field: string, problem: string): never {
  throw new FieldProblem({ field, problem });
}

function path(at: string, name: string): string {
  return at === '' ? name : `${at}.${name}`;
}

function object(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(field, 'must be a JSON object');
  return value as Record<string, unknown>;
}

function string(record: Record<string, unknown>, name: string, at: string): string {
  const value = record[name];
  if (typeof value !== 'string') fail(path(at, name), 'must be a string');
  return value;
}

function nonEmpty(record: Record<string, unknown>, name: string, at: string): string {
  const value = string(record, name, at);
  if (value === '') fail(path(at, name), 'must not be empty');
  return value;
}

function optionalString(record: Record<string, unknown>, name: string, at: string): string | undefined {
  return record[name] === undefined ? undefined : string(record, name, at);
}

function optionalGeneration(record: Record<string, unknown>, name: string, at: string): number | undefined {
  const value = record[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    fail(path(at, name), 'must be a non-negative integer (metadata.generation)');
  }
  return value;
}

function boolean(record: Record<string, unknown>, name: string, at: string): boolean {
  const value = record[name];
  if (typeof value !== 'boolean') fail(path(at, name), 'must be true or false');
  return value;
}

function oneOf<T extends string>(record: Record<string, unknown>, name: string, at: string, allowed: readonly T[]): T {
  const value = record[name];
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail(path(at, name), `must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

function httpCode(record: Record<string, unknown>, name: string, at: string): number {
  const value = record[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 100 || value > 599) {
    fail(path(at, name), 'must be an HTTP status code (an integer from 100 to 599)');
  }
  return value;
}

function timestamp(record: Record<string, unknown>, name: string, at: string): number {
  const value = record[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    fail(path(at, name), 'must be a positive integer (milliseconds since the epoch)');
  }
  return value;
}
