/**
 * The hook call's messages through proto-loader's codec and through the hand-written one
 * (@hookgate/proto admit-codec.ts), in one process, alternating: ns per encode and per decode of a
 * forwarded mutating call (8 KB review, head, patch), a batch of three, and the answers.
 *
 *   node --conditions=development --import tsx tools/bench/src/micro/admit-codec-micro.ts [--n 50000] [--runs 5]
 */
import { parseArgs } from 'node:util';
import type * as protoLoader from '@grpc/proto-loader';
import { AdmissionPluginService, packageDefinition, type AdmitRequest, type AdmitResponse } from '@hookgate/proto';
import { podReviewRequest } from './pod-request.js';

const { values: args } = parseArgs({
  options: { n: { type: 'string', default: '50000' }, runs: { type: 'string', default: '5' } },
});
const n = Number(args.n);
const runs = Number(args.runs);

const loaded = (packageDefinition['hookgate.plugin.v1.AdmissionPlugin'] as protoLoader.ServiceDefinition).AdmitStream!;
const ours = AdmissionPluginService.AdmitStream;
const request = podReviewRequest(8);
const review = Buffer.from(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request }));
const { object: _o, oldObject: _p, ...head } = request;
const call: AdmitRequest = {
  id: 12345,
  hook: 'labels.example.com',
  phase: 'MUTATING',
  round: 0,
  uid: request.uid,
  baseRequest: review,
  patch: Buffer.from('[{"op":"add","path":"/metadata/labels/team","value":"core"}]'),
  requestHead: Buffer.from(JSON.stringify(head)),
  timeoutMs: 10_000,
  reviewVersion: 'v1',
};
const batch: AdmitRequest = {
  phase: 'VALIDATING',
  baseRequest: review,
  requestHead: call.requestHead,
  batch: [0, 1, 2].map((k) => ({
    id: k + 1,
    hook: `check-${k}.example.com`,
    round: 0,
    uid: request.uid,
    timeoutMs: 10_000,
    reviewVersion: 'v1',
  })),
};
const answer: AdmitResponse = { id: 12345, uid: request.uid, allowed: true };

type Codec = { enc: (m: unknown) => Buffer; dec: (b: Buffer) => unknown };
const codecs: Record<string, { req: Codec; res: Codec }> = {
  'proto-loader': {
    req: { enc: (m) => loaded.requestSerialize(m as object), dec: (b) => loaded.requestDeserialize(b) },
    res: { enc: (m) => loaded.responseSerialize(m as object), dec: (b) => loaded.responseDeserialize(b) },
  },
  'admit-codec': {
    req: { enc: (m) => ours.requestSerialize(m as AdmitRequest), dec: (b) => ours.requestDeserialize(b) },
    res: { enc: (m) => ours.responseSerialize(m as AdmitResponse), dec: (b) => ours.responseDeserialize(b) },
  },
};

function nsPer(fn: () => unknown): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - t0) / n;
}

const cases: [string, (c: { req: Codec; res: Codec }) => () => unknown][] = [
  ['encode mutating call (8 KB)', (c) => () => c.req.enc(call)],
  [
    'decode mutating call (8 KB)',
    (c) => {
      const b = c.req.enc(call);
      return () => c.req.dec(b);
    },
  ],
  ['encode batch of 3', (c) => () => c.req.enc(batch)],
  [
    'decode batch of 3',
    (c) => {
      const b = c.req.enc(batch);
      return () => c.req.dec(b);
    },
  ],
  ['encode answer', (c) => () => c.res.enc(answer)],
  [
    'decode answer',
    (c) => {
      const b = c.res.enc(answer);
      return () => c.res.dec(b);
    },
  ],
];
const results = new Map<string, number[]>();
for (let r = 0; r < runs; r++)
  for (const [name, make] of cases)
    for (const [codec, c] of Object.entries(codecs)) {
      const key = `${name}\t${codec}`;
      (results.get(key) ?? results.set(key, []).get(key)!).push(nsPer(make(c)));
    }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`admit-codec-micro: ${n} x ${runs} runs (medians), node ${process.version}`);
for (const [key, xs] of results) console.log(`${key}\t${median(xs).toFixed(0)} ns`);
