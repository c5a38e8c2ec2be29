/**
 * The hand-written codec of the hook calls against proto-loader's, both ways: what one encodes the
 * other decodes to the same object, and the codec decodes proto-loader's bytes (which write default
 * values that the codec leaves out) and bytes with fields it does not know.
 */
import type * as protoLoader from '@grpc/proto-loader';
import { describe, expect, it } from 'vitest';
import { decodeAdmitRequest, decodeAdmitResponse, encodeAdmitRequest, encodeAdmitResponse } from './admit-codec.js';
import type { AdmitRequest, AdmitResponse } from './index.js';
import { packageDefinition } from './loader.js';
import { AdmissionPluginService } from './services.js';

const loaded = (packageDefinition['hookgate.plugin.v1.AdmissionPlugin'] as protoLoader.ServiceDefinition).AdmitStream!;
const reference = {
  encodeRequest: (m: AdmitRequest) => loaded.requestSerialize(m),
  decodeRequest: (b: Buffer) => loaded.requestDeserialize(b) as unknown,
  encodeResponse: (m: AdmitResponse) => loaded.responseSerialize(m),
  decodeResponse: (b: Buffer) => loaded.responseDeserialize(b) as unknown,
};

const review = Buffer.from(JSON.stringify({ kind: 'AdmissionReview', request: { uid: 'ü-1', operation: 'CREATE' } }));

const requests: Record<string, AdmitRequest> = {
  empty: {},
  'every field, zeros included': {
    id: 0,
    hook: '',
    phase: 'PHASE_UNSPECIFIED',
    round: 0,
    uid: '',
    request: Buffer.alloc(0),
    timeoutMs: 0,
    reviewVersion: '',
  },
  'a forwarded call': {
    id: 4_294_967_295,
    hook: 'labels.example.com',
    phase: 'MUTATING',
    round: 1,
    uid: '3f2c1a9e-8e5b-4d8f-9a57-0b2d6f1c7e44',
    baseRequest: review,
    patch: Buffer.from('[{"op":"add","path":"/metadata/labels/x","value":"ÿ"}]'),
    timeoutMs: 10_000,
    reviewVersion: 'v1',
    requestHead: Buffer.from('{"uid":"x","operation":"CREATE"}'),
  },
  'a request encoded, a Uint8Array, a phase by number': {
    id: 200,
    hook: 'h',
    phase: 2,
    uid: 'u',
    request: new Uint8Array([123, 125]),
  },
  'bytes as base64': { hook: 'b64', request: Buffer.from('{"a":1}').toString('base64') },
  'a batch, with an empty entry': {
    phase: 'VALIDATING',
    baseRequest: Buffer.alloc(70_000, 0x61),
    requestHead: Buffer.from('{}'),
    batch: [
      { id: 1, hook: 'a.example.com', round: 0, uid: 'u1', timeoutMs: 30_000, reviewVersion: 'v1' },
      {},
      { id: 300, hook: 'ñ', round: 1, uid: 'u3', timeoutMs: 1, reviewVersion: 'v1beta1' },
    ],
  },
};

const responses: Record<string, AdmitResponse> = {
  empty: {},
  allowed: { id: 7, uid: 'u', allowed: true },
  'allowed with a patch and empty extras': {
    id: 70_000,
    uid: 'ü',
    allowed: true,
    patch: Buffer.from('[{"op":"add","path":"/a","value":1}]'),
    warnings: [],
    auditAnnotations: {},
    sideEffects: [],
    status: null,
    error: null,
  },
  'every field': {
    id: 128,
    uid: 'uid-ü',
    allowed: false,
    status: { code: 403, reason: 'Forbidden', message: 'no: ✗' },
    patch: Buffer.from('[{"op":"remove","path":"/a"}]'),
    warnings: ['first', '', 'third ✓'],
    auditAnnotations: { 'a.example.com/x': 'one', empty: '', ü: 'two' },
    sideEffects: [
      { kind: 'dns', key: 'web-0', payload: Buffer.from('{"ip":"10.0.0.1"}') },
      { kind: 'k', key: 'no-payload' },
    ],
  },
  'a negative status code, an empty status': { status: { code: -5 } },
  'an empty status': { allowed: true, status: {} },
  'an error': { id: 3, uid: 'u', error: { code: 13, message: 'hook "x" failed: boom' } },
  'an empty error': { error: {} },
};

