/**
 * Builders for tests: hooks from small webhook descriptions (through the real
 * parseWebhookConfiguration + compileHooks), requests shaped like the apiserver's test attributes,
 * and a ChainEnv on a test clock.
 */
import type {
  ConfigApiVersion,
  LabelSelector,
  MatchCondition,
  RuleWithOperations,
  SideEffectClass,
  WebhookConfiguration,
  WebhookSpec,
} from '../types/webhook-configuration.js';
import type { Phase } from '../types/hook.js';
import type { AdmissionRequest, GroupVersionKind, GroupVersionResource, Operation } from '../types/review.js';
import type { JsonObject, JsonValue } from '../types/json.js';
import type { ChainEnv } from '../chain/env.js';
import type { HookGroupInvoker, HookInvoker } from '../types/invoker.js';
import type { NamespaceLookup } from '../types/namespace-lookup.js';
import type { HookSet } from '../match/index.js';
import { compileHooks, formatConfigurationErrors, parseWebhookConfiguration } from '../config/index.js';
import { computeRequestBudget, type RequestBudget } from '../chain/deadline.js';
import type { TestClock } from './test-clock.js';
import { createTestClock } from './test-clock.js';

/** The apiserver test tables' configuration name. */
export const TEST_CONFIGURATION_NAME = 'test-webhooks';
/** The namespace of test requests; it carries `runlevel: "0"` like the apiserver's fake data source. */
export const TEST_NAMESPACE = 'webhook-test';

export const MATCH_EVERYTHING_RULES: readonly RuleWithOperations[] = Object.freeze([
  Object.freeze({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }),
]) as readonly RuleWithOperations[];

/** How a test webhook is reached: Hookgate plugin, url, or service; the behaviour names the endpoint. */
export type TestTarget = 'plugin' | 'url' | 'service';

/** A webhook in a case table: a behaviour plus the fields the case cares about. */
export interface TestWebhook {
  readonly name: string;
  /** Scripted behaviour (testing/scripted-webhook.ts) = plugin name or the URL path's last segment. */
  readonly behaviour: string;
  readonly target?: TestTarget;
  readonly rules?: readonly RuleWithOperations[];
  readonly namespaceSelector?: LabelSelector;
  readonly objectSelector?: LabelSelector;
  readonly failurePolicy?: 'Fail' | 'Ignore';
  readonly sideEffects?: SideEffectClass;
  readonly reinvocationPolicy?: 'Never' | 'IfNeeded';
  readonly admissionReviewVersions?: readonly string[];
  readonly timeoutSeconds?: number;
  readonly matchConditions?: readonly MatchCondition[];
}

export interface TestConfigurationOptions {
  readonly apiVersion?: 'v1' | 'v1beta1';
  readonly name?: string;
  /** Base for url targets; default `https://webhook.test`. Loopback http is accepted. */
  readonly baseUrl?: string;
  /** Target for webhooks that do not choose one. Default 'plugin'. */
  readonly defaultTarget?: TestTarget;
}

function clientConfigFor(webhook: TestWebhook, options: TestConfigurationOptions): WebhookSpec['clientConfig'] {
  const target = webhook.target ?? options.defaultTarget ?? 'plugin';
  switch (target) {
    case 'plugin':
      return { plugin: webhook.behaviour };
    case 'url':
      return { url: `${(options.baseUrl ?? 'https://webhook.test').replace(/\/$/, '')}/${webhook.behaviour}` };
    case 'service':
      // Service paths are DNS-1123 segments: only lowercase behaviours can be reached this way.
      if (webhook.behaviour !== webhook.behaviour.toLowerCase()) {
        throw new Error(`test webhook ${webhook.name}: behaviour ${webhook.behaviour} cannot be a service path`);
      }
      return { service: { namespace: 'default', name: 'webhook-test', path: `/${webhook.behaviour}` } };
  }
}

/** A Mutating/ValidatingWebhookConfiguration object, as a user would write it. */
export function buildTestConfiguration(
  phase: Phase,
  webhooks: readonly TestWebhook[],
  options: TestConfigurationOptions = {},
): WebhookConfiguration {
  const apiVersion = options.apiVersion ?? 'v1';
  const specs: WebhookSpec[] = webhooks.map((w) => {
    const spec: WebhookSpec = {
      name: w.name,
      clientConfig: clientConfigFor(w, options),
      rules: (w.rules ?? MATCH_EVERYTHING_RULES).map((r) => ({ ...r })),
      admissionReviewVersions: [...(w.admissionReviewVersions ?? ['v1beta1'])],
      // v1 requires sideEffects; the apiserver's tables leave it nil, which acts like None off dry run.
      sideEffects: w.sideEffects ?? (apiVersion === 'v1' ? 'None' : undefined),
    };
    if (w.namespaceSelector !== undefined) spec.namespaceSelector = w.namespaceSelector;
    if (w.objectSelector !== undefined) spec.objectSelector = w.objectSelector;
    if (w.failurePolicy !== undefined) spec.failurePolicy = w.failurePolicy;
    if (w.timeoutSeconds !== undefined) spec.timeoutSeconds = w.timeoutSeconds;
    if (w.matchConditions !== undefined) spec.matchConditions = w.matchConditions.map((c) => ({ ...c }));
    if (phase === 'mutating' && w.reinvocationPolicy !== undefined) spec.reinvocationPolicy = w.reinvocationPolicy;
    if (spec.sideEffects === undefined) delete spec.sideEffects;
    return spec;
  });
  return {
    apiVersion: `admissionregistration.k8s.io/${apiVersion}` as ConfigApiVersion,
    kind: phase === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
    metadata: { name: options.name ?? TEST_CONFIGURATION_NAME },
    webhooks: specs,
  };
}

