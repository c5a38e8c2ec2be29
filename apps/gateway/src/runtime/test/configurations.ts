/** Real configurations for the runtime's tests: YAML written to a temp dir and loaded by @hookgate/config. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfiguration, type LoadedConfiguration } from '@hookgate/config';
import { stringify } from 'yaml';

/** registration.reserve with room for any hook registered at run time (tests of the Registry's other rules). */
export const RESERVE_EVERYTHING = (['Mutating', 'Validating'] as const).flatMap((type) =>
  (['Fail', 'Ignore'] as const).map((failurePolicy) => ({
    type,
    failurePolicy,
    rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }],
  })),
);

/**
 * A GatewayConfiguration (with `gateway` merged over a minimal one, whose registration reserves
 * room for any registered hook) plus webhook configuration documents, loaded for real.
 */
export async function loadTestConfiguration(
  dir: string,
  gateway: Record<string, unknown>,
  documents: readonly object[] = [],
): Promise<LoadedConfiguration> {
  const file = path.join(dir, `hookgate-${Math.random().toString(36).slice(2)}.yaml`);
  const head = {
    apiVersion: 'hookgate.dev/v1alpha1',
    kind: 'GatewayConfiguration',
    stateDir: path.join(dir, 'state'),
    workers: 1,
    registration: { reserve: RESERVE_EVERYTHING },
    ...gateway,
  };
  await writeFile(file, [head, ...documents].map((d) => stringify(d)).join('---\n'));
  const loaded = await loadConfiguration(file, { checkFiles: false });
  if (!loaded.ok) throw new Error(`test configuration is invalid: ${JSON.stringify(loaded.error)}`);
  return loaded.value;
}

/** A validating configuration with one webhook on pod CREATE, served by a plugin (by name) or at a URL. */
export function validatingConfiguration(
  name: string,
  webhook: string,
  served: string | { readonly url: string },
  failurePolicy: 'Fail' | 'Ignore' = 'Fail',
): object {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name },
    webhooks: [
      {
        name: webhook,
        clientConfig: typeof served === 'string' ? { plugin: served } : { url: served.url },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
        failurePolicy,
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ],
  };
}
