/**
 * What the gateway's own registration with the apiserver covers, per phase and failure policy:
 * the union of the static hooks' rules plus `registration.reserve` (libs/admission registration/).
 * `hookgate print-webhooks` prints it; the Registry refuses run-time hooks outside it, since the
 * apiserver would never send them a request.
 */
import { registrationScope, type DefaultedWebhook, type FailurePolicyType, type Phase } from '@hookgate/admission';
import type { RegistrationScope } from '@hookgate/admission';
import type { LoadedConfiguration } from '@hookgate/config';

export const FAILURE_POLICIES: readonly FailurePolicyType[] = ['Fail', 'Ignore'];

/** The path a registration's webhook calls: the gateway runs only the hooks of that failure policy there. */
export const admissionPath = (phase: Phase, policy: FailurePolicyType): string =>
  `/${phase === 'mutating' ? 'mutate' : 'validate'}/${policy.toLowerCase()}`;

export interface PolicyScope {
  readonly scope: RegistrationScope;
  /** The static hooks of this phase and policy. */
  readonly hooks: readonly DefaultedWebhook[];
  /** Whether `registration.reserve` adds rules here (hooks of unknown timeout may come). */
  readonly reserved: boolean;
}

type ScopeInput = Pick<LoadedConfiguration, 'webhookConfigurations'> & {
  readonly gateway: Pick<LoadedConfiguration['gateway'], 'registration'>;
};

/** One scope per failure policy, Fail first. */
export function registrationScopes(configuration: ScopeInput, phase: Phase): PolicyScope[] {
  const kind = phase === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
  const type = phase === 'mutating' ? 'Mutating' : 'Validating';
  const webhooks = configuration.webhookConfigurations.filter((c) => c.kind === kind).flatMap((c) => c.webhooks);
  return FAILURE_POLICIES.map((policy) => {
    const hooks = webhooks.filter((w) => w.failurePolicy === policy);
    const reserve = configuration.gateway.registration.reserve.filter(
      (r) => r.type === type && r.failurePolicy === policy,
    );
    return {
      scope: registrationScope(
        policy,
        hooks,
        reserve.flatMap((r) => r.rules),
      ),
      hooks,
      reserved: reserve.length > 0,
    };
  });
}
