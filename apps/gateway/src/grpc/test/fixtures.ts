/** Test data for the gRPC invoker tests: hooks, calls and a received Pod review. */
import type { AdmissionRequest, Hook, HookCall, PatchOperation, ReviewVersion } from '@hookgate/admission';
import { podAdmissionRequest } from '@hookgate/admission/testing';
import type { ReceivedRequest } from '../received-request.js';

/**
 * The Hook fields the invoker reads. A compiled Hook has many more (rules, selectors...), which
 * only matter to matching, upstream of the invoker.
 */
export function hookFor(name: string, phase: 'mutating' | 'validating', plugin: string): Hook {
  return {
    uid: `test/${name}/0`,
    name,
    phase,
    configurationName: 'test',
    index: 0,
    target: { kind: 'plugin', plugin },
    timeoutSeconds: 10,
  } as Partial<Hook> as Hook;
}

export function podRequest(overrides: Partial<AdmissionRequest> = {}): AdmissionRequest {
  return podAdmissionRequest({
    uid: 'apiserver-uid',
    requestKind: { group: '', version: 'v1', kind: 'Pod' },
    requestResource: { group: '', version: 'v1', resource: 'pods' },
    name: 'web-0',
    namespace: 'shop',
    object: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-0', namespace: 'shop', labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
    },
    ...overrides,
  });
}

let uidCounter = 0;

export interface CallOptions {
  deadline?: number;
  version?: ReviewVersion;
  patchFromOriginal?: readonly PatchOperation[];
  request?: AdmissionRequest;
  round?: 0 | 1;
}

/** A call as the chain makes it: a fresh uid, the object as patched so far. */
export function callFor(hook: Hook, options: CallOptions = {}): HookCall {
  const base = options.request ?? podRequest();
  return {
    hook,
    request: { ...base, uid: `call-${++uidCounter}` },
    version: options.version ?? 'v1',
    round: options.round ?? 0,
    deadline: options.deadline ?? Date.now() + 5000,
    timeoutSeconds: 10,
    patchFromOriginal: options.patchFromOriginal ?? [],
  };
}

export function receivedReview(request: AdmissionRequest = podRequest()): ReceivedRequest {
  const body = Buffer.from(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request }));
  return { bytes: body, form: 'review', request };
}

export function receivedStanza(request: AdmissionRequest = podRequest()): ReceivedRequest {
  return { bytes: Buffer.from(JSON.stringify(request)), form: 'request', request };
}

export function gate(): { readonly promise: Promise<void>; release(): void } {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}
