import { describe, expect, it } from 'vitest';
import type { AdmitResponse__Output } from '@hookgate/proto';
import type { HookReply } from '@hookgate/admission';
import { verifyAnswer } from './verify-answer.js';
import { callFor, hookFor } from './test/fixtures.js';

const URL = 'plugin://p/h?timeout=10s';

function response(fields: Partial<AdmitResponse__Output>): AdmitResponse__Output {
  return {
    id: 1,
    uid: '',
    allowed: false,
    status: null,
    patch: Buffer.alloc(0),
    warnings: [],
    auditAnnotations: {},
    sideEffects: [],
    error: null,
    ...fields,
  };
}

const mutating = hookFor('m.example.com', 'mutating', 'p');
const validating = hookFor('v.example.com', 'validating', 'p');

const cases: {
  name: string;
  hook: typeof mutating;
  version?: 'v1' | 'v1beta1';
  response: (uid: string) => AdmitResponse__Output;
  want: HookReply;
}[] = [
  {
    name: 'a bare allow',
    hook: validating,
    response: () => response({ allowed: true }),
    want: { ok: true, answer: { allowed: true } },
  },
  {
    name: 'a denial with its status (empty fields dropped)',
    hook: validating,
    response: () => response({ status: { code: 403, reason: '', message: 'no' } }),
    want: { ok: true, answer: { allowed: false, status: { code: 403, message: 'no' } } },
  },
  {
    name: 'a patch as text, warnings, annotations, side effects',
    hook: mutating,
    response: (uid) =>
      response({
        uid,
        allowed: true,
        patch: Buffer.from('[{"op":"add","path":"/a","value":1}]'),
        warnings: ['w'],
        auditAnnotations: { k: 'v' },
        sideEffects: [
          { kind: 'quota', key: 'shop/web', payload: Buffer.from('x') },
          { kind: 'lease', key: 'l', payload: Buffer.alloc(0) },
        ],
      }),
    want: {
      ok: true,
      answer: {
        allowed: true,
        patch: '[{"op":"add","path":"/a","value":1}]',
        warnings: ['w'],
        auditAnnotations: { k: 'v' },
        sideEffects: [
          { kind: 'quota', key: 'shop/web', payload: Buffer.from('x') },
          { kind: 'lease', key: 'l' },
        ],
      },
    },
  },
  {
    name: 'a wrong uid (v1)',
    hook: validating,
    response: () => response({ uid: 'someone-else', allowed: true }),
    want: {
      ok: false,
      failure: {
        kind: 'invalid-response',
        code: 503,
        message: 'received invalid webhook response: expected response.uid="UID", got "someone-else"',
      },
    },
  },
  {
    name: 'a wrong uid is not checked for v1beta1',
    hook: validating,
    version: 'v1beta1',
    response: () => response({ uid: 'x', allowed: true }),
    want: { ok: true, answer: { allowed: true } },
  },
  {
    name: 'a patch from a validating hook (v1)',
    hook: validating,
    response: () => response({ allowed: true, patch: Buffer.from('[]') }),
    want: {
      ok: false,
      failure: {
        kind: 'invalid-response',
        code: 503,
        message: 'received invalid webhook response: validating webhook may not return response.patch',
      },
    },
  },
  {
    name: 'a patch from a validating hook is ignored for v1beta1',
    hook: validating,
    version: 'v1beta1',
    response: () => response({ allowed: true, patch: Buffer.from('[]') }),
    want: { ok: true, answer: { allowed: true } },
  },
  {
    name: 'a hook error sent in-band',
    hook: mutating,
    response: () => response({ error: { code: 13, message: 'hook "m.example.com" failed: boom' } }),
    want: {
      ok: false,
      failure: {
        kind: 'transport',
        code: 503,
        message: `failed to call webhook: Post "${URL}": rpc error: code = Internal desc = hook "m.example.com" failed: boom`,
      },
    },
  },
];

describe('verifyAnswer', () => {
  for (const c of cases) {
    it(c.name, () => {
      const call = callFor(c.hook, { version: c.version });
      const want = JSON.parse(JSON.stringify(c.want).replace('UID', call.request.uid));
      const got = verifyAnswer(call, c.response(call.request.uid), URL);
      expect(JSON.parse(JSON.stringify(got))).toEqual(want);
    });
  }
});
