/** required-labels served by the SDK on a real unix socket, called over gRPC (Admit, AdmitStream) as the gateway does. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionRequest } from '@hookgate/admission';
import { parseRequiredLabelsConfig } from './config.js';
import { buildRequiredLabelsPlugin, DEFAULT_HOOK } from './plugin.js';
import { admit, admitMessage, admitStream, serveOnUnixSocket, type ServedPlugin } from '@hookgate/plugin-sdk/testing';

const policy = parseRequiredLabelsConfig(
  `
namespaceLabels: { shop: { tier: prod } }
rules:
  - name: ownership
    kinds: [apps/Deployment]
    namespaceSelector: { matchLabels: { tier: prod } }
    labels:
      - { key: team, values: [shop, platform] }
      - { key: cost-center, pattern: '[0-9]{4}' }
`,
  'test.yaml',
);

function deployment(uid: string, labels: Record<string, string>, namespace = 'shop'): AdmissionRequest {
  return {
    uid,
    kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    name: 'api',
    namespace,
    operation: 'CREATE',
    userInfo: { username: 'alice' },
    object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api', namespace, labels }, spec: {} },
    oldObject: null,
    dryRun: false,
  };
}

describe('required-labels over gRPC', () => {
  let served: ServedPlugin;
  beforeAll(async () => {
    served = await serveOnUnixSocket(buildRequiredLabelsPlugin({ policy }));
  });
  afterAll(async () => {
    await served.close();
  });

  it('Admit allows a compliant object', async () => {
    const response = await admit(
      served.client,
      admitMessage(DEFAULT_HOOK, 'VALIDATING', deployment('u1', { team: 'shop', 'cost-center': '4711' })),
    );
    expect(response).toMatchObject({ uid: 'u1', allowed: true, status: null });
  });

  it('Admit denies with 403 Forbidden naming every missing and invalid label', async () => {
    const response = await admit(
      served.client,
      admitMessage(DEFAULT_HOOK, 'VALIDATING', deployment('u2', { team: 'marketing' })),
    );
    expect(response.allowed).toBe(false);
    expect(response.status).toEqual({
      code: 403,
      reason: 'Forbidden',
      message:
        'Deployment "shop/api" does not carry the required labels: rule "ownership": label "team" has value "marketing" (allowed: "shop", "platform"); ' +
        'missing label "cost-center" (must match /[0-9]{4}/)',
    });
  });

  it('AdmitStream answers each message by id', async () => {
    const answers = await admitStream(served.client, [
      admitMessage(DEFAULT_HOOK, 'VALIDATING', deployment('a', {}), { id: 7 }),
      admitMessage(DEFAULT_HOOK, 'VALIDATING', deployment('b', {}, 'sandbox'), { id: 8 }),
      admitMessage(DEFAULT_HOOK, 'VALIDATING', deployment('c', { team: 'platform', 'cost-center': '0001' }), { id: 9 }),
    ]);
    expect(answers.get(7)).toMatchObject({ uid: 'a', allowed: false, status: { code: 403 } });
    expect(answers.get(8)).toMatchObject({ uid: 'b', allowed: true }); // sandbox is not selected by tier=prod
    expect(answers.get(9)).toMatchObject({ uid: 'c', allowed: true });
  });
});
