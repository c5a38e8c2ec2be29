/** immutable-fields served by the SDK on a real unix socket, called over gRPC (Admit, AdmitStream) as the gateway does. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionRequest, JsonValue } from '@hookgate/admission';
import { parseImmutableFieldsConfig } from './config.js';
import { buildImmutableFieldsPlugin, DEFAULT_HOOK } from './plugin.js';
import { admit, admitMessage, admitStream, serveOnUnixSocket, type ServedPlugin } from '@hookgate/plugin-sdk/testing';

const policy = parseImmutableFieldsConfig(
  `
crds:
  - vpcs.ec2.aws.crossplane.io/v1beta1:
      immutableFieldPaths: [spec.forProvider.region, spec.forProvider.cidrBlock]
`,
  'test.yaml',
);

const vpc = (forProvider: Record<string, JsonValue>): JsonValue => ({
  apiVersion: 'ec2.aws.crossplane.io/v1beta1',
  kind: 'VPC',
  metadata: { name: 'prod-vpc' },
  spec: { forProvider },
});

function update(uid: string, before: Record<string, JsonValue>, after: Record<string, JsonValue>): AdmissionRequest {
  return {
    uid,
    kind: { group: 'ec2.aws.crossplane.io', version: 'v1beta1', kind: 'VPC' },
    resource: { group: 'ec2.aws.crossplane.io', version: 'v1beta1', resource: 'vpcs' },
    name: 'prod-vpc',
    operation: 'UPDATE',
    userInfo: { username: 'alice' },
    object: vpc(after),
    oldObject: vpc(before),
    dryRun: false,
  };
}

describe('immutable-fields over gRPC', () => {
  let served: ServedPlugin;
  beforeAll(async () => {
    served = await serveOnUnixSocket(buildImmutableFieldsPlugin({ policy }));
  });
  afterAll(async () => {
    await served.close();
  });

  it('Admit denies a change of a set field with 422 Invalid, naming the field and both values', async () => {
    const response = await admit(
      served.client,
      admitMessage(DEFAULT_HOOK, 'VALIDATING', update('u1', { region: 'us-east-1' }, { region: 'eu-west-1' })),
    );
    expect(response.allowed).toBe(false);
    expect(response.status).toEqual({
      code: 422,
      reason: 'Invalid',
      message:
        'VPC.ec2.aws.crossplane.io "prod-vpc" is invalid: spec.forProvider.region: cannot be changed once set (was "us-east-1", now "eu-west-1")',
    });
  });

  it('Admit allows setting a field that was unset', async () => {
    const response = await admit(
      served.client,
      admitMessage(
        DEFAULT_HOOK,
        'VALIDATING',
        update('u2', { region: 'us-east-1' }, { region: 'us-east-1', cidrBlock: '10.0.0.0/16' }),
      ),
    );
    expect(response).toMatchObject({ uid: 'u2', allowed: true });
  });

  it('AdmitStream answers each message by id', async () => {
    const answers = await admitStream(served.client, [
      admitMessage(DEFAULT_HOOK, 'VALIDATING', update('a', { cidrBlock: '10.0.0.0/16' }, {}), { id: 1 }),
      admitMessage(DEFAULT_HOOK, 'VALIDATING', update('b', {}, { cidrBlock: '10.0.0.0/16' }), { id: 2 }),
    ]);
    expect(answers.get(1)).toMatchObject({
      uid: 'a',
      allowed: false,
      status: { code: 422, message: expect.stringContaining('(was "10.0.0.0/16", now <unset>)') },
    });
    expect(answers.get(2)).toMatchObject({ uid: 'b', allowed: true });
  });
});
