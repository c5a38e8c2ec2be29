import { describe, expect, it } from 'vitest';
import type { AdmitRequest, AdmitRequest__Output, AdmitResponse } from '@hookgate/proto';
import { admit } from './admit.js';
import { definePlugin } from './define-plugin.js';
import type { HookCallError } from './hook-call-error.js';
import type { HookRequest, KubeObject, PluginSpec } from './types.js';
import { podRequest } from '../test/fixtures.js';

interface Pod extends KubeObject {
  spec: { containers: { name: string; image: string; imagePullPolicy?: string }[] };
}

const hooks: PluginSpec['hooks'] = {
  'return-modified': {
    phase: 'mutating',
    mutate(req: HookRequest<Pod>) {
      const pod = req.object!;
      pod.spec.containers[0]!.imagePullPolicy = 'IfNotPresent';
      return pod;
    },
  },
  'return-new-object': {
    phase: 'mutating',
    mutate: (req) => ({ ...req.object, metadata: { ...req.object?.metadata, labels: { app: 'web', team: 'core' } } }),
  },
  'return-same-unchanged': { phase: 'mutating', mutate: (req) => req.object },
  'return-nothing': { phase: 'mutating', mutate: () => undefined },
  'return-explicit-patch': {
    phase: 'mutating',
    mutate: () => ({ patch: [{ op: 'add', path: '/metadata/annotations', value: { a: 'b' } }], warnings: ['patched'] }),
  },
  'return-empty-patch': { phase: 'mutating', mutate: () => ({ patch: [] }) },
  'mutating-deny': {
    phase: 'mutating',
    mutate: () => ({ allowed: false, message: 'no', code: 422, reason: 'Invalid' }),
  },
  'mutating-allow': { phase: 'mutating', mutate: () => ({ allowed: true }) },
  'async-mutate': { phase: 'mutating', mutate: async (req) => ({ ...req.object, kind: 'Pod', extra: true }) },
  'bad-result-string': { phase: 'mutating', mutate: () => 'oops' as never },
  'bad-explicit-patch': { phase: 'mutating', mutate: () => ({ patch: [{ path: '/x' }] as never }) },
  throws: {
    phase: 'validating',
    validate: () => {
      throw new Error('boom');
    },
  },
  rejects: { phase: 'validating', validate: () => Promise.reject(new TypeError('cannot read x')) },
  'allow-with-extras': {
    phase: 'validating',
    validate(req) {
      req.warn('from ctx');
      req.annotate('checked', 'yes');
      req.reportSideEffect('quota', `${req.namespace}/${req.name}`, { cpu: 1 });
      return { allowed: true, warnings: ['from result'] };
    },
  },
  'deny-default-code': { phase: 'validating', validate: () => ({ allowed: false, message: 'images must be pinned' }) },
  'validate-nothing': { phase: 'validating', validate: () => undefined as never },
  'deny-without-message': { phase: 'validating', validate: () => ({ allowed: false }) as never },
  'sees-request': {
    phase: 'validating',
    validate: (req) =>
      req.uid === 'call-uid' &&
      req.namespace === 'shop' &&
      req.name === 'web-0' &&
      req.operation === 'CREATE' &&
      req.userInfo.username === 'alice' &&
      req.dryRun === false
        ? { allowed: true }
        : { allowed: false, message: `unexpected ${req.uid} ${req.namespace} ${req.name}` },
  },
  'delete-returns-object': { phase: 'mutating', mutate: () => ({ apiVersion: 'v1', kind: 'Pod' }) },
  'sees-request-head': {
    phase: 'validating',
    validate: (req) =>
      req.uid === 'fresh-uid' &&
      req.namespace === 'shop' &&
      req.name === 'web-0' &&
      req.operation === 'CREATE' &&
      req.kind.kind === 'Pod' &&
      req.userInfo.username === 'alice'
        ? { allowed: true }
        : { allowed: false, message: `unexpected ${req.uid} ${req.namespace} ${req.name}` },
  },
  'sees-whole-request': {
    phase: 'validating',
    validate: (req) =>
      req.request.uid === 'fresh-uid' &&
      req.request.object !== undefined &&
      req.object?.metadata?.name === 'web-0' &&
      req.oldObject === undefined
        ? { allowed: true }
        : { allowed: false, message: 'the whole request is not as sent' },
  },
};

const plugin = definePlugin({ name: 'unit', hooks });

