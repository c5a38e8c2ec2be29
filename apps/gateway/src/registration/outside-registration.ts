/**
 * Hooks that reach requests a registration does not send to the gateway. The Registry refuses such
 * a hook registered at run time: it would silently never be called (a Fail hook that never runs
 * is a hole, not a safety net). A configuration reload with such hooks gets a warning: the
 * registration printed from the previous configuration must be printed and applied again.
 */
import { describeShape, outsideRegistration, type DefaultedConfiguration, type Phase } from '@hookgate/admission';
import { registrationScopes, type PolicyScope } from './registration-scopes.js';

type ScopeInput = Parameters<typeof registrationScopes>[0];

export interface RuleOutside {
  readonly webhook: string;
  readonly type: 'Mutating' | 'Validating';
  readonly failurePolicy: string;
  readonly ruleIndex: number;
  /** How many request shapes are outside, and the first few, readable. */
  readonly shapes: number;
  readonly examples: readonly string[];
}

/** Every rule of `configurations` reaching requests outside what `registered` would register. */
export function rulesOutsideRegistration(
  configurations: readonly DefaultedConfiguration[],
  registered: ScopeInput,
): RuleOutside[] {
  const scopes: Record<Phase, PolicyScope[]> = {
    mutating: registrationScopes(registered, 'mutating'),
    validating: registrationScopes(registered, 'validating'),
  };
  const outside: RuleOutside[] = [];
  for (const configuration of configurations) {
    const phase: Phase = configuration.kind === 'MutatingWebhookConfiguration' ? 'mutating' : 'validating';
    for (const webhook of configuration.webhooks) {
      const { scope } = scopes[phase].find((s) => s.scope.failurePolicy === webhook.failurePolicy)!;
      webhook.rules.forEach((rule, ruleIndex) => {
        const shapes = outsideRegistration(rule, scope);
        if (shapes.length === 0) return;
        outside.push({
          webhook: webhook.name,
          type: phase === 'mutating' ? 'Mutating' : 'Validating',
          failurePolicy: webhook.failurePolicy,
          ruleIndex,
          shapes: shapes.length,
          examples: shapes.slice(0, 3).map(describeShape),
        });
      });
    }
  }
  return outside;
}

/** A line per rule: which requests, and what to do about it. */
export function describeRuleOutside(rule: RuleOutside, remedy: string): string {
  return (
    `webhook ${JSON.stringify(rule.webhook)} rules[${rule.ruleIndex}] reaches requests the gateway's registration does not send it ` +
    `(${rule.shapes} request shape(s), e.g. ${rule.examples.join('; ')}): ${remedy}`
  );
}

/** The Registry's refusal problems for a registration (empty: every rule is inside). */
export function hooksOutsideRegistration(
  configurations: readonly DefaultedConfiguration[],
  registered: ScopeInput,
): string[] {
  return rulesOutsideRegistration(configurations, registered).map((rule) =>
    describeRuleOutside(
      rule,
      `add the rule to registration.reserve (type ${rule.type}, failurePolicy ${rule.failurePolicy}) in the GatewayConfiguration, ` +
        'apply the output of `hookgate print-webhooks`, then register again',
    ),
  );
}
