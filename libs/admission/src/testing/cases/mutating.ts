/**
 * Port of the apiserver's NewMutatingTestCases and ConvertToMutatingTestCases
 * (webhook/testing/testcase.go). Names are fully qualified as validation requires (see
 * non-mutating.ts). Unlike the Go unit test, which stops after one Admit call, these cases run the
 * whole chain, re-invocation round included, so their annotations also list round 1.
 */
import { mutationAnnotationValue, patchAnnotationValue } from '../../annotations.js';
import { decodePatch } from '../../patch/json-patch.js';
import { TEST_CONFIGURATION_NAME } from '../builders.js';
import type { ChainCase } from './types.js';

const CFG = TEST_CONFIGURATION_NAME;
const mutation = (round: 0 | 1, index: number) => `mutation.webhook.admission.k8s.io/round_${round}_index_${index}`;
const patchKey = (round: 0 | 1, index: number) => `patch.webhook.admission.k8s.io/round_${round}_index_${index}`;

/** The patch annotation value for a patch text, as the apiserver records it. */
export function expectedPatchAnnotation(webhook: string, patchText: string): string {
  const decoded = decodePatch(patchText);
  if (!decoded.ok) throw new Error(`bad patch in a test table: ${decoded.error}`);
  return patchAnnotationValue(CFG, webhook, decoded.value);
}

const REMOVE_LABEL = '[{"op": "remove", "path": "/metadata/labels/remove"}]';
const ADD_LABEL = '[{"op": "add", "path": "/metadata/labels/added", "value": "test"}]';

const removeLabelHook = { name: 'removelabel.example.com', behaviour: 'removeLabel' } as const;
const addLabelHook = { name: 'addlabel.example.com', behaviour: 'addLabel' } as const;

const removeLabelAnnotations = {
  'removelabel.example.com/key1': 'value1',
  [mutation(0, 0)]: mutationAnnotationValue(CFG, 'removelabel.example.com', true),
  [patchKey(0, 0)]: expectedPatchAnnotation('removelabel.example.com', REMOVE_LABEL),
};
const addLabelAnnotations = {
  [mutation(0, 0)]: mutationAnnotationValue(CFG, 'addlabel.example.com', true),
  [patchKey(0, 0)]: expectedPatchAnnotation('addlabel.example.com', ADD_LABEL),
};

