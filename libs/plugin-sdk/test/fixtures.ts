/** Shared test data and a raw gRPC client for the SDK's tests (no object of consequence here). */
import * as grpc from '@grpc/grpc-js';
import { newAdmissionPluginClient, newHealthClient } from '@hookgate/proto';
import type { AdmissionPluginClient, AdmitRequest, AdmitResponse__Output, HealthClient } from '@hookgate/proto';
import type { AdmissionRequest } from '@hookgate/admission';
import { podAdmissionRequest } from '@hookgate/admission/testing';

export function podRequest(overrides: Partial<AdmissionRequest> = {}): AdmissionRequest {
  return podAdmissionRequest({
    uid: '705ab4f5-6393-11e8-b7cc-42010a800002',
    requestKind: { group: '', version: 'v1', kind: 'Pod' },
    requestResource: { group: '', version: 'v1', resource: 'pods' },
    name: 'web-0',
    namespace: 'shop',
    userInfo: { username: 'alice', groups: ['system:authenticated'] },
    object: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-0', namespace: 'shop', labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
    },
    options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
    ...overrides,
  });
}

export function admitMessage(
  hook: string,
  phase: 'MUTATING' | 'VALIDATING',
  request: AdmissionRequest,
  extra: Partial<AdmitRequest> = {},
): AdmitRequest {
  return { hook, phase, uid: request.uid, request: Buffer.from(JSON.stringify(request)), ...extra };
}

export interface RawClients {
  readonly plugin: AdmissionPluginClient;
  readonly health: HealthClient;
  close(): void;
}

export function rawClients(target: string): RawClients {
  const plugin = newAdmissionPluginClient(target, grpc.credentials.createInsecure());
  const health = newHealthClient(target, grpc.credentials.createInsecure(), { channelOverride: plugin.getChannel() });
  return { plugin, health, close: () => plugin.close() };
}

export function unaryAdmit(client: AdmissionPluginClient, message: AdmitRequest): Promise<AdmitResponse__Output> {
  return new Promise((resolve, reject) => {
    client.Admit(message, { deadline: Date.now() + 5000 }, (error, response) =>
      error ? reject(error) : resolve(response!),
    );
  });
}

export function parsePatch(response: AdmitResponse__Output): unknown {
  return response.patch.length === 0 ? undefined : JSON.parse(response.patch.toString('utf8'));
}

/** A promise a test releases by hand: deterministic "slow" hooks without sleeping. */
export function gate(): { readonly promise: Promise<void>; release(): void } {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}
