/**
 * Building jobs from what the gateway has when a review's outcome is known: the admission request
 * (summarised, its objects left behind), the chain's outcome (for the whole request's decision),
 * and each ReportedSideEffect. Pure functions; the gateway adds its id and the time.
 */
import type { AdmissionRequest, ChainOutcome, JsonValue, Phase } from '@hookgate/admission';
import { JOB_SCHEMA_VERSION, type AdmissionSummary, type GatewayDecision, type SideEffectJob } from './job-schema.js';

/** The parts of a ReportedSideEffect a job carries (the hook's name, what it touched). */
export interface ReportedEffect {
  readonly hook: string;
  readonly kind: string;
  readonly key: string;
  readonly payload?: Uint8Array;
}

export interface SideEffectJobInput {
  readonly plugin: string;
  readonly effect: ReportedEffect;
  readonly admission: AdmissionSummary;
  readonly decision: GatewayDecision;
  readonly gateway: string;
  /** Milliseconds since the epoch. */
  readonly time: number;
}

export function buildSideEffectJob(input: SideEffectJobInput): SideEffectJob {
  const { hook, kind, key, payload } = input.effect;
  return {
    schema: JOB_SCHEMA_VERSION,
    plugin: input.plugin,
    hook,
    effect: payload === undefined ? { kind, key } : { kind, key, payload: Buffer.from(payload).toString('base64') },
    admission: input.admission,
    decision: input.decision,
    gateway: input.gateway,
    time: input.time,
  };
}

/** The effect's payload bytes again (the job carries them as base64); undefined when it had none. */
export function decodeEffectPayload(job: SideEffectJob): Uint8Array | undefined {
  return job.effect.payload === undefined ? undefined : new Uint8Array(Buffer.from(job.effect.payload, 'base64'));
}

/**
 * What a job needs from the request: names, uids and resourceVersions, never the objects. On a
 * mutating CREATE with generateName, `name` is '' and there is no uid: the apiserver assigns both
 * after mutating admission.
 */
export function summarizeAdmission(request: AdmissionRequest, phase: Phase): AdmissionSummary {
  const object = metadataOf(request.object);
  const oldObject = metadataOf(request.oldObject);
  const objectUid = stringField(object, 'uid');
  const objectResourceVersion = stringField(object, 'resourceVersion');
  const oldObjectResourceVersion = stringField(oldObject, 'resourceVersion');
  const oldObjectUid = stringField(oldObject, 'uid');
  const objectGeneration = generationField(object);
  const oldObjectGeneration = generationField(oldObject);
  return {
    uid: request.uid,
    operation: request.operation,
    resource: { group: request.resource.group, version: request.resource.version, resource: request.resource.resource },
    subResource: request.subResource ?? '',
    namespace: request.namespace ?? '',
    name: request.name ?? '',
    generateName: stringField(object, 'generateName') ?? stringField(oldObject, 'generateName') ?? '',
    ...(objectUid === undefined ? {} : { objectUid }),
    ...(objectResourceVersion === undefined ? {} : { objectResourceVersion }),
    ...(oldObjectResourceVersion === undefined ? {} : { oldObjectResourceVersion }),
    ...(oldObjectUid === undefined ? {} : { oldObjectUid }),
    ...(objectGeneration === undefined ? {} : { objectGeneration }),
    ...(oldObjectGeneration === undefined ? {} : { oldObjectGeneration }),
    dryRun: request.dryRun === true,
    phase,
  };
}

/**
 * The whole request's decision from the chain's outcome: allowed, or the first hook in the trace
 * that denied or made the gateway refuse. Reasons are the trace's words, never Status messages
 * (a hook's message may quote the object).
 */
export function decisionFromOutcome(outcome: Pick<ChainOutcome, 'allowed' | 'status' | 'trace'>): GatewayDecision {
  if (outcome.allowed) return { allowed: true };
  const statusCode = validCode(outcome.status?.code) ?? 500;
  for (const event of outcome.trace) {
    if (event.type === 'reject') {
      return {
        allowed: false,
        by: 'error',
        hook: event.hook,
        code: validCode(event.code) ?? statusCode,
        reason: 'rejected',
      };
    }
    if (event.type !== 'call') continue;
    const code = validCode(event.code) ?? statusCode;
    if (event.outcome === 'denied') return { allowed: false, by: 'hook', hook: event.hook, code };
    if (event.outcome === 'failed-closed' || event.outcome === 'refused' || event.outcome === 'patch-error') {
      return { allowed: false, by: 'error', hook: event.hook, code, reason: event.outcome };
    }
  }
  return { allowed: false, by: 'error', code: statusCode, reason: 'denied' };
}

function validCode(code: number | undefined): number | undefined {
  return code !== undefined && Number.isInteger(code) && code >= 100 && code <= 599 ? code : undefined;
}

function metadataOf(object: JsonValue | undefined): Record<string, JsonValue> | undefined {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return undefined;
  const metadata = object['metadata'];
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return undefined;
  return metadata;
}

function stringField(record: Record<string, JsonValue> | undefined, name: string): string | undefined {
  const value = record?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** metadata.generation: a non-negative integer, or undefined (resources that do not track it). */
function generationField(record: Record<string, JsonValue> | undefined): number | undefined {
  const value = record?.['generation'];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
