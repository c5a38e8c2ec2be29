/**
 * Hooks and calls for the gateway's own unit tests, compiled with the real libs/admission pipeline
 * (defaulting + compileHooks) so tests exercise the same frozen Hook objects the gateway serves.
 */
import {
  compileHooks,
  defaultConfiguration,
  type AdmissionRequest,
  type Hook,
  type HookCall,
  type WebhookSpec,
} from '@hookgate/admission';
import { podAdmissionRequest } from '@hookgate/admission/testing';

export function compileTestHook(
  phase: 'mutating' | 'validating',
  webhook: WebhookSpec,
  apiVersion:
    'admissionregistration.k8s.io/v1' | 'admissionregistration.k8s.io/v1beta1' = 'admissionregistration.k8s.io/v1',
): Hook {
  const set = compileHooks([
    defaultConfiguration({
      apiVersion,
      kind: phase === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
      metadata: { name: 'test-config' },
      webhooks: [
        {
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }],
          ...webhook,
        },
      ],
    }),
  ]);
  const hook = set[phase][0];
  if (!hook) throw new Error('test hook did not compile');
  return hook;
}

export function podCreateRequest(uid = 'request-uid-1'): AdmissionRequest {
  return podAdmissionRequest({
    uid,
    userInfo: { username: 'alice', groups: ['system:authenticated'] },
    object: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
      spec: {},
    },
  });
}

export function buildTestCall(hook: Hook, now: number, overrides: Partial<HookCall> = {}): HookCall {
  return {
    hook,
    request: podCreateRequest(),
    version: hook.reviewVersion ?? 'v1',
    round: 0,
    deadline: now + hook.timeoutSeconds * 1000,
    timeoutSeconds: hook.timeoutSeconds,
    patchFromOriginal: [],
    ...overrides,
  };
}