/** Configurations → HookSet through the real validation, defaulting and compilation. Throws on invalid input. */
export function buildTestHookSet(configurations: readonly WebhookConfiguration[]): HookSet {
  const parsed = configurations.map((c) => {
    const result = parseWebhookConfiguration(c, { allowHttpLoopback: true });
    if (!result.ok) throw new Error(`invalid test configuration: ${formatConfigurationErrors(c, result.error)}`);
    return result.value;
  });
  return compileHooks(parsed);
}

export interface TestRequestOptions {
  readonly isCRD?: boolean;
  readonly isDryRun?: boolean;
  /** Labels added to the object's default `<resource>.name` label. */
  readonly additionalLabels?: Readonly<Record<string, string>>;
  /** Replaces the object's labels entirely. */
  readonly labels?: Readonly<Record<string, string>>;
  readonly operation?: Operation;
  readonly namespace?: string;
  /** Another kind/resource for the same object (e.g. an exempt admission-configuration kind). */
  readonly kind?: GroupVersionKind;
  readonly resource?: GroupVersionResource;
}

/**
 * Like the apiserver's NewAttribute / NewAttributeUnstructured: an UPDATE of Pod `my-pod` (or
 * TestCRD `my-test-crd`) in `webhook-test`, labelled `pod.name: my-pod` plus additionalLabels.
 * CREATE has no oldObject; DELETE has no object.
 */
export function buildTestRequest(options: TestRequestOptions = {}): AdmissionRequest {
  const namespace = options.namespace ?? TEST_NAMESPACE;
  const crd = options.isCRD === true;
  const name = crd ? 'my-test-crd' : 'my-pod';
  const labelKey = crd ? 'crd.name' : 'pod.name';
  const labels = options.labels ?? { [labelKey]: name, ...(options.additionalLabels ?? {}) };
  const typeMeta: JsonObject = crd
    ? { apiVersion: 'custom.resource/v1', kind: 'TestCRD' }
    : { apiVersion: 'v1', kind: 'Pod' };
  const object: JsonObject = { ...typeMeta, metadata: { name, namespace, labels: { ...labels } } };
  const oldObject: JsonObject = { ...typeMeta, metadata: { name, namespace } };
  const operation = options.operation ?? 'UPDATE';
  const optionsKind: Record<Operation, string> = {
    CREATE: 'CreateOptions',
    UPDATE: 'UpdateOptions',
    DELETE: 'DeleteOptions',
    CONNECT: '',
  };
  const request: AdmissionRequest = {
    uid: 'test-request-uid',
    kind:
      options.kind ??
      (crd ? { group: 'custom.resource', version: 'v1', kind: 'TestCRD' } : { group: '', version: 'v1', kind: 'Pod' }),
    resource:
      options.resource ??
      (crd
        ? { group: 'custom.resource', version: 'v1', resource: 'testcrds' }
        : { group: '', version: 'v1', resource: 'pods' }),
    name,
    namespace,
    operation,
    userInfo: { username: 'webhook-test', uid: 'webhook-test' },
    dryRun: options.isDryRun === true,
    options:
      operation === 'CONNECT' ? null : ({ kind: optionsKind[operation], apiVersion: 'meta.k8s.io/v1' } as JsonValue),
  };
  if (operation !== 'DELETE') request.object = object;
  if (operation !== 'CREATE') request.oldObject = operation === 'DELETE' ? object : oldObject;
  return request;
}

/** A NamespaceLookup over fixed labels (`kubernetes.io/metadata.name` added as the apiserver does). */
export function staticNamespaces(
  namespaces: Readonly<Record<string, Readonly<Record<string, string>>>>,
): NamespaceLookup {
  return (name) => {
    const labels = Object.hasOwn(namespaces, name) ? namespaces[name] : undefined;
    if (labels === undefined) return { found: false };
    return { found: true, labels: { 'kubernetes.io/metadata.name': name, ...labels } };
  };
}

export const DEFAULT_TEST_NAMESPACES = Object.freeze({ [TEST_NAMESPACE]: Object.freeze({ runlevel: '0' }) });

export interface TestEnvOptions {
  readonly invoke: HookInvoker;
  readonly invokeTogether?: HookGroupInvoker;
  readonly clock?: TestClock;
  readonly namespaces?: NamespaceLookup;
  /** The apiserver's `?timeout=`; default `10s`. */
  readonly timeout?: string;
  readonly signal?: AbortSignal;
}

/** A ChainEnv on a test clock with sequential uids (`call-1`, `call-2`, ...). */
export function buildTestEnv(options: TestEnvOptions): ChainEnv & { readonly clock: TestClock } {
  const clock = options.clock ?? createTestClock();
  let uid = 0;
  return {
    invoke: options.invoke,
    ...(options.invokeTogether !== undefined ? { invokeTogether: options.invokeTogether } : {}),
    namespaces: options.namespaces ?? staticNamespaces(DEFAULT_TEST_NAMESPACES),
    now: () => clock.now(),
    newUid: () => `call-${++uid}`,
    ...budgetOf(computeRequestBudget(clock.now(), options.timeout ?? '10s')),
    signal: options.signal ?? new AbortController().signal,
    clock,
  };
}

function budgetOf(budget: RequestBudget): Pick<ChainEnv, 'deadline' | 'apiserverDeadline'> {
  return { deadline: budget.deadline, apiserverDeadline: budget.apiserverDeadline };
}
