/**
 * admissionregistration.k8s.io v1 and v1beta1 webhook configuration wire types,
 * field names verbatim, plus Hookgate's one extension: `clientConfig.plugin`.
 * Everything is optional here because this is what users write; config/defaults.ts fills it in.
 */
import type { JsonObject } from './json.js';

export type ConfigApiVersion = 'admissionregistration.k8s.io/v1' | 'admissionregistration.k8s.io/v1beta1';
export type ConfigKind = 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration';

export type FailurePolicyType = 'Fail' | 'Ignore';
export type MatchPolicyType = 'Exact' | 'Equivalent';
export type SideEffectClass = 'None' | 'NoneOnDryRun' | 'Some' | 'Unknown';
export type ReinvocationPolicyType = 'Never' | 'IfNeeded';
export type ScopeType = '*' | 'Namespaced' | 'Cluster';
export type OperationType = '*' | 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface RuleWithOperations {
  operations?: OperationType[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: ScopeType | string;
}

export interface ServiceReference {
  namespace?: string;
  name?: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** base64 PEM bundle. */
  caBundle?: string;
  /** Hookgate extension: the name of a gRPC plugin declared in the GatewayConfiguration. */
  plugin?: string;
}

export interface MatchCondition {
  name?: string;
  expression?: string;
}

export interface WebhookSpec {
  name?: string;
  clientConfig?: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: FailurePolicyType | string;
  matchPolicy?: MatchPolicyType | string;
  namespaceSelector?: LabelSelector | null;
  objectSelector?: LabelSelector | null;
  sideEffects?: SideEffectClass | string | null;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  /** Mutating only. */
  reinvocationPolicy?: ReinvocationPolicyType | string;
  matchConditions?: MatchCondition[];
}

export interface WebhookConfiguration {
  apiVersion: ConfigApiVersion;
  kind: ConfigKind;
  metadata: { name: string; [key: string]: unknown } & Partial<JsonObject>;
  webhooks?: WebhookSpec[];
}

/** A webhook after per-version defaulting: every field the dispatcher reads is present. */
export interface DefaultedWebhook {
  name: string;
  clientConfig: WebhookClientConfig;
  rules: Required<RuleWithOperations>[];
  failurePolicy: FailurePolicyType;
  matchPolicy: MatchPolicyType;
  namespaceSelector: LabelSelector;
  objectSelector: LabelSelector;
  /** null only when a v1beta1 object set it to null explicitly and defaulting could not run. */
  sideEffects: SideEffectClass | null;
  timeoutSeconds: number;
  admissionReviewVersions: string[];
  reinvocationPolicy: ReinvocationPolicyType;
  matchConditions: Required<MatchCondition>[];
}

export interface DefaultedConfiguration {
  apiVersion: ConfigApiVersion;
  kind: ConfigKind;
  name: string;
  webhooks: DefaultedWebhook[];
}
