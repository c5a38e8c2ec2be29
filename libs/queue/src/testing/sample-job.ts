/**
 * @hookgate/queue/testing: one builder of sample side-effect jobs for tests (the queue's own, the
 * controller's, the CLI's, benchmarks), instead of a copy in each.
 *
 *   const job = sampleJob({ effect: { kind: 'claim', key: 'shop/web' } });
 *   const denied = sampleJob({ decision: DENIED_BY_HOOK }, { uid: randomUUID() });
 *
 * Defaults: the ledger plugin's validating CREATE of deployments.apps shop/web (uid u-1), allowed,
 * at a fixed time. `admission` fields are merged into the default admission summary.
 */
import type { GatewayDecision, SideEffectJob } from '../job-schema.js';

/** A fixed admission time (2025-11-26T07:52:20Z), so tests can place their clock after it. */
export const SAMPLE_TIME = 1_764_143_540_000;
export const SAMPLE_PLUGIN = 'ledger';
export const SAMPLE_HOOK = 'claims.ledger.example.com';

/** The gateway's answer when a later hook denied the request: NOT_PERSISTED without a read. */
export const DENIED_BY_HOOK: GatewayDecision = { allowed: false, by: 'hook', hook: 'later.example.com', code: 403 };

type JobOverrides = Partial<Omit<SideEffectJob, 'admission'>>;

export function sampleJob(
  overrides: JobOverrides = {},
  admission: Partial<SideEffectJob['admission']> = {},
): SideEffectJob {
  return {
    schema: 1,
    plugin: SAMPLE_PLUGIN,
    hook: SAMPLE_HOOK,
    effect: { kind: 'claim', key: 'shop/web', payload: Buffer.from('{"cpu":2}').toString('base64') },
    decision: { allowed: true },
    gateway: 'gw-1',
    time: SAMPLE_TIME,
    ...overrides,
    admission: {
      uid: 'call-1',
      operation: 'CREATE',
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      subResource: '',
      namespace: 'shop',
      name: 'web',
      generateName: '',
      objectUid: 'u-1',
      dryRun: false,
      phase: 'validating',
      ...admission,
    },
  };
}
