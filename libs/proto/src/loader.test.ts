import { describe, expect, it } from 'vitest';
import { AdmissionPluginService, HealthService, RegistryService, PROTO_PATHS } from './index.js';
import { existsSync } from 'node:fs';

type Codec = {
  requestSerialize(v: unknown): Buffer;
  requestDeserialize(b: Buffer): unknown;
  responseSerialize(v: unknown): Buffer;
  responseDeserialize(b: Buffer): unknown;
};
const admit = AdmissionPluginService.Admit as unknown as Codec;
const reconcile = AdmissionPluginService.Reconcile as unknown as Codec;

describe('loader options', () => {
  const cases = [
    {
      name: 'AdmitRequest: camelCase fields, enum names, bytes as Buffer, defaults filled in',
      codec: admit.requestSerialize,
      decode: admit.requestDeserialize,
      input: { id: 7, hook: 'h.example.com', phase: 'MUTATING', request: Buffer.from('{"uid":"u"}') },
      want: {
        id: 7,
        hook: 'h.example.com',
        phase: 'MUTATING',
        round: 0,
        uid: '',
        request: Buffer.from('{"uid":"u"}'),
        baseRequest: Buffer.alloc(0),
        patch: Buffer.alloc(0),
        timeoutMs: 0,
        reviewVersion: '',
        requestHead: Buffer.alloc(0),
        batch: [],
      },
    },
    {
      name: 'AdmitRequest: a batch carries its calls, each with its own id and uid',
      codec: admit.requestSerialize,
      decode: admit.requestDeserialize,
      input: {
        phase: 'VALIDATING',
        request: Buffer.from('{"uid":"u"}'),
        batch: [
          { id: 1, hook: 'a', uid: 'u1', timeoutMs: 10_000, reviewVersion: 'v1' },
          { id: 2, hook: 'b', uid: 'u2', round: 1 },
        ],
      },
      want: {
        id: 0,
        hook: '',
        phase: 'VALIDATING',
        round: 0,
        uid: '',
        request: Buffer.from('{"uid":"u"}'),
        baseRequest: Buffer.alloc(0),
        patch: Buffer.alloc(0),
        timeoutMs: 0,
        reviewVersion: '',
        requestHead: Buffer.alloc(0),
        batch: [
          { id: 1, hook: 'a', round: 0, uid: 'u1', timeoutMs: 10_000, reviewVersion: 'v1' },
          { id: 2, hook: 'b', round: 1, uid: 'u2', timeoutMs: 0, reviewVersion: '' },
        ],
      },
    },
    {
      name: 'AdmitResponse: absent messages are null, maps and lists empty',
      codec: admit.responseSerialize,
      decode: admit.responseDeserialize,
      input: { id: 1, allowed: true },
      want: {
        id: 1,
        uid: '',
        allowed: true,
        status: null,
        patch: Buffer.alloc(0),
        warnings: [],
        auditAnnotations: {},
        sideEffects: [],
        error: null,
      },
    },
    {
      name: 'AdmitResponse: status, side effects and annotations survive',
      codec: admit.responseSerialize,
      decode: admit.responseDeserialize,
      input: {
        allowed: false,
        status: { code: 403, message: 'no' },
        auditAnnotations: { a: 'b' },
        sideEffects: [{ kind: 'quota', key: 'ns/x', payload: Buffer.from('p') }],
      },
      want: {
        id: 0,
        uid: '',
        allowed: false,
        status: { code: 403, reason: '', message: 'no' },
        patch: Buffer.alloc(0),
        warnings: [],
        auditAnnotations: { a: 'b' },
        sideEffects: [{ kind: 'quota', key: 'ns/x', payload: Buffer.from('p') }],
        error: null,
      },
    },
    {
      name: 'ReconcileRequest: outcome enum by name',
      codec: reconcile.requestSerialize,
      decode: reconcile.requestDeserialize,
      input: { hook: 'h', outcome: 'NOT_PERSISTED', attempt: 2 },
      want: {
        hook: 'h',
        sideEffect: null,
        outcome: 'NOT_PERSISTED',
        object: Buffer.alloc(0),
        admission: null,
        attempt: 2,
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(c.decode(c.codec(c.input))).toEqual(c.want);
    });
  }
});

describe('exports', () => {
  const cases = [
    {
      name: 'AdmissionPlugin methods',
      got: Object.keys(AdmissionPluginService).sort(),
      want: ['Admit', 'AdmitStream', 'Describe', 'ListHeldEffects', 'Reconcile', 'ReconcileOrphan'],
    },
    { name: 'Registry methods', got: Object.keys(RegistryService).sort(), want: ['Deregister', 'Register'] },
    { name: 'Health methods', got: Object.keys(HealthService).sort(), want: ['Check', 'Watch'] },
    {
      name: 'AdmitStream is bidirectional',
      got: [AdmissionPluginService.AdmitStream.requestStream, AdmissionPluginService.AdmitStream.responseStream],
      want: [true, true],
    },
    { name: 'proto paths exist', got: Object.values(PROTO_PATHS).map((p) => existsSync(p)), want: [true, true, true] },
  ];
  for (const c of cases) {
    it(c.name, () => expect(c.got).toEqual(c.want));
  }
});