export const MUTATING_CASES: readonly ChainCase[] = [
  {
    name: 'match & remove label',
    webhooks: [removeLabelHook],
    request: { additionalLabels: { remove: 'me' } },
    expect: { allowed: true, labels: { 'pod.name': 'my-pod' }, annotations: removeLabelAnnotations },
  },
  {
    name: 'match & add label',
    webhooks: [addLabelHook],
    expect: { allowed: true, labels: { 'pod.name': 'my-pod', added: 'test' }, annotations: addLabelAnnotations },
  },
  {
    name: 'match CRD & add label',
    webhooks: [addLabelHook],
    request: { isCRD: true },
    expect: { allowed: true, labels: { 'crd.name': 'my-test-crd', added: 'test' }, annotations: addLabelAnnotations },
  },
  {
    name: 'match CRD & remove label',
    webhooks: [removeLabelHook],
    request: { isCRD: true, additionalLabels: { remove: 'me' } },
    expect: { allowed: true, labels: { 'crd.name': 'my-test-crd' }, annotations: removeLabelAnnotations },
  },
  {
    name: 'match & invalid mutation',
    webhooks: [{ name: 'invalidmutation.example.com', behaviour: 'invalidMutation' }],
    expect: {
      allowed: false,
      statusCode: 500,
      message:
        'Internal error occurred: failed calling webhook "invalidmutation.example.com": received undecodable patch in webhook response: ' +
        "invalid character '}' looking for beginning of value",
      annotations: { [mutation(0, 0)]: mutationAnnotationValue(CFG, 'invalidmutation.example.com', false) },
    },
  },
  // Newer tables: a patch that does not decode is a calling error, so failurePolicy applies.
  {
    name: 'match & invalid patch',
    webhooks: [{ name: 'invalidpatch.example.com', behaviour: 'invalidPatch' }],
    expect: {
      allowed: false,
      statusCode: 500,
      message:
        'Internal error occurred: failed calling webhook "invalidpatch.example.com": received undecodable patch in webhook response: unexpected end of JSON input',
      annotations: { [mutation(0, 0)]: mutationAnnotationValue(CFG, 'invalidpatch.example.com', false) },
    },
  },
  {
    name: 'match & invalid patch fail open',
    webhooks: [{ name: 'invalidpatch.example.com', behaviour: 'invalidPatch', failurePolicy: 'Ignore' }],
    expect: {
      allowed: true,
      annotations: {
        [mutation(0, 0)]: mutationAnnotationValue(CFG, 'invalidpatch.example.com', false),
        'failed-open.mutation.webhook.admission.k8s.io/round_0_index_0': 'invalidpatch.example.com',
      },
    },
  },
  {
    name: 'match & remove label dry run unsupported',
    configApiVersion: 'v1beta1',
    webhooks: [{ ...removeLabelHook, sideEffects: 'Unknown' }],
    request: { isDryRun: true, additionalLabels: { remove: 'me' } },
    expect: {
      allowed: false,
      statusCode: 400,
      messageContains: 'does not support dry run',
      annotations: { [mutation(0, 0)]: mutationAnnotationValue(CFG, 'removelabel.example.com', false) },
    },
  },
  {
    name: "first webhook remove labels, second webhook shouldn't be called",
    webhooks: [
      { ...removeLabelHook, objectSelector: { matchLabels: { remove: 'me' } } },
      {
        name: 'shouldnotbecalled.example.com',
        behaviour: 'shouldNotBeCalled',
        objectSelector: { matchLabels: { remove: 'me' } },
      },
    ],
    request: { additionalLabels: { remove: 'me' } },
    expect: {
      allowed: true,
      labels: { 'pod.name': 'my-pod' },
      annotations: removeLabelAnnotations,
      invocations: { removeLabel: 1, shouldNotBeCalled: 0 },
    },
  },
  {
    name: "first webhook remove labels from CRD, second webhook shouldn't be called",
    webhooks: [
      { ...removeLabelHook, objectSelector: { matchLabels: { remove: 'me' } } },
      {
        name: 'shouldnotbecalled.example.com',
        behaviour: 'shouldNotBeCalled',
        objectSelector: { matchLabels: { remove: 'me' } },
      },
    ],
    request: { isCRD: true, additionalLabels: { remove: 'me' } },
    expect: {
      allowed: true,
      labels: { 'crd.name': 'my-test-crd' },
      annotations: removeLabelAnnotations,
      invocations: { removeLabel: 1, shouldNotBeCalled: 0 },
    },
  },
  {
    name: 'match & reinvoke if needed policy',
    webhooks: [
      { ...addLabelHook, reinvocationPolicy: 'IfNeeded' },
      { ...removeLabelHook, reinvocationPolicy: 'IfNeeded' },
    ],
    request: { additionalLabels: { remove: 'me' } },
    expect: {
      allowed: true,
      labels: { 'pod.name': 'my-pod', added: 'test' },
      // addLabel is re-invoked because removeLabel changed the object after it; removeLabel is not.
      invocations: { addLabel: 2, removeLabel: 1 },
      annotations: {
        'removelabel.example.com/key1': 'value1',
        [mutation(0, 0)]: mutationAnnotationValue(CFG, 'addlabel.example.com', true),
        [mutation(0, 1)]: mutationAnnotationValue(CFG, 'removelabel.example.com', true),
        [patchKey(0, 0)]: expectedPatchAnnotation('addlabel.example.com', ADD_LABEL),
        [patchKey(0, 1)]: expectedPatchAnnotation('removelabel.example.com', REMOVE_LABEL),
        // Round 1: the same add applies again without changing anything; its patch is still recorded.
        [mutation(1, 0)]: mutationAnnotationValue(CFG, 'addlabel.example.com', false),
        [patchKey(1, 0)]: expectedPatchAnnotation('addlabel.example.com', ADD_LABEL),
      },
    },
  },
  {
    name: 'match & never reinvoke policy',
    webhooks: [{ ...addLabelHook, reinvocationPolicy: 'Never' }],
    expect: { allowed: true, invocations: { addLabel: 1 }, annotations: addLabelAnnotations },
  },
  {
    name: 'match & never reinvoke policy (by default)',
    webhooks: [addLabelHook],
    expect: { allowed: true, invocations: { addLabel: 1 }, annotations: addLabelAnnotations },
  },
  {
    name: 'match & no reinvoke',
    webhooks: [{ name: 'noop.example.com', behaviour: 'noop' }],
    expect: {
      allowed: true,
      annotations: { [mutation(0, 0)]: mutationAnnotationValue(CFG, 'noop.example.com', false) },
    },
  },
];

/**
 * ConvertToMutatingTestCases: a non-mutating case run by the mutating dispatcher expects a
 * `mutated: false` mutation annotation for every hook that is attempted (the Go heuristic: rules
 * match everything and both selectors are empty), stops counting after a hook that fails closed
 * with an internal error, and sees fail-open annotations under the mutation prefix.
 */
export function convertToMutatingCases(cases: readonly ChainCase[]): ChainCase[] {
  return cases.map((c) => {
    const annotations: Record<string, string> = {};
    for (const [key, value] of Object.entries(c.expect.annotations ?? {})) {
      annotations[
        key.replace(
          'failed-open.validating.webhook.admission.k8s.io/',
          'failed-open.mutation.webhook.admission.k8s.io/',
        )
      ] = value;
    }
    for (const [index, hook] of c.webhooks.entries()) {
      if (hook.rules === undefined && hook.namespaceSelector === undefined && hook.objectSelector === undefined) {
        annotations[mutation(0, index)] = mutationAnnotationValue(CFG, hook.name, false);
      }
      const policy = hook.failurePolicy ?? (c.configApiVersion === 'v1beta1' ? 'Ignore' : 'Fail');
      if (hook.behaviour === 'internalErr' && policy === 'Fail') break;
    }
    return { ...c, expect: { ...c.expect, annotations } };
  });
}
