/**
 * The Registry's check that a hook registered at run time lies inside the gateway's registration:
 * a rule reaching requests the apiserver does not send to the gateway would silently never be
 * called (a Fail policy hook that never runs is a hole, not a safety net), so it is refused with
 * what to change instead.
 */
import { describeShape, outsideRegistration, type DefaultedConfiguration, type Phase } from '@hookgate/admission';
import { registrationScopes, type PolicyScope } from './registration-scopes.js';

type ScopeInput = Parameters<typeof registrationScopes>[0];

/** A problem per rule outside the registration (empty when every rule is inside). */
export function hooksOutsideRegistration(
  configurations: readonly DefaultedConfiguration[],
  registered: ScopeInput,
): string[] {
  const scopes: Record<Phase, PolicyScope[]> = {
    mutating: registrationScopes(registered, 'mutating'),
    validating: registrationScopes(registered, 'validating'),
  };
  const problems: string[] = [];
  for (const configuration of configurations) {
    const phase: Phase = configuration.kind === 'MutatingWebhookConfiguration' ? 'mutating' : 'validating';
    const type = phase === 'mutating' ? 'Mutating' : 'Validating';
    for (const webhook of configuration.webhooks) {
      const { scope } = scopes[phase].find((s) => s.scope.failurePolicy === webhook.failurePolicy)!;
      webhook.rules.forEach((rule, i) => {
        const outside = outsideRegistration(rule, scope);
        if (outside.length === 0) return;
        const examples = outside.slice(0, 3).map(describeShape).join('; ');
        problems.push(
          `webhook ${JSON.stringify(webhook.name)} rules[${i}] reaches requests the gateway's registration does not send it ` +
            `(${outside.length} request shape(s), e.g. ${examples}): add the rule to registration.reserve ` +
            `(type ${type}, failurePolicy ${webhook.failurePolicy}) in the GatewayConfiguration, ` +
            `apply the output of \`hookgate print-webhooks\`, then register again`,
        );
      });
    }
  }
  return problems;
}