function run(message: AdmitRequest): Promise<{ error: HookCallError | null; response: AdmitResponse | null }> {
  const full = {
    id: 0,
    hook: '',
    phase: 'PHASE_UNSPECIFIED',
    round: 0,
    uid: '',
    request: Buffer.alloc(0),
    baseRequest: Buffer.alloc(0),
    patch: Buffer.alloc(0),
    timeoutMs: 0,
    reviewVersion: '',
    requestHead: Buffer.alloc(0),
    ...message,
  } as AdmitRequest__Output;
  return new Promise((resolve) => admit(plugin, full, (error, response) => resolve({ error, response })));
}

const pod = podRequest();
const bytes = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const patchOf = (response: AdmitResponse | null): unknown =>
  response?.patch === undefined ? undefined : JSON.parse(Buffer.from(response.patch as Buffer).toString());

describe('admit: decisions', () => {
  const cases: {
    name: string;
    hook: string;
    phase: 'MUTATING' | 'VALIDATING';
    request?: object;
    want: Partial<AdmitResponse>;
    patch?: unknown;
  }[] = [
    {
      name: 'a mutated object becomes a JSON Patch against the received object',
      hook: 'return-modified',
      phase: 'MUTATING',
      want: { allowed: true },
      patch: [{ op: 'add', path: '/spec/containers/0/imagePullPolicy', value: 'IfNotPresent' }],
    },
    {
      name: 'a new object becomes a JSON Patch',
      hook: 'return-new-object',
      phase: 'MUTATING',
      want: { allowed: true },
      patch: [{ op: 'add', path: '/metadata/labels/team', value: 'core' }],
    },
    {
      name: 'an unchanged object means no patch',
      hook: 'return-same-unchanged',
      phase: 'MUTATING',
      want: { allowed: true },
      patch: undefined,
    },
    {
      name: 'nothing means no patch',
      hook: 'return-nothing',
      phase: 'MUTATING',
      want: { allowed: true },
      patch: undefined,
    },
    {
      name: 'an explicit patch is sent as is, with warnings',
      hook: 'return-explicit-patch',
      phase: 'MUTATING',
      want: { allowed: true, warnings: ['patched'] },
      patch: [{ op: 'add', path: '/metadata/annotations', value: { a: 'b' } }],
    },
    {
      name: 'an empty explicit patch means no patch',
      hook: 'return-empty-patch',
      phase: 'MUTATING',
      want: { allowed: true },
      patch: undefined,
    },
    {
      name: 'a mutating hook may deny',
      hook: 'mutating-deny',
      phase: 'MUTATING',
      want: { allowed: false, status: { code: 422, reason: 'Invalid', message: 'no' } },
    },
    {
      name: 'a mutating hook may answer { allowed: true }',
      hook: 'mutating-allow',
      phase: 'MUTATING',
      want: { allowed: true },
      patch: undefined,
    },
    {
      name: 'an async mutating hook',
      hook: 'async-mutate',
      phase: 'MUTATING',
      want: { allowed: true },
      patch: [{ op: 'add', path: '/extra', value: true }],
    },
    {
      name: 'warnings, audit annotations and side effects from the context',
      hook: 'allow-with-extras',
      phase: 'VALIDATING',
      want: {
        allowed: true,
        warnings: ['from ctx', 'from result'],
        auditAnnotations: { checked: 'yes' },
        sideEffects: [{ kind: 'quota', key: 'shop/web-0', payload: Buffer.from('{"cpu":1}') }],
      },
    },
    {
      name: 'a denial defaults to 403 Forbidden',
      hook: 'deny-default-code',
      phase: 'VALIDATING',
      want: { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'images must be pinned' } },
    },
    {
      name: 'the handler sees the request, uid from the call',
      hook: 'sees-request',
      phase: 'VALIDATING',
      want: { allowed: true, uid: 'call-uid' },
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const uid = c.hook === 'sees-request' ? 'call-uid' : pod.uid;
      const { error, response } = await run({ hook: c.hook, phase: c.phase, uid, request: bytes(c.request ?? pod) });
      expect(error).toBeNull();
      expect(response).toMatchObject(c.want);
      expect(patchOf(response)).toEqual(c.patch);
    });
  }
});

