/**
 * Cases beyond the apiserver's tables, for behaviour k8s-semantics.md specifies and Hookgate must
 * keep: timeouts and the request budget, response verification, denial statuses, fail-open
 * indices, warnings, exemptions, matchConditions, namespaces, and patch errors.
 * Messages that depend on the transport (URLs, Go error strings) are matched by substring only.
 */
import { mutationAnnotationValue } from '../../annotations.js';
import { TEST_CONFIGURATION_NAME } from '../builders.js';
import type { ChainCase } from './types.js';
import { expectedPatchAnnotation } from './mutating.js';

const CFG = TEST_CONFIGURATION_NAME;
const mutation = (round: 0 | 1, index: number) => `mutation.webhook.admission.k8s.io/round_${round}_index_${index}`;
const patchKey = (round: 0 | 1, index: number) => `patch.webhook.admission.k8s.io/round_${round}_index_${index}`;
const failedOpenValidating = (k: number) => `failed-open.validating.webhook.admission.k8s.io/round_0_index_${k}`;
const failedOpenMutation = (i: number) => `failed-open.mutation.webhook.admission.k8s.io/round_0_index_${i}`;
const createOnly = [{ operations: ['CREATE' as const], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }];

const exemptRequest = {
  kind: { group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingWebhookConfiguration' },
  resource: { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations' },
} as const;

/** Cases whose expectations are the same for both dispatchers (no annotations asserted). */
export const HOOKGATE_COMMON_CASES: readonly ChainCase[] = [
  {
    name: 'timeout & fail closed',
    webhooks: [{ name: 'timeout.example.com', behaviour: 'timeout', timeoutSeconds: 2, failurePolicy: 'Fail' }],
    expect: { allowed: false, statusCode: 500, reason: 'InternalError', messageContains: 'context deadline exceeded' },
  },
  {
    name: 'wrong uid from a v1 hook & fail closed',
    webhooks: [
      { name: 'wronguid.example.com', behaviour: 'wrongUid', admissionReviewVersions: ['v1'], failurePolicy: 'Fail' },
    ],
    expect: {
      allowed: false,
      statusCode: 500,
      messageContains: 'received invalid webhook response: expected response.uid=',
    },
  },
  {
    name: 'wrong uid from a v1beta1 hook is accepted (v1beta1 leniency)',
    webhooks: [{ name: 'wronguid.example.com', behaviour: 'wrongUid', admissionReviewVersions: ['v1beta1'] }],
    expect: { allowed: true },
  },
  {
    name: 'undecodable response & fail closed',
    webhooks: [{ name: 'invalidresp.example.com', behaviour: 'invalidResp', failurePolicy: 'Fail' }],
    expect: {
      allowed: false,
      statusCode: 500,
      messageContains: 'failed calling webhook "invalidresp.example.com": failed to call webhook: ',
    },
  },
  {
    name: 'deny with a code keeps the code, reason and message',
    webhooks: [{ name: 'denywithcode.example.com', behaviour: 'denyWithCode' }],
    expect: {
      allowed: false,
      statusCode: 422,
      reason: 'Invalid',
      message: 'admission webhook "denywithcode.example.com" denied the request: spec.replicas must be odd',
    },
  },
  {
    name: 'deny with only a reason uses the reason as message, code 400',
    webhooks: [{ name: 'denywithreason.example.com', behaviour: 'denyWithReason' }],
    expect: {
      allowed: false,
      statusCode: 400,
      reason: 'NotAllowedByPolicy',
      message: 'admission webhook "denywithreason.example.com" denied the request: NotAllowedByPolicy',
    },
  },
  {
    name: 'deny without a status is 400 without explanation',
    webhooks: [{ name: 'deny.example.com', behaviour: 'deny' }],
    expect: {
      allowed: false,
      statusCode: 400,
      message: 'admission webhook "deny.example.com" denied the request without explanation',
    },
  },
  {
    name: 'warnings are deduplicated, invalid ones dropped, order kept',
    webhooks: [{ name: 'warnings.example.com', behaviour: 'allowWithWarnings' }],
    expect: { allowed: true, warnings: ['first warning', 'second warning'] },
  },
  {
    name: 'webhook configuration objects never reach hooks',
    webhooks: [{ name: 'disallow.example.com', behaviour: 'disallow' }],
    request: exemptRequest,
    expect: { allowed: true, annotations: {}, invocations: { disallow: 0 } },
  },
  {
    name: 'a false matchCondition skips the hook',
    webhooks: [
      {
        name: 'disallow.example.com',
        behaviour: 'disallow',
        matchConditions: [{ name: 'never', expression: 'false' }],
      },
    ],
    expect: { allowed: true, invocations: { disallow: 0 } },
  },
  {
    name: 'a matchCondition error under Fail rejects with 403 before any call',
    webhooks: [
      {
        name: 'disallow.example.com',
        behaviour: 'disallow',
        matchConditions: [{ name: 'missing-label', expression: "object.metadata.labels['nonexistent'] == 'x'" }],
      },
    ],
    expect: {
      allowed: false,
      statusCode: 403,
      reason: 'Forbidden',
      message:
        "pods \"my-pod\" is forbidden: expression 'object.metadata.labels['nonexistent'] == 'x'' resulted in error: no such key: nonexistent",
      invocations: { disallow: 0 },
    },
  },
  {
    name: 'a matchCondition error under Ignore skips the hook',
    webhooks: [
      {
        name: 'disallow.example.com',
        behaviour: 'disallow',
        failurePolicy: 'Ignore',
        matchConditions: [{ name: 'missing-label', expression: "object.metadata.labels['nonexistent'] == 'x'" }],
      },
    ],
    expect: { allowed: true, invocations: { disallow: 0 } },
  },
  {
    // The apiserver's integration test: a false condition skips the hook whatever the others did.
    name: 'matchConditions: a mix of true, error and false skips the hook under Fail',
    webhooks: [
      {
        name: 'disallow.example.com',
        behaviour: 'disallow',
        failurePolicy: 'Fail',
        matchConditions: [
          { name: 'test1', expression: "object.nonExistentProperty == 'someval'" },
          { name: 'test2', expression: 'true' },
          { name: 'test3', expression: 'false' },
          { name: 'test4', expression: 'true' },
          { name: 'test5', expression: "object.nonExistentProperty == 'someval'" },
        ],
      },
    ],
    expect: { allowed: true, invocations: { disallow: 0 } },
  },
  {
    name: 'matchConditions: distinct errors are joined in the 403',
    webhooks: [
      {
        name: 'disallow.example.com',
        behaviour: 'disallow',
        matchConditions: [
          { name: 'a', expression: "object.nonExistentProperty == 'someval'" },
          { name: 'b', expression: "object.nonExistentProperty == 'someval'" },
          { name: 'c', expression: "object.other == 'x'" },
        ],
      },
    ],
    expect: {
      allowed: false,
      statusCode: 403,
      reason: 'Forbidden',
      message:
        "pods \"my-pod\" is forbidden: [expression 'object.nonExistentProperty == 'someval'' resulted in error: no such key: nonExistentProperty, expression 'object.other == 'x'' resulted in error: no such key: other]",
      invocations: { disallow: 0 },
    },
  },
  {
    name: 'auth review virtual resources never reach hooks',
    webhooks: [{ name: 'disallow.example.com', behaviour: 'disallow' }],
    request: {
      operation: 'CREATE',
      namespace: '',
      kind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenReview' },
      resource: { group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews' },
    },
    expect: { allowed: true, annotations: {}, invocations: { disallow: 0 } },
  },
  {
    name: 'a kind named like an admission configuration in another group is not exempt',
    webhooks: [{ name: 'disallow.example.com', behaviour: 'disallow' }],
    request: {
      kind: { group: 'example.com', version: 'v1', kind: 'ValidatingWebhookConfiguration' },
      resource: { group: 'example.com', version: 'v1', resource: 'validatingwebhookconfigurations' },
    },
    expect: { allowed: false, invocations: { disallow: 1 } },
  },
  {
    name: 'a Namespaced rule does not match a request without a namespace',
    webhooks: [
      {
        name: 'disallow.example.com',
        behaviour: 'disallow',
        rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: 'Namespaced' }],
      },
    ],
    request: { namespace: '' },
    expect: { allowed: true, invocations: { disallow: 0 } },
  },
  {
    name: 'a Namespace object is cluster-scoped even with request.namespace set',
    webhooks: [
      {
        name: 'disallow.example.com',
        behaviour: 'disallow',
        rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: 'Namespaced' }],
      },
    ],
    request: {
      kind: { group: '', version: 'v1', kind: 'Namespace' },
      resource: { group: '', version: 'v1', resource: 'namespaces' },
    },
    expect: { allowed: true, invocations: { disallow: 0 } },
  },
  {
    name: 'a Namespace CREATE is matched by its own labels, not a lookup',
    webhooks: [
      { name: 'disallow.example.com', behaviour: 'disallow', namespaceSelector: { matchLabels: { runlevel: '7' } } },
    ],
    request: {
      operation: 'CREATE',
      namespace: '',
      labels: { runlevel: '7' },
      kind: { group: '', version: 'v1', kind: 'Namespace' },
      resource: { group: '', version: 'v1', resource: 'namespaces' },
    },
    expect: { allowed: false, invocations: { disallow: 1 } },
  },
  {
    name: 'a Namespace DELETE is matched by the labels of the existing namespace (unknown: 404)',
    webhooks: [
      { name: 'disallow.example.com', behaviour: 'disallow', namespaceSelector: { matchLabels: { runlevel: '7' } } },
    ],
    request: {
      operation: 'DELETE',
      namespace: 'gone-ns',
      labels: { runlevel: '7' },
      kind: { group: '', version: 'v1', kind: 'Namespace' },
      resource: { group: '', version: 'v1', resource: 'namespaces' },
    },
    expect: {
      allowed: false,
      statusCode: 404,
      reason: 'NotFound',
      message: 'namespaces "gone-ns" not found',
      invocations: { disallow: 0 },
    },
  },
  {
    name: 'DELETE: the objectSelector is matched against the oldObject',
    webhooks: [
      {
        name: 'disallow.example.com',
        behaviour: 'disallow',
        objectSelector: { matchLabels: { 'pod.name': 'my-pod' } },
      },
    ],
    request: { operation: 'DELETE' },
    expect: { allowed: false, invocations: { disallow: 1 } },
  },
  {
    name: 'CREATE: the objectSelector never sees a oldObject',
    webhooks: [
      {
        name: 'disallow.example.com',
        behaviour: 'disallow',
        objectSelector: { matchExpressions: [{ key: 'pod.name', operator: 'DoesNotExist' }] },
      },
    ],
    request: { operation: 'CREATE' },
    expect: { allowed: true, invocations: { disallow: 0 } },
  },
  {
    name: 'an unknown namespace is 404 for a hook with a namespaceSelector',
    webhooks: [
      { name: 'allow.example.com', behaviour: 'allow', namespaceSelector: { matchLabels: { runlevel: '0' } } },
    ],
    request: { namespace: 'missing-ns' },
    expect: {
      allowed: false,
      statusCode: 404,
      reason: 'NotFound',
      message: 'namespaces "missing-ns" not found',
      invocations: { allow: 0 },
    },
  },
];

