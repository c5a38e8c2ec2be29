import { describe, expect, it } from 'vitest';
import type { AdmitRequest } from '@hookgate/proto';
import { PLAIN_CAPABILITIES, type PluginCapabilities } from '@hookgate/plugin-client';
import { encodeCall, encodeRequestFields, ReviewEncodeCache, shareRequest } from './encode-call.js';
import { callFor, hookFor, podRequest, receivedReview, receivedStanza } from './test/fixtures.js';
import type { ReceivedRequest } from './received-request.js';

const patching: PluginCapabilities = { ...PLAIN_CAPABILITIES, stream: true, applyPatch: true };
const labelPatch = [{ op: 'add', path: '/metadata/labels/team', value: 'core' }];
const hook = hookFor('h.example.com', 'mutating', 'p');
const review = receivedReview();
const stanza = receivedStanza();
const scaled = podRequest({ kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, subResource: 'scale' });

type Sent = 'received-as-base' | 'received-as-request' | 'encoded';

const cases: {
  name: string;
  capabilities: PluginCapabilities;
  received?: ReceivedRequest;
  patch?: typeof labelPatch;
  request?: typeof scaled;
  want: Sent;
  wantPatch?: unknown;
}[] = [
  {
    name: 'patch-capable plugin, unchanged: the received review as base, no patch',
    capabilities: patching,
    received: review,
    want: 'received-as-base',
    wantPatch: '',
  },
  {
    name: 'patch-capable plugin, patched: the received review plus the patch',
    capabilities: patching,
    received: review,
    patch: labelPatch,
    want: 'received-as-base',
    wantPatch: labelPatch,
  },
  {
    name: 'plain plugin, received stanza, unchanged: forwarded as is',
    capabilities: PLAIN_CAPABILITIES,
    received: stanza,
    want: 'received-as-request',
  },
  {
    name: 'plain plugin, received stanza, patched: encoded',
    capabilities: PLAIN_CAPABILITIES,
    received: stanza,
    patch: labelPatch,
    want: 'encoded',
  },
  {
    name: 'plain plugin, received whole review: encoded (it expects a stanza)',
    capabilities: PLAIN_CAPABILITIES,
    received: review,
    want: 'encoded',
  },
  { name: 'nothing received: encoded', capabilities: patching, want: 'encoded' },
  {
    name: 'another kind than received (Equivalent match): encoded',
    capabilities: patching,
    received: review,
    request: scaled,
    want: 'encoded',
  },
];

function sentForm(message: AdmitRequest, received: ReceivedRequest | undefined): Sent {
  if (message.baseRequest !== undefined) {
    expect(message.baseRequest).toBe(received?.bytes);
    return 'received-as-base';
  }
  return message.request === received?.bytes ? 'received-as-request' : 'encoded';
}

describe('encodeCall', () => {
  for (const c of cases) {
    it(c.name, () => {
      const call = callFor(hook, { patchFromOriginal: c.patch, request: c.request, round: 1 });
      const message = encodeCall(call, c.capabilities, c.received, new ReviewEncodeCache(), 1234.5);
      expect(sentForm(message, c.received)).toBe(c.want);
      expect(message).toMatchObject({
        hook: 'h.example.com',
        phase: 'MUTATING',
        round: 1,
        uid: call.request.uid,
        timeoutMs: 1235,
        reviewVersion: 'v1',
      });
      if (c.want === 'received-as-base') {
        const patchText = Buffer.from(message.patch as Buffer).toString();
        expect(patchText === '' ? '' : JSON.parse(patchText)).toEqual(c.wantPatch);
        // The head is the received stanza without its objects (the SDK parses the base only when a handler reads one).
        const { object: _object, oldObject: _oldObject, ...head } = c.received!.request;
        expect(JSON.parse(Buffer.from(message.requestHead as Buffer).toString())).toEqual(head);
      } else {
        expect(message.requestHead).toBeUndefined();
      }
      if (c.want === 'encoded') {
        expect(JSON.parse(Buffer.from(message.request as Buffer).toString())).toEqual(call.request);
      }
    });
  }

  it('encodes an accumulated patch and the head once for all the hooks after it', () => {
    const cache = new ReviewEncodeCache();
    const first = encodeCall(callFor(hook, { patchFromOriginal: labelPatch }), patching, review, cache, 100);
    const second = encodeCall(
      callFor(hookFor('other', 'validating', 'p'), { patchFromOriginal: labelPatch }),
      patching,
      review,
      cache,
      100,
    );
    expect(second.patch).toBe(first.patch);
    expect(second.requestHead).toBe(first.requestHead);
    expect(second.phase).toBe('VALIDATING');
  });
});

describe('shareRequest: which calls of a review can travel in one batch', () => {
  const validating = hookFor('v.example.com', 'validating', 'p');
  const other = hookFor('w.example.com', 'validating', 'p');
  const request = podRequest();
  const samePatch: readonly never[] = [];
  const base = callFor(validating, { request, patchFromOriginal: samePatch });
  const cases: { name: string; call: ReturnType<typeof callFor>; share: boolean }[] = [
    {
      name: 'another hook, same request (another uid): shares',
      call: callFor(other, { request, patchFromOriginal: samePatch }),
      share: true,
    },
    {
      name: 'another object: alone',
      call: callFor(other, {
        request: { ...request, object: structuredClone(request.object) },
        patchFromOriginal: samePatch,
      }),
      share: false,
    },
    {
      name: 'another accumulated patch: alone',
      call: callFor(other, { request, patchFromOriginal: [] }),
      share: false,
    },
    {
      name: 'another resource (an Equivalent match): alone',
      call: callFor(other, { request: { ...request, subResource: 'status' }, patchFromOriginal: samePatch }),
      share: false,
    },
    {
      name: 'another phase: alone',
      call: callFor(hookFor('m.example.com', 'mutating', 'p'), { request, patchFromOriginal: samePatch }),
      share: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(shareRequest(base, c.call)).toBe(c.share);
    });
  }

  it('the shared fields carry the request, not the call: no hook, no uid', () => {
    const shared = encodeRequestFields(base, patching, review, new ReviewEncodeCache());
    expect(Object.keys(shared).sort()).toEqual(['baseRequest', 'patch', 'phase', 'requestHead']);
    expect(shared.phase).toBe('VALIDATING');
  });
});
