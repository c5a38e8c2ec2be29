/**
 * A Hook is one compiled webhook: defaulted, validated, selectors parsed, CEL compiled.
 * Built once per configuration by compileHooks (config/hook.ts); the request path only reads it.
 */
import type {
  DefaultedWebhook,
  FailurePolicyType,
  MatchPolicyType,
  ReinvocationPolicyType,
  SideEffectClass,
  ConfigApiVersion,
} from './webhook-configuration.js';
import type { JsonValue } from './json.js';
import type { ReviewVersion, AdmissionRequest } from './review.js';
import type { EvaluationBudget } from './evaluation-budget.js';

export type Phase = 'mutating' | 'validating';

/** Where a hook's calls go. `plugin` is Hookgate's gRPC extension; url/service are the bridge. */
export type HookTarget =
  | { readonly kind: 'plugin'; readonly plugin: string }
  | { readonly kind: 'url'; readonly url: string; readonly caBundle?: string }
  | {
      readonly kind: 'service';
      readonly namespace: string;
      readonly name: string;
      readonly path: string;
      readonly port: number;
      readonly caBundle?: string;
    };

/** A parsed label selector; `matches(undefined)` is for "object has no metadata". */
export interface CompiledSelector {
  /** `{}`: matches everything without any lookup. */
  readonly isEmpty: boolean;
  /** Parse error text when the selector is invalid (reported only if rules match, §3/§5). */
  readonly error?: string;
  matches(labels: Readonly<Record<string, string>>): boolean;
}

/** CEL activation passed to match conditions (§9). */
export interface CelActivation {
  object: JsonValue;
  oldObject: JsonValue;
  request: Omit<AdmissionRequest, 'object' | 'oldObject'>;
  namespaceObject: JsonValue;
}

export interface CompiledMatchCondition {
  readonly name: string;
  readonly expression: string;
  /** Returns the boolean result, or an error text (cel runtime error). Never throws. */
  /**
   * `budget`: what the webhook's conditions may still spend (match/cel-cost.ts), shared across them;
   * absent, the condition gets a budget of its own. `budgetExhausted`: the webhook's budget ran
   * out, which fails the whole set rather than this expression.
   */
  evaluate(
    activation: CelActivation,
    budget?: EvaluationBudget,
  ): { ok: true; value: boolean } | { ok: false; error: string; budgetExhausted?: boolean };
}

export interface Hook {
  /** `<configName>/<webhookName>/<n>`: n counts earlier same-name webhooks in the configuration. */
  readonly uid: string;
  readonly name: string;
  readonly phase: Phase;
  readonly configurationName: string;
  /** Position in the flattened, name-sorted list of this phase (index_N in audit keys). */
  readonly index: number;
  readonly sourceApiVersion: ConfigApiVersion;
  readonly failurePolicy: FailurePolicyType;
  readonly matchPolicy: MatchPolicyType;
  readonly sideEffects: SideEffectClass | null;
  readonly timeoutSeconds: number;
  readonly admissionReviewVersions: readonly string[];
  /** First known entry of admissionReviewVersions, or null (→ 'no-known-version' failure). */
  readonly reviewVersion: ReviewVersion | null;
  readonly reinvocationPolicy: ReinvocationPolicyType;
  readonly rules: DefaultedWebhook['rules'];
  readonly target: HookTarget;
  readonly namespaceSelector: CompiledSelector;
  readonly objectSelector: CompiledSelector;
  readonly matchConditions: readonly CompiledMatchCondition[];
  /** The defaulted spec, for printing and registration round-trips. */
  readonly spec: DefaultedWebhook;
}
