import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { exampleWebhookPlugins } from './webhook-example.js';

const webhooks = (plugin: string, failurePolicy = 'Fail'): string => `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: { name: team-label }
webhooks:
  - name: no-latest.example.com
    clientConfig: { plugin: ${plugin} }
    rules: [{ operations: [CREATE], apiGroups: [''], apiVersions: [v1], resources: [pods] }]
    sideEffects: None
    admissionReviewVersions: [v1]
    failurePolicy: ${failurePolicy}
`;

describe('exampleWebhookPlugins', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'hookgate-sdk-example-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const cases: { name: string; yaml: string; result: [string, string][] | RegExp }[] = [
    {
      name: 'a valid configuration: its hooks and plugins',
      yaml: webhooks('team-label'),
      result: [['no-latest.example.com', 'team-label']],
    },
    {
      name: 'another plugin than the one checked',
      yaml: webhooks('other'),
      result: /webhooks\.yaml: .*webhooks\[0\]\.clientConfig\.plugin/,
    },
    {
      name: 'an invalid field',
      yaml: webhooks('team-label', 'Sometimes'),
      result: /webhooks\[0\]\.failurePolicy: Unsupported value: "Sometimes"/,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const file = path.join(dir, 'webhooks.yaml');
      await writeFile(file, c.yaml);
      const result = exampleWebhookPlugins(file, 'team-label');
      if (c.result instanceof RegExp) await expect(result).rejects.toThrow(c.result);
      else await expect(result).resolves.toEqual(c.result);
    });
  }
});
