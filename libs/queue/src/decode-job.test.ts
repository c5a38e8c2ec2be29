import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeJob, describeJobFieldError } from './decode-job.js';
import type { SideEffectJob } from './job-schema.js';

const good: SideEffectJob = {
  schema: 1,
  plugin: 'ledger',
  hook: 'claims.ledger.hookgate.dev',
  effect: { kind: 'ledger-claim', key: 'default/web', payload: Buffer.from('{"n":1}').toString('base64') },
  admission: {
    uid: '705ab4f5-6393-11e8-b7cc-42010a800002',
    operation: 'UPDATE',
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    subResource: '',
    namespace: 'default',
    name: 'web',
    generateName: '',
    objectUid: '6b0c3c5e-0000-4000-8000-000000000001',
    objectResourceVersion: '41',
    oldObjectResourceVersion: '41',
    oldObjectUid: '6b0c3c5e-0000-4000-8000-000000000001',
    objectGeneration: 4,
    oldObjectGeneration: 3,
    dryRun: false,
    phase: 'validating',
  },
  decision: { allowed: false, by: 'hook', hook: 'later.example.com', code: 403 },
  gateway: 'gw-1',
  time: 1_764_143_540_123,
};

/** A copy of `good` with one field (a dotted path) set to `value`, or removed when value is undefined. */
function withField(path: string, value: unknown): unknown {
  const copy = structuredClone(good) as unknown as Record<string, unknown>;
  const parts = path.split('.');
  let at = copy;
  for (const part of parts.slice(0, -1)) at = at[part] as Record<string, unknown>;
  const last = parts.at(-1)!;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}