describe('admit: hook errors', () => {
  const cases: { name: string; message: AdmitRequest; code: number; text: string }[] = [
    {
      name: 'a throw is INTERNAL naming the hook',
      message: { hook: 'throws', phase: 'VALIDATING', request: bytes(pod) },
      code: 13,
      text: 'hook "throws" failed: boom',
    },
    {
      name: 'a rejection is INTERNAL naming the hook',
      message: { hook: 'rejects', phase: 'VALIDATING', request: bytes(pod) },
      code: 13,
      text: 'hook "rejects" failed: cannot read x',
    },
    {
      name: 'an unknown hook is NOT_FOUND',
      message: { hook: 'nope', phase: 'VALIDATING', request: bytes(pod) },
      code: 5,
      text: 'plugin "unit" has no hook "nope"',
    },
    {
      name: 'a phase mismatch is FAILED_PRECONDITION',
      message: { hook: 'throws', phase: 'MUTATING', request: bytes(pod) },
      code: 9,
      text: 'hook "throws" is validating but was called as mutating',
    },
    {
      name: 'a non-decision from validate',
      message: { hook: 'validate-nothing', phase: 'VALIDATING', request: bytes(pod) },
      code: 13,
      text: 'must return { allowed: true } or { allowed: false, message }',
    },
    {
      name: 'a denial without message',
      message: { hook: 'deny-without-message', phase: 'VALIDATING', request: bytes(pod) },
      code: 13,
      text: 'a denial needs a message',
    },
    {
      name: 'a string from mutate',
      message: { hook: 'bad-result-string', phase: 'MUTATING', request: bytes(pod) },
      code: 13,
      text: 'not a string',
    },
    {
      name: 'a malformed explicit patch',
      message: { hook: 'bad-explicit-patch', phase: 'MUTATING', request: bytes(pod) },
      code: 13,
      text: 'patch[0] is not a JSON Patch operation',
    },
    {
      name: 'an object returned for a DELETE',
      message: {
        hook: 'delete-returns-object',
        phase: 'MUTATING',
        request: bytes(podRequest({ operation: 'DELETE', object: null })),
      },
      code: 13,
      text: 'the DELETE request has none to modify',
    },
    {
      name: 'request bytes that are not JSON',
      message: { hook: 'return-nothing', phase: 'MUTATING', request: Buffer.from('{nope') },
      code: 3,
      text: 'request for hook "return-nothing" is not valid JSON',
    },
    {
      name: 'JSON that is not a request',
      message: { hook: 'return-nothing', phase: 'MUTATING', request: bytes([1, 2]) },
      code: 3,
      text: 'is not an AdmissionRequest',
    },
    {
      name: 'a request whose operation is only inside __proto__',
      message: {
        hook: 'return-nothing',
        phase: 'MUTATING',
        request: Buffer.from('{"uid": "u", "__proto__": {"operation": "CREATE"}}'),
      },
      code: 3,
      text: 'request for hook "return-nothing" is not an AdmissionRequest',
    },
    {
      name: 'a base review whose request is only inside __proto__',
      message: {
        hook: 'return-nothing',
        phase: 'MUTATING',
        baseRequest: Buffer.from(
          `{"kind": "AdmissionReview", "__proto__": {"request": ${JSON.stringify(podRequest())}}, "operation": "x"}`,
        ),
      },
      code: 3,
      text: 'request for hook "return-nothing" is not an AdmissionRequest',
    },
    {
      name: 'no request at all',
      message: { hook: 'return-nothing', phase: 'MUTATING' },
      code: 3,
      text: 'carries no request',
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { error, response } = await run(c.message);
      expect(response).toBeNull();
      expect(error?.code).toBe(c.code);
      expect(error?.message).toContain(c.text);
    });
  }
});