export const HOOKGATE_VALIDATING_CASES: readonly ChainCase[] = [
  {
    name: 'timeout & fail open',
    webhooks: [{ name: 'timeout.example.com', behaviour: 'timeout', timeoutSeconds: 2, failurePolicy: 'Ignore' }],
    expect: { allowed: true, annotations: { [failedOpenValidating(0)]: 'timeout.example.com' } },
  },
  {
    name: 'the fail-open index counts matching hooks only',
    webhooks: [
      { name: 'nomatch.example.com', behaviour: 'internalErr', rules: createOnly, failurePolicy: 'Ignore' },
      { name: 'allow.example.com', behaviour: 'allow' },
      { name: 'internalerr.example.com', behaviour: 'internalErr', failurePolicy: 'Ignore' },
    ],
    expect: {
      allowed: true,
      annotations: { 'allow.example.com/key1': 'value1', [failedOpenValidating(1)]: 'internalerr.example.com' },
    },
  },
  {
    name: 'a denying hook keeps its warnings and annotations',
    webhooks: [{ name: 'denywithwarnings.example.com', behaviour: 'denyWithWarnings' }],
    expect: {
      allowed: false,
      statusCode: 403,
      message: 'admission webhook "denywithwarnings.example.com" denied the request: no',
      warnings: ['denied: first', 'denied: second'],
      annotations: { 'denywithwarnings.example.com/reason': 'no' },
    },
  },
  {
    name: 'a validating hook that answers with a patch (v1) fails',
    webhooks: [
      { name: 'addlabel.example.com', behaviour: 'addLabel', admissionReviewVersions: ['v1'], failurePolicy: 'Fail' },
    ],
    expect: { allowed: false, statusCode: 500, messageContains: 'validating webhook may not return response.patch' },
  },
];

