/**
 * Port of kubernetes test/integration/apiserver/admissionwebhook/reinvocation_test.go, minus the
 * cases that need the apiserver's in-tree Priority plugin (a gateway runs no in-tree plugins,
 * k8s-semantics.md §13), plus one case for hooks pulled into round 1 by a round-1 change.
 * The pod is created with label `x: "true"`; hooks are named `admission.integration.test.<i>.<path>`.
 */
import { mutationAnnotationValue } from '../../annotations.js';
import type { TestWebhook } from '../builders.js';
import { expectedPatchAnnotation } from './mutating.js';
import type { ChainCase } from './types.js';

const CFG = 'test-webhooks';
const mutation = (round: 0 | 1, index: number) => `mutation.webhook.admission.k8s.io/round_${round}_index_${index}`;
const patchKey = (round: 0 | 1, index: number) => `patch.webhook.admission.k8s.io/round_${round}_index_${index}`;
const hookName = (index: number, path: string) => `admission.integration.test.${index}.${path}`;

const hook = (index: number, path: string, extra: Partial<TestWebhook> = {}): TestWebhook => ({
  name: hookName(index, path),
  behaviour: path,
  failurePolicy: 'Fail',
  ...extra,
});

const ADD_A = '[{"op": "add", "path": "/metadata/labels/a", "value": "true"}]';
const ADD_B = '[{"op": "add", "path": "/metadata/labels/b", "value": "true"}]';
const SET_TRUE = '[{"op": "replace", "path": "/metadata/labels/fight", "value": "true"}]';
const SET_FALSE = '[{"op": "replace", "path": "/metadata/labels/fight", "value": "false"}]';

const created = { operation: 'CREATE', labels: { x: 'true' } } as const;

