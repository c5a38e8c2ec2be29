/**
 * What decoding an AdmitRequest with every default filled in (LOADER_OPTIONS.defaults) costs,
 * against decoding without defaults, for the message the SDK receives most (received review
 * forwarded + request head) and a batched one.
 *
 *   node --conditions=development --import tsx tools/bench/src/micro/decode-defaults.ts
 */
import * as protoLoader from '@grpc/proto-loader';
import { LOADER_OPTIONS, PROTO_FILES } from '@hookgate/proto';
import { podReviewRequest } from './pod-request.js';

const N = 100_000;
const request = podReviewRequest(8);
const { object: _o, oldObject: _old, ...head } = request;
const body = Buffer.from(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request }));

function method(defaults: boolean): protoLoader.MethodDefinition<object, object> {
  const definition = protoLoader.loadSync([...PROTO_FILES], { ...LOADER_OPTIONS, defaults });
  const service = definition['hookgate.plugin.v1.AdmissionPlugin'] as protoLoader.ServiceDefinition;
  return service.AdmitStream as protoLoader.MethodDefinition<object, object>;
}

const withDefaults = method(true);
const without = method(false);
const messages = {
  'one call': {
    id: 7,
    hook: 'owner.example.com',
    phase: 'VALIDATING',
    uid: '705ab4f5-6393-11e8-b7cc-42010a800002',
    baseRequest: body,
    requestHead: Buffer.from(JSON.stringify(head)),
    timeoutMs: 10_000,
    reviewVersion: 'v1',
  },
  'batch of 3': {
    phase: 'VALIDATING',
    baseRequest: body,
    requestHead: Buffer.from(JSON.stringify(head)),
    batch: [1, 2, 3].map((id) => ({
      id,
      hook: `h${id}.example.com`,
      uid: `uid-${id}`,
      timeoutMs: 10_000,
      reviewVersion: 'v1',
    })),
  },
};

for (const [name, message] of Object.entries(messages)) {
  const bytes = withDefaults.requestSerialize(message);
  for (let round = 0; round < 3; round++) {
    const ns = (m: protoLoader.MethodDefinition<object, object>): number => {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < N; i++) m.requestDeserialize(bytes);
      return Number(process.hrtime.bigint() - t0) / N;
    };
    console.log(
      `${name}: decode with defaults ${ns(withDefaults).toFixed(0)} ns, without ${ns(without).toFixed(0)} ns`,
    );
  }
}
