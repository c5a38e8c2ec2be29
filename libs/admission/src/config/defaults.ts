/**
 * Per-version API defaulting (§20; kubernetes pkg/apis/admissionregistration/{v1,v1beta1}/defaults.go).
 * Pure: returns new objects and never mutates its input. Expects a configuration that passed
 * validateConfiguration (types already checked).
 */
import type {
  ConfigApiVersion,
  DefaultedConfiguration,
  DefaultedWebhook,
  FailurePolicyType,
  LabelSelector,
  MatchPolicyType,
  ReinvocationPolicyType,
  RuleWithOperations,
  SideEffectClass,
  WebhookClientConfig,
  WebhookConfiguration,
  WebhookSpec,
} from '../types/webhook-configuration.js';

export interface VersionDefaults {
  readonly failurePolicy: FailurePolicyType;
  readonly matchPolicy: MatchPolicyType;
  /** undefined: no default (v1 requires it). */
  readonly sideEffects: SideEffectClass | undefined;
  readonly timeoutSeconds: number;
  /** undefined: no default (v1 requires it). */
  readonly admissionReviewVersions: readonly string[] | undefined;
  readonly reinvocationPolicy: ReinvocationPolicyType;
  readonly scope: '*';
  readonly servicePort: number;
}

export const VERSION_DEFAULTS: Readonly<Record<ConfigApiVersion, VersionDefaults>> = {
  'admissionregistration.k8s.io/v1': {
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    sideEffects: undefined,
    timeoutSeconds: 10,
    admissionReviewVersions: undefined,
    reinvocationPolicy: 'Never',
    scope: '*',
    servicePort: 443,
  },
  'admissionregistration.k8s.io/v1beta1': {
    failurePolicy: 'Ignore',
    matchPolicy: 'Exact',
    sideEffects: 'Unknown',
    timeoutSeconds: 30,
    admissionReviewVersions: ['v1beta1'],
    reinvocationPolicy: 'Never',
    scope: '*',
    servicePort: 443,
  },
};

const given = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

function defaultSelector(sel: LabelSelector | null | undefined): LabelSelector {
  // Both versions default a missing selector to {} (match everything), never to null (§5).
  if (!given(sel)) return {};
  const out: LabelSelector = {};
  if (given(sel.matchLabels)) out.matchLabels = { ...sel.matchLabels };
  if (given(sel.matchExpressions)) {
    out.matchExpressions = sel.matchExpressions.map((e) => ({
      key: e.key,
      operator: e.operator,
      ...(given(e.values) ? { values: [...e.values] } : {}),
    }));
  }
  return out;
}

function defaultRule(rule: RuleWithOperations, d: VersionDefaults): Required<RuleWithOperations> {
  return {
    operations: [...(rule.operations ?? [])],
    apiGroups: [...(rule.apiGroups ?? [])],
    apiVersions: [...(rule.apiVersions ?? [])],
    resources: [...(rule.resources ?? [])],
    scope: given(rule.scope) ? rule.scope : d.scope,
  };
}

function defaultClientConfig(cc: WebhookClientConfig | undefined, d: VersionDefaults): WebhookClientConfig {
  const out: WebhookClientConfig = {};
  if (cc === undefined) return out;
  if (given(cc.url)) out.url = cc.url;
  if (given(cc.plugin)) out.plugin = cc.plugin;
  if (given(cc.caBundle)) out.caBundle = cc.caBundle;
  if (given(cc.service)) {
    const s = cc.service;
    out.service = {
      ...(given(s.namespace) ? { namespace: s.namespace } : {}),
      ...(given(s.name) ? { name: s.name } : {}),
      ...(given(s.path) ? { path: s.path } : {}),
      port: given(s.port) ? s.port : d.servicePort,
    };
  }
  return out;
}

export function defaultWebhook(w: WebhookSpec, apiVersion: ConfigApiVersion, mutating: boolean): DefaultedWebhook {
  const d = VERSION_DEFAULTS[apiVersion];
  const reviewVersions =
    given(w.admissionReviewVersions) && w.admissionReviewVersions.length > 0
      ? [...w.admissionReviewVersions]
      : [...(d.admissionReviewVersions ?? [])];
  return {
    name: w.name ?? '',
    clientConfig: defaultClientConfig(w.clientConfig, d),
    rules: (w.rules ?? []).map((r) => defaultRule(r, d)),
    failurePolicy: (given(w.failurePolicy) ? w.failurePolicy : d.failurePolicy) as FailurePolicyType,
    matchPolicy: (given(w.matchPolicy) ? w.matchPolicy : d.matchPolicy) as MatchPolicyType,
    namespaceSelector: defaultSelector(w.namespaceSelector),
    objectSelector: defaultSelector(w.objectSelector),
    sideEffects: (given(w.sideEffects) ? w.sideEffects : (d.sideEffects ?? null)) as SideEffectClass | null,
    timeoutSeconds: given(w.timeoutSeconds) ? w.timeoutSeconds : d.timeoutSeconds,
    admissionReviewVersions: reviewVersions,
    // Validating webhooks have no such field; Never keeps the Hook shape uniform.
    reinvocationPolicy: (mutating && given(w.reinvocationPolicy)
      ? w.reinvocationPolicy
      : d.reinvocationPolicy) as ReinvocationPolicyType,
    matchConditions: (w.matchConditions ?? []).map((c) => ({ name: c.name ?? '', expression: c.expression ?? '' })),
  };
}

/** The configuration with every per-version default filled in. */
export function defaultConfiguration(cfg: WebhookConfiguration): DefaultedConfiguration {
  const mutating = cfg.kind === 'MutatingWebhookConfiguration';
  return {
    apiVersion: cfg.apiVersion,
    kind: cfg.kind,
    name: cfg.metadata.name,
    webhooks: (cfg.webhooks ?? []).map((w) => defaultWebhook(w, cfg.apiVersion, mutating)),
  };
}