export const HOOKGATE_MUTATING_CASES: readonly ChainCase[] = [
  {
    name: 'timeout & fail open',
    webhooks: [{ name: 'timeout.example.com', behaviour: 'timeout', timeoutSeconds: 2, failurePolicy: 'Ignore' }],
    expect: {
      allowed: true,
      annotations: {
        [mutation(0, 0)]: mutationAnnotationValue(CFG, 'timeout.example.com', false),
        [failedOpenMutation(0)]: 'timeout.example.com',
      },
    },
  },
  {
    name: 'failing open after the request budget is spent answers 504 and stops the chain',
    timeout: '2s',
    webhooks: [
      { name: 'timeout.example.com', behaviour: 'timeout', timeoutSeconds: 30, failurePolicy: 'Ignore' },
      { name: 'allow.example.com', behaviour: 'allow' },
    ],
    expect: {
      allowed: false,
      statusCode: 504,
      reason: 'Timeout',
      message: 'Timeout: request did not complete within requested timeout',
      invocations: { timeout: 1, allow: 0 },
      annotations: {
        [mutation(0, 0)]: mutationAnnotationValue(CFG, 'timeout.example.com', false),
        [failedOpenMutation(0)]: 'timeout.example.com',
      },
    },
  },
  {
    name: 'a patch that does not apply is a 500 whatever the failurePolicy',
    webhooks: [{ name: 'unappliablepatch.example.com', behaviour: 'unappliablePatch', failurePolicy: 'Ignore' }],
    expect: {
      allowed: false,
      statusCode: 500,
      reason: 'InternalError',
      message:
        "Internal error occurred: error in remove for path: '/metadata/labels/nonexistent': Unable to remove nonexistent key: nonexistent: missing value",
      annotations: { [mutation(0, 0)]: mutationAnnotationValue(CFG, 'unappliablepatch.example.com', false) },
    },
  },
  {
    name: 'a patch that changes the kind to one not registered does not decode: a 500 whatever the failurePolicy, later hooks not called',
    webhooks: [
      { name: 'changekind.example.com', behaviour: 'changeKind', failurePolicy: 'Ignore' },
      { name: 'addlabel.example.com', behaviour: 'addLabel' },
    ],
    expect: {
      allowed: false,
      statusCode: 500,
      reason: 'InternalError',
      message:
        'Internal error occurred: the patched object is a "v1", Kind="NoSuchKind", not the "v1", Kind="Pod" the request is for',
      invocations: { changeKind: 1, addLabel: 0 },
      annotations: { [mutation(0, 0)]: mutationAnnotationValue(CFG, 'changekind.example.com', false) },
    },
  },
  {
    name: 'a patch for a DELETE is a 500',
    webhooks: [{ name: 'patch-add-label.example.com', behaviour: 'patch-add-label', failurePolicy: 'Ignore' }],
    request: { operation: 'DELETE' },
    expect: {
      allowed: false,
      statusCode: 500,
      message:
        'Internal error occurred: admission webhook "patch-add-label.example.com" attempted to modify the object, which is not supported for this operation',
    },
  },
  {
    name: 'an unsupported patch type fails open under Ignore',
    webhooks: [
      {
        name: 'mergepatch.example.com',
        behaviour: 'mergePatch',
        admissionReviewVersions: ['v1'],
        failurePolicy: 'Ignore',
      },
    ],
    expect: {
      allowed: true,
      labels: { 'pod.name': 'my-pod' },
      annotations: {
        [mutation(0, 0)]: mutationAnnotationValue(CFG, 'mergepatch.example.com', false),
        [failedOpenMutation(0)]: 'mergepatch.example.com',
      },
    },
  },
  {
    name: 'a merge patch is undecodable as JSON Patch, which is checked before the patch type',
    webhooks: [
      {
        name: 'mergepatch.example.com',
        behaviour: 'mergePatch',
        admissionReviewVersions: ['v1'],
        failurePolicy: 'Fail',
      },
    ],
    expect: {
      allowed: false,
      statusCode: 500,
      message:
        'Internal error occurred: failed calling webhook "mergepatch.example.com": received undecodable patch in webhook response: ' +
        'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    },
  },
  {
    name: 'an unsupported patch type fails closed under Fail',
    webhooks: [
      {
        name: 'mislabeled.example.com',
        behaviour: 'mislabeledPatch',
        admissionReviewVersions: ['v1'],
        failurePolicy: 'Fail',
      },
    ],
    expect: {
      allowed: false,
      statusCode: 500,
      message:
        'Internal error occurred: failed calling webhook "mislabeled.example.com": unsupported patch type "MergePatch"',
    },
  },
  {
    name: 'an empty patch changes nothing and records no patch annotation',
    webhooks: [{ name: 'emptypatch.example.com', behaviour: 'emptyPatch' }],
    expect: {
      allowed: true,
      annotations: { [mutation(0, 0)]: mutationAnnotationValue(CFG, 'emptypatch.example.com', false) },
    },
  },
  {
    name: 'a denial stops the chain; earlier patches stay in the annotations',
    webhooks: [
      { name: 'addlabel.example.com', behaviour: 'addLabel' },
      { name: 'disallow.example.com', behaviour: 'disallow' },
      { name: 'allow.example.com', behaviour: 'allow' },
    ],
    expect: {
      allowed: false,
      statusCode: 403,
      invocations: { addLabel: 1, disallow: 1, allow: 0 },
      annotations: {
        [mutation(0, 0)]: mutationAnnotationValue(CFG, 'addlabel.example.com', true),
        [patchKey(0, 0)]: expectedPatchAnnotation(
          'addlabel.example.com',
          '[{"op": "add", "path": "/metadata/labels/added", "value": "test"}]',
        ),
        [mutation(0, 1)]: mutationAnnotationValue(CFG, 'disallow.example.com', false),
      },
    },
  },
  {
    name: 'warnings of all hooks in call order, denials included',
    webhooks: [
      { name: 'warnings.example.com', behaviour: 'allowWithWarnings' },
      { name: 'denywithwarnings.example.com', behaviour: 'denyWithWarnings' },
    ],
    expect: {
      allowed: false,
      statusCode: 403,
      warnings: ['first warning', 'second warning', 'denied: first', 'denied: second'],
    },
  },
  {
    name: 'the object selector sees the patched object',
    webhooks: [
      { name: 'addlabel.example.com', behaviour: 'addLabel' },
      {
        name: 'shouldnotbecalled.example.com',
        behaviour: 'shouldNotBeCalled',
        objectSelector: { matchLabels: { added: 'test' } },
      },
    ],
    expect: { allowed: false, statusCode: 403, messageContains: "doesn't expect labels to match object selector" },
  },
];