describe('admit: base_request + patch', () => {
  const review = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: pod };
  const labelPatch = [{ op: 'add', path: '/metadata/labels/team', value: 'core' }];
  const cases: { name: string; base: unknown; patch: unknown; wantLabels: Record<string, string> }[] = [
    { name: 'a whole review as base, unchanged', base: review, patch: [], wantLabels: { app: 'web' } },
    {
      name: 'a whole review as base, with the accumulated patch',
      base: review,
      patch: labelPatch,
      wantLabels: { app: 'web', team: 'core' },
    },
    {
      name: 'a stanza as base, with the accumulated patch',
      base: pod,
      patch: labelPatch,
      wantLabels: { app: 'web', team: 'core' },
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const seen: { labels?: Record<string, string>; uid?: string } = {};
      const probe = definePlugin({
        name: 'probe',
        hooks: {
          p: {
            phase: 'mutating',
            mutate: (req) => void Object.assign(seen, { labels: req.object?.metadata?.labels, uid: req.uid }),
          },
        },
      });
      const message = {
        id: 1,
        hook: 'p',
        phase: 'MUTATING',
        round: 0,
        uid: 'fresh-uid',
        request: Buffer.alloc(0),
        baseRequest: bytes(c.base),
        patch: bytes(c.patch),
        timeoutMs: 0,
        reviewVersion: 'v1',
        requestHead: Buffer.alloc(0),
      } as AdmitRequest__Output;
      const error = await new Promise((resolve) => admit(probe, message, (e) => resolve(e)));
      expect(error).toBeNull();
      expect(seen).toEqual({ labels: c.wantLabels, uid: 'fresh-uid' });
    });
  }

  it('a patch that does not apply is INVALID_ARGUMENT', async () => {
    const message = {
      id: 1,
      hook: 'return-nothing',
      phase: 'MUTATING',
      round: 0,
      uid: 'u',
      request: Buffer.alloc(0),
      baseRequest: bytes(pod),
      patch: bytes([{ op: 'remove', path: '/nope/deeper' }]),
      timeoutMs: 0,
      reviewVersion: 'v1',
      requestHead: Buffer.alloc(0),
    } as AdmitRequest__Output;
    const error = await new Promise<HookCallError | null>((resolve) => admit(plugin, message, (e) => resolve(e)));
    expect(error?.code).toBe(3);
    expect(error?.message).toContain('does not apply to the request object');
  });
});

describe('admit: request head sent apart (the base is parsed only when a handler reads an object)', () => {
  const { object: _object, oldObject: _oldObject, ...head } = pod;
  const labelPatch = [{ op: 'add', path: '/metadata/labels/team', value: 'core' }];
  const message = (
    hook: string,
    phase: 'MUTATING' | 'VALIDATING',
    baseRequest: Buffer,
    patch: unknown = [],
  ): AdmitRequest => ({
    id: 1,
    hook,
    phase,
    uid: 'fresh-uid',
    baseRequest,
    patch: bytes(patch),
    requestHead: bytes(head),
  });

  it('a handler that reads only metadata answers without the base being parsed', async () => {
    // The base is not JSON at all: nothing reads it.
    const { error, response } = await run(message('sees-request-head', 'VALIDATING', Buffer.from('{not json')));
    expect(error).toBeNull();
    expect(response).toMatchObject({ allowed: true, uid: 'fresh-uid' });
  });

  it('a handler that reads the object gets it from the base, with the accumulated patch', async () => {
    const { error, response } = await run(message('return-new-object', 'MUTATING', bytes(pod), labelPatch));
    expect(error).toBeNull();
    // team was added by the earlier hook's patch already: this hook's diff is against that object.
    expect(patchOf(response)).toBeUndefined();
    const unpatched = await run(message('return-new-object', 'MUTATING', bytes(pod)));
    expect(patchOf(unpatched.response)).toEqual(labelPatch);
  });

  it('the whole request (req.request) carries the call uid and the objects', async () => {
    const { error, response } = await run(
      message(
        'sees-whole-request',
        'VALIDATING',
        bytes({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: pod }),
      ),
    );
    expect(error).toBeNull();
    expect(response).toMatchObject({ allowed: true });
  });

  it('an unusable base read by the handler is INVALID_ARGUMENT, as when decoded up front', async () => {
    const { error } = await run(message('return-modified', 'MUTATING', Buffer.from('{not json')));
    expect(error?.code).toBe(3);
    expect(error?.message).toContain('request for hook "return-modified" is not valid JSON');
  });

  it('a head that is not a request is INVALID_ARGUMENT once the handler reads the metadata', async () => {
    const { error } = await run({
      ...message('sees-request-head', 'VALIDATING', bytes(pod)),
      requestHead: bytes([1]),
    });
    expect(error?.code).toBe(3);
    expect(error?.message).toContain('request head for hook "sees-request-head" is not an AdmissionRequest');
  });

  it('a handler that reads nothing answers with the call uid without the head or the base being parsed', async () => {
    const { error, response } = await run({
      ...message('return-nothing', 'MUTATING', Buffer.from('{not json')),
      requestHead: Buffer.from('{not json either'),
    });
    expect(error).toBeNull();
    expect(response).toMatchObject({ allowed: true, uid: 'fresh-uid' });
  });
});