/** Unknown fields of every wire type, appended to a message (a newer peer's fields). */
const UNKNOWN_FIELDS = Buffer.from([
  // field 40 varint 300; field 41 fixed64; field 42 bytes "hi"; field 43 fixed32; field 44 group {field 1 varint 1}
  0xc0, 0x02, 0xac, 0x02, 0xc9, 0x02, 1, 2, 3, 4, 5, 6, 7, 8, 0xd2, 0x02, 2, 0x68, 0x69, 0xdd, 0x02, 1, 2, 3, 4, 0xe3,
  0x02, 0x08, 0x01, 0xe4, 0x02,
]);

describe('admit codec: AdmitRequest', () => {
  for (const [name, message] of Object.entries(requests)) {
    it(`${name}: the same object from either encoding, decoded by either`, () => {
      const ours = encodeAdmitRequest(message);
      const theirs = reference.encodeRequest(message);
      const want = reference.decodeRequest(theirs);
      expect(reference.decodeRequest(ours)).toEqual(want);
      expect(decodeAdmitRequest(ours)).toEqual(want);
      expect(decodeAdmitRequest(theirs)).toEqual(want);
      expect(decodeAdmitRequest(Buffer.concat([theirs, UNKNOWN_FIELDS]))).toEqual(want);
    });
  }

  it('an unknown phase number stays a number, as with proto-loader', () => {
    const bytes = Buffer.from([0x18, 0x09]);
    expect((reference.decodeRequest(bytes) as { phase: unknown }).phase).toBe(9);
    expect(decodeAdmitRequest(bytes)).toEqual(reference.decodeRequest(bytes));
  });

  it('a truncated message is refused', () => {
    const bytes = encodeAdmitRequest(requests['a forwarded call']!);
    expect(() => decodeAdmitRequest(bytes.subarray(0, bytes.length - 3))).toThrow(/out of range/);
  });
});

describe('admit codec: AdmitResponse', () => {
  for (const [name, message] of Object.entries(responses)) {
    it(`${name}: the same object from either encoding, decoded by either`, () => {
      const ours = encodeAdmitResponse(message);
      const theirs = reference.encodeResponse(message);
      const want = reference.decodeResponse(theirs);
      expect(reference.decodeResponse(ours)).toEqual(want);
      expect(decodeAdmitResponse(ours)).toEqual(want);
      expect(decodeAdmitResponse(theirs)).toEqual(want);
      expect(decodeAdmitResponse(Buffer.concat([theirs, UNKNOWN_FIELDS]))).toEqual(want);
    });
  }

  it('a 64-bit varint (a negative int32 from another implementation) keeps its low 32 bits', () => {
    // status { code: -1 } as ten bytes
    const bytes = Buffer.from([0x22, 0x0b, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect(decodeAdmitResponse(bytes).status).toEqual({ code: -1, reason: '', message: '' });
    expect(decodeAdmitResponse(bytes)).toEqual(reference.decodeResponse(bytes));
  });
});

describe('the AdmissionPlugin service', () => {
  it('uses the codec for Admit and AdmitStream, proto-loader for the rest', () => {
    expect(AdmissionPluginService.AdmitStream.requestSerialize).toBe(encodeAdmitRequest);
    expect(AdmissionPluginService.Admit.responseDeserialize).toBe(decodeAdmitResponse);
    expect(AdmissionPluginService.Describe.requestSerialize).toBe(
      (packageDefinition['hookgate.plugin.v1.AdmissionPlugin'] as protoLoader.ServiceDefinition).Describe!
        .requestSerialize,
    );
  });
});
