/**
 * compileHooks: defaulted configurations → the frozen HookSet the request path reads (§1).
 * Configurations are sorted by metadata name (byte-wise), each keeps its webhook order; `index`
 * is the position in the flattened list of its phase. Selectors are parsed and CEL compiled here,
 * once per configuration load.
 */
import type { DefaultedConfiguration, DefaultedWebhook, WebhookClientConfig } from '../types/webhook-configuration.js';
import type { Hook, HookTarget, Phase } from '../types/hook.js';
import type { ReviewVersion } from '../types/review.js';
import { compileSelector } from '../match/label-selector.js';
import { compileMatchConditions } from '../match/match-conditions.js';
import { buildHookSet } from '../match/hook-index.js';
import type { HookSet } from '../match/hook-index.js';
import { compareByteWise } from '../byte-wise-order.js';

const KNOWN_REVIEW_VERSIONS: readonly string[] = ['v1', 'v1beta1'];

/** The first entry the dispatcher knows, in the hook's own order (§10); null when none is known. */
export function pickReviewVersion(versions: readonly string[]): ReviewVersion | null {
  return (versions.find((v) => KNOWN_REVIEW_VERSIONS.includes(v)) as ReviewVersion | undefined) ?? null;
}

/**
 * plugin (Hookgate's gRPC extension) | url | service (port 443, path '/' by default).
 * Validation guarantees exactly one; without any, an empty URL makes the invoker fail the call
 * with a 'client' failure (the apiserver's "could not get REST client").
 */
export function buildTarget(client: WebhookClientConfig): HookTarget {
  const caBundle = client.caBundle ? { caBundle: client.caBundle } : {};
  if (client.plugin !== undefined) return { kind: 'plugin', plugin: client.plugin };
  if (client.url !== undefined) return { kind: 'url', url: client.url, ...caBundle };
  if (client.service !== undefined) {
    const s = client.service;
    return {
      kind: 'service',
      namespace: s.namespace ?? '',
      name: s.name ?? '',
      path: s.path ?? '/',
      port: s.port ?? 443,
      ...caBundle,
    };
  }
  return { kind: 'url', url: '' };
}

const phaseOf = (config: DefaultedConfiguration): Phase =>
  config.kind === 'MutatingWebhookConfiguration' ? 'mutating' : 'validating';

function compileHook(config: DefaultedConfiguration, webhook: DefaultedWebhook, n: number, index: number): Hook {
  return Object.freeze({
    uid: `${config.name}/${webhook.name}/${n}`,
    name: webhook.name,
    phase: phaseOf(config),
    configurationName: config.name,
    index,
    sourceApiVersion: config.apiVersion,
    failurePolicy: webhook.failurePolicy,
    matchPolicy: webhook.matchPolicy,
    sideEffects: webhook.sideEffects,
    timeoutSeconds: webhook.timeoutSeconds,
    admissionReviewVersions: Object.freeze([...webhook.admissionReviewVersions]),
    reviewVersion: pickReviewVersion(webhook.admissionReviewVersions),
    reinvocationPolicy: webhook.reinvocationPolicy,
    rules: webhook.rules,
    target: Object.freeze(buildTarget(webhook.clientConfig)),
    namespaceSelector: compileSelector(webhook.namespaceSelector),
    objectSelector: compileSelector(webhook.objectSelector),
    matchConditions: Object.freeze(compileMatchConditions(webhook.matchConditions)),
    spec: webhook,
  });
}

export function compileHooks(configs: readonly DefaultedConfiguration[]): HookSet {
  // Array.prototype.sort is stable: configurations with equal names keep their given order.
  const sorted = [...configs].sort((a, b) => compareByteWise(a.name, b.name));
  const lists: Record<Phase, Hook[]> = { mutating: [], validating: [] };
  for (const config of sorted) {
    const list = lists[phaseOf(config)];
    const seen = new Map<string, number>();
    for (const webhook of config.webhooks) {
      const n = seen.get(webhook.name) ?? 0;
      seen.set(webhook.name, n + 1);
      list.push(compileHook(config, webhook, n, list.length));
    }
  }
  return buildHookSet(lists.mutating, lists.validating);
}