describe('decodeJob', () => {
  it('decodes a complete job to an equal value', () => {
    expect(decodeJob(JSON.parse(JSON.stringify(good)))).toEqual({ ok: true, value: good });
  });

  it.each([
    {
      name: 'allowed request, no payload, no uids (mutating CREATE with generateName)',
      edit: (job: Record<string, unknown>) => {
        job['effect'] = { kind: 'dns-record', key: 'default/web-' };
        job['decision'] = { allowed: true };
        job['admission'] = {
          ...(job['admission'] as object),
          operation: 'CREATE',
          name: '',
          generateName: 'web-',
          objectUid: undefined,
          objectResourceVersion: undefined,
          oldObjectResourceVersion: undefined,
          oldObjectUid: undefined,
          objectGeneration: undefined,
          oldObjectGeneration: undefined,
          phase: 'mutating',
        };
      },
    },
    {
      name: 'denied by an error without a hook to blame',
      edit: (job: Record<string, unknown>) => {
        job['decision'] = { allowed: false, by: 'error', code: 500, reason: 'denied' };
      },
    },
    {
      name: 'denied by an error of a hook, core group, cluster-scoped, subresource',
      edit: (job: Record<string, unknown>) => {
        job['decision'] = { allowed: false, by: 'error', hook: 'h', code: 500, reason: 'failed-closed' };
        job['admission'] = {
          ...(job['admission'] as object),
          resource: { group: '', version: 'v1', resource: 'namespaces' },
          namespace: '',
          subResource: 'status',
        };
      },
    },
  ])('accepts $name', ({ edit }) => {
    const job = JSON.parse(JSON.stringify(good)) as Record<string, unknown>;
    edit(job);
    const wire = JSON.parse(JSON.stringify(job)) as unknown;
    expect(decodeJob(wire)).toEqual({ ok: true, value: wire });
  });

  it('ignores and drops fields it does not know (the producer addToken, a newer optional field)', () => {
    const result = decodeJob({ ...good, addToken: 'x', effect: { ...good.effect, colour: 'red' } });
    expect(result).toEqual({ ok: true, value: good });
  });

  it.each([
    { name: 'payload not an object', field: '', value: 'not-a-job' as unknown, problem: 'must be a JSON object' },
    { name: 'payload null', field: '', value: null, problem: 'must be a JSON object' },
    { name: 'payload an array', field: '', value: [good], problem: 'must be a JSON object' },
  ])('rejects $name', ({ field, value, problem }) => {
    expect(decodeJob(value)).toEqual({ ok: false, error: { field, problem } });
  });

  it.each([
    { field: 'schema', value: 2, problem: 'unsupported schema version 2 (this build reads 1)' },
    { field: 'schema', value: '1', problem: 'must be the number 1' },
    { field: 'schema', value: undefined, problem: 'must be the number 1' },
    { field: 'plugin', value: '', problem: 'must not be empty' },
    { field: 'plugin', value: 7, problem: 'must be a string' },
    { field: 'hook', value: undefined, problem: 'must be a string' },
    { field: 'effect', value: 'x', problem: 'must be a JSON object' },
    { field: 'effect.kind', value: '', problem: 'must not be empty' },
    { field: 'effect.key', value: null, problem: 'must be a string' },
    {
      field: 'effect.payload',
      value: 'not base64!',
      problem: 'must be standard base64 (A-Z a-z 0-9 + /, padded with =)',
    },
    { field: 'effect.payload', value: 'YWJj=', problem: 'must be standard base64 (A-Z a-z 0-9 + /, padded with =)' },
    { field: 'effect.payload', value: 5, problem: 'must be a string' },
    { field: 'admission', value: [], problem: 'must be a JSON object' },
    { field: 'admission.uid', value: '', problem: 'must not be empty' },
    { field: 'admission.operation', value: 'PATCH', problem: 'must be one of CREATE, UPDATE, DELETE, CONNECT' },
    { field: 'admission.resource', value: undefined, problem: 'must be a JSON object' },
    { field: 'admission.resource.group', value: undefined, problem: 'must be a string' },
    { field: 'admission.resource.version', value: '', problem: 'must not be empty' },
    { field: 'admission.resource.resource', value: 3, problem: 'must be a string' },
    { field: 'admission.subResource', value: undefined, problem: 'must be a string' },
    { field: 'admission.namespace', value: null, problem: 'must be a string' },
    { field: 'admission.name', value: false, problem: 'must be a string' },
    { field: 'admission.generateName', value: undefined, problem: 'must be a string' },
    { field: 'admission.objectUid', value: 1, problem: 'must be a string' },
    { field: 'admission.objectResourceVersion', value: 41, problem: 'must be a string' },
    { field: 'admission.oldObjectResourceVersion', value: {}, problem: 'must be a string' },
    { field: 'admission.oldObjectUid', value: 7, problem: 'must be a string' },
    {
      field: 'admission.objectGeneration',
      value: '4',
      problem: 'must be a non-negative integer (metadata.generation)',
    },
    {
      field: 'admission.oldObjectGeneration',
      value: -1,
      problem: 'must be a non-negative integer (metadata.generation)',
    },
    {
      field: 'admission.objectGeneration',
      value: 1.5,
      problem: 'must be a non-negative integer (metadata.generation)',
    },
    { field: 'admission.dryRun', value: 'false', problem: 'must be true or false' },
    { field: 'admission.phase', value: 'admit', problem: 'must be one of mutating, validating' },
    { field: 'decision', value: undefined, problem: 'must be a JSON object' },
    { field: 'decision.allowed', value: 'yes', problem: 'must be true or false' },
    { field: 'decision.by', value: 'apiserver', problem: 'must be one of hook, error' },
    { field: 'decision.code', value: 99, problem: 'must be an HTTP status code (an integer from 100 to 599)' },
    { field: 'decision.code', value: 403.5, problem: 'must be an HTTP status code (an integer from 100 to 599)' },
    { field: 'decision.hook', value: '', problem: 'must not be empty' },
    { field: 'gateway', value: '', problem: 'must not be empty' },
    {
      field: 'time',
      value: '2026-11-26T07:52:20Z',
      problem: 'must be a positive integer (milliseconds since the epoch)',
    },
    { field: 'time', value: -1, problem: 'must be a positive integer (milliseconds since the epoch)' },
    { field: 'time', value: 1.5, problem: 'must be a positive integer (milliseconds since the epoch)' },
  ])('rejects $field = $value: $problem', ({ field, value, problem }) => {
    expect(decodeJob(withField(field, value))).toEqual({ ok: false, error: { field, problem } });
  });

  it('names the reason field of an error decision', () => {
    const job = { ...good, decision: { allowed: false, by: 'error', code: 500 } };
    expect(decodeJob(job)).toEqual({ ok: false, error: { field: 'decision.reason', problem: 'must be a string' } });
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = decodeJob(value);
        expect(typeof result.ok).toBe('boolean');
      }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(good)), fc.anything(), (field, value) => {
        decodeJob({ ...good, [field]: value });
      }),
    );
  });

  it('describes an error in one line for logs', () => {
    expect(describeJobFieldError({ field: 'admission.uid', problem: 'must not be empty' })).toBe(
      'job field admission.uid: must not be empty',
    );
    expect(describeJobFieldError({ field: '', problem: 'must be a JSON object' })).toBe(
      'job field (payload): must be a JSON object',
    );
  });
});