export const REINVOCATION_CASES: readonly ChainCase[] = [
  {
    name: 'no reinvocation when no hook mutates',
    webhooks: [hook(0, 'noop', { reinvocationPolicy: 'IfNeeded' })],
    request: created,
    expect: {
      allowed: true,
      invocations: { noop: 1 },
      annotations: { [mutation(0, 0)]: mutationAnnotationValue(CFG, hookName(0, 'noop'), false) },
    },
  },
  {
    name: 'a hook is not re-invoked for its own mutation',
    webhooks: [hook(0, 'addlabel', { reinvocationPolicy: 'IfNeeded' })],
    request: created,
    expect: {
      allowed: true,
      labels: { x: 'true', a: 'true' },
      invocations: { addlabel: 1 },
      annotations: {
        [mutation(0, 0)]: mutationAnnotationValue(CFG, hookName(0, 'addlabel'), true),
        [patchKey(0, 0)]: expectedPatchAnnotation(hookName(0, 'addlabel'), ADD_A),
      },
    },
  },
  {
    name: 'no reinvocation of webhook B when only webhook B mutated after A',
    webhooks: [
      hook(0, 'addlabel', { reinvocationPolicy: 'IfNeeded' }),
      hook(1, 'conditionaladdlabel', { reinvocationPolicy: 'IfNeeded' }),
    ],
    request: created,
    expect: {
      allowed: true,
      labels: { x: 'true', a: 'true', b: 'true' },
      invocations: { addlabel: 2, conditionaladdlabel: 1 },
      annotations: {
        [mutation(0, 0)]: mutationAnnotationValue(CFG, hookName(0, 'addlabel'), true),
        [patchKey(0, 0)]: expectedPatchAnnotation(hookName(0, 'addlabel'), ADD_A),
        [mutation(0, 1)]: mutationAnnotationValue(CFG, hookName(1, 'conditionaladdlabel'), true),
        [patchKey(0, 1)]: expectedPatchAnnotation(hookName(1, 'conditionaladdlabel'), ADD_B),
        [mutation(1, 0)]: mutationAnnotationValue(CFG, hookName(0, 'addlabel'), false),
      },
    },
  },
  {
    name: 'all webhooks reinvoked when any webhook reinvocation causes mutation',
    webhooks: [
      hook(0, 'settrue', { reinvocationPolicy: 'IfNeeded' }),
      hook(1, 'setfalse', { reinvocationPolicy: 'IfNeeded' }),
    ],
    request: created,
    expect: {
      allowed: true,
      // `replace` of the missing label acts as `add` (json-patch v4).
      labels: { x: 'true', fight: 'false' },
      invocations: { settrue: 2, setfalse: 2 },
      annotations: {
        [mutation(0, 0)]: mutationAnnotationValue(CFG, hookName(0, 'settrue'), true),
        [patchKey(0, 0)]: expectedPatchAnnotation(hookName(0, 'settrue'), SET_TRUE),
        [mutation(0, 1)]: mutationAnnotationValue(CFG, hookName(1, 'setfalse'), true),
        [patchKey(0, 1)]: expectedPatchAnnotation(hookName(1, 'setfalse'), SET_FALSE),
        [mutation(1, 0)]: mutationAnnotationValue(CFG, hookName(0, 'settrue'), true),
        [patchKey(1, 0)]: expectedPatchAnnotation(hookName(0, 'settrue'), SET_TRUE),
        [mutation(1, 1)]: mutationAnnotationValue(CFG, hookName(1, 'setfalse'), true),
        [patchKey(1, 1)]: expectedPatchAnnotation(hookName(1, 'setfalse'), SET_FALSE),
      },
    },
  },
  {
    name: 'a webhook skipped in round 0 is not called in round 1 even if it matches now',
    webhooks: [
      hook(0, 'conditionaladdlabel', {
        reinvocationPolicy: 'IfNeeded',
        objectSelector: { matchLabels: { a: 'true' } },
      }),
      hook(1, 'addlabel', { reinvocationPolicy: 'IfNeeded' }),
    ],
    request: created,
    expect: {
      allowed: true,
      labels: { x: 'true', a: 'true' },
      invocations: { addlabel: 1, conditionaladdlabel: 0 },
      annotations: {
        [mutation(0, 1)]: mutationAnnotationValue(CFG, hookName(1, 'addlabel'), true),
        [patchKey(0, 1)]: expectedPatchAnnotation(hookName(1, 'addlabel'), ADD_A),
      },
    },
  },
  {
    name: "'reinvoke never' policy respected",
    webhooks: [
      hook(0, 'conditionaladdlabel', { reinvocationPolicy: 'Never' }),
      hook(1, 'addlabel', { reinvocationPolicy: 'Never' }),
    ],
    request: created,
    expect: {
      allowed: true,
      labels: { x: 'true', a: 'true' },
      invocations: { conditionaladdlabel: 1, addlabel: 1 },
      annotations: {
        [mutation(0, 0)]: mutationAnnotationValue(CFG, hookName(0, 'conditionaladdlabel'), false),
        [mutation(0, 1)]: mutationAnnotationValue(CFG, hookName(1, 'addlabel'), true),
        [patchKey(0, 1)]: expectedPatchAnnotation(hookName(1, 'addlabel'), ADD_A),
      },
    },
  },
  {
    name: "'reinvoke never' (by default) policy respected",
    webhooks: [hook(0, 'conditionaladdlabel'), hook(1, 'addlabel')],
    request: created,
    expect: {
      allowed: true,
      labels: { x: 'true', a: 'true' },
      invocations: { conditionaladdlabel: 1, addlabel: 1 },
      annotations: {
        [mutation(0, 0)]: mutationAnnotationValue(CFG, hookName(0, 'conditionaladdlabel'), false),
        [mutation(0, 1)]: mutationAnnotationValue(CFG, hookName(1, 'addlabel'), true),
        [patchKey(0, 1)]: expectedPatchAnnotation(hookName(1, 'addlabel'), ADD_A),
      },
    },
  },
  {
    name: 'a change in round 1 pulls later hooks into round 1',
    webhooks: [
      hook(0, 'conditionaladdlabel', { reinvocationPolicy: 'IfNeeded' }),
      hook(1, 'noop', { reinvocationPolicy: 'IfNeeded' }),
      hook(2, 'addlabel', { reinvocationPolicy: 'IfNeeded' }),
    ],
    request: created,
    expect: {
      allowed: true,
      labels: { x: 'true', a: 'true', b: 'true' },
      // Round 0: only addlabel changes (re-invokes 0 and 1). Round 1: conditionaladdlabel now
      // changes the object, which pulls addlabel (invoked after the last round-0 change) back in.
      invocations: { conditionaladdlabel: 2, noop: 2, addlabel: 2 },
    },
  },
];
