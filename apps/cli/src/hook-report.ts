/**
 * Every configured hook and what it did with one request: called (allowed, patched, denied, failed
 * open or closed), skipped and by which check (rules, namespaceSelector, objectSelector, which
 * matchCondition), rejected before the call, or not run. Read from the chain's decision trace,
 * which names the check; the selectors and conditions themselves come from the configuration.
 */
import {
  CONDITION_ERRORS_IGNORED,
  findMatchingRule,
  isExemptRequest,
  type AdmissionRequest,
  type ChainOutcome,
  type DefaultedWebhook,
  type Hook,
  type HookSet,
  type LabelSelector,
  type Phase,
  type TraceEvent,
} from '@hookgate/admission';
import type { LoadedConfiguration } from '@hookgate/config';
import type { DryRunResult } from '@hookgate/gateway';

export type HookResult =
  | 'allowed'
  | 'patched'
  | 'denied'
  | 'failed-open'
  | 'failed-closed'
  | 'refused'
  | 'patch-error'
  | 'rejected'
  | 'skipped'
  | 'not-run';

export interface HookVerdict {
  readonly phase: Phase;
  readonly hook: string;
  readonly configuration: string;
  /** 1 for a mutating hook's reinvocation. */
  readonly round: 0 | 1;
  readonly result: HookResult;
  /** Why it was skipped, rejected or not run; the denial or failure message of a call. */
  readonly reason?: string;
  /** Why a called hook was called: the rule that matched, the selectors and conditions it passed. */
  readonly matched?: string;
  readonly durationMs?: number;
}

export interface ExplainInput {
  readonly hooks: HookSet;
  readonly request: AdmissionRequest;
  readonly result: DryRunResult;
  readonly configuration: LoadedConfiguration;
}

export function explainHooks(input: ExplainInput): HookVerdict[] {
  const verdicts: HookVerdict[] = [];
  for (const phase of ['mutating', 'validating'] as const) {
    const outcome = phase === 'mutating' ? input.result.mutating : input.result.validating;
    for (const hook of input.hooks[phase]) {
      const base = { phase, hook: hook.name, configuration: hook.configurationName };
      // A hook that was not called again in round 1 is no news: only its round-0 event is shown.
      const events =
        outcome?.trace.filter(
          (e) => e.hook === hook.name && e.type !== 'conditions' && !(e.type === 'skip' && e.reason === NOT_REINVOKED),
        ) ?? [];
      if (outcome === undefined) {
        verdicts.push({ ...base, round: 0, result: 'not-run', reason: 'the mutating phase denied the request' });
      } else if (
        events.length === 0 &&
        !isExemptRequest(input.request) &&
        findMatchingRule(hook.rules, input.request) >= 0
      ) {
        // Its rules match, yet the chain never got to it: an earlier mutating hook denied.
        verdicts.push({ ...base, round: 0, result: 'not-run', reason: 'an earlier hook denied the request' });
      } else if (events.length === 0) {
        verdicts.push({ ...base, round: 0, result: 'skipped', reason: notMatched(input.request) });
      } else {
        const webhook = webhookOf(input.configuration, hook);
        for (const event of events) {
          const verdict = fromEvent(event, outcome, webhook, input);
          const called = event.type === 'call';
          verdicts.push({ ...base, ...verdict, ...(called ? { matched: matchedBecause(hook, input.request) } : {}) });
        }
      }
    }
  }
  return verdicts;
}

/** The chain's skip reason for a hook not called again in the reinvocation round. */
const NOT_REINVOKED = 'not-reinvoked';

type EventVerdict = Pick<HookVerdict, 'round' | 'result' | 'reason' | 'durationMs'>;

function fromEvent(
  event: TraceEvent,
  outcome: ChainOutcome,
  webhook: DefaultedWebhook | undefined,
  input: ExplainInput,
): EventVerdict {
  const round = event.round;
  switch (event.type) {
    case 'skip':
      return { round, result: 'skipped', reason: skipReason(event.reason, webhook, input) };
    case 'reject':
      return {
        round,
        result: 'rejected',
        reason: `${event.reason} could not be evaluated (${event.code}): rejected without calling the hook`,
      };
    case 'conditions':
      return { round, result: 'skipped' };
    case 'call': {
      const result: HookResult = event.outcome === 'allowed' && event.mutated ? 'patched' : event.outcome;
      const message =
        event.failure?.message ??
        (event.outcome === 'denied' && outcome.status?.message?.includes(`"${event.hook}"`)
          ? outcome.status.message
          : undefined);
      return { round, result, durationMs: event.durationMs, ...(message ? { reason: message } : {}) };
    }
  }
}

function skipReason(reason: string, webhook: DefaultedWebhook | undefined, input: ExplainInput): string {
  const { request } = input;
  if (reason === 'namespaceSelector') {
    const labels = namespaceLabels(input.configuration, request.namespace);
    return `namespaceSelector ${formatSelector(webhook?.namespaceSelector)} does not match namespace "${request.namespace ?? ''}"${labels ? ` (labels: ${labels})` : ''}`;
  }
  if (reason === 'objectSelector')
    return `objectSelector ${formatSelector(webhook?.objectSelector)} does not match the object's labels (${objectLabels(request) || 'none'})`;
  if (reason === 'rules') return notMatched(request);
  if (reason === CONDITION_ERRORS_IGNORED)
    return 'matchConditions could not be evaluated; failurePolicy Ignore skips the hook';
  if (reason.startsWith('matchCondition:')) {
    const name = reason.slice('matchCondition:'.length);
    const expression = webhook?.matchConditions.find((c) => c.name === name)?.expression;
    return `matchConditions: "${name}" is false${expression ? `: ${expression}` : ''}`;
  }
  return reason;
}

/** `rules[0] matches; namespaceSelector {…} matches "payments"; 1 matchCondition true`. */
function matchedBecause(hook: Hook, request: AdmissionRequest): string {
  const parts = [`rules[${findMatchingRule(hook.rules, request)}] matches`];
  if (!hook.namespaceSelector.isEmpty) parts.push(`namespaceSelector matches namespace "${request.namespace ?? ''}"`);
  if (!hook.objectSelector.isEmpty) parts.push('objectSelector matches');
  const conditions = hook.matchConditions.length;
  if (conditions > 0) parts.push(`${conditions} matchCondition${conditions === 1 ? '' : 's'} true`);
  return parts.join('; ');
}

/** A hook the chain never looked at: its rules do not cover the request (or no hook may see it). */
function notMatched(request: AdmissionRequest): string {
  if (isExemptRequest(request))
    return 'exempt: the apiserver never sends requests for webhook configurations or auth reviews to webhooks';
  const r = request.resource;
  const resource = `${r.group === '' ? '' : `${r.group}/`}${r.version}/${r.resource}${request.subResource ? `/${request.subResource}` : ''}`;
  const scope = request.namespace ? 'namespaced' : 'cluster-scoped';
  return `rules: none matches ${request.operation} ${resource} (${scope})`;
}

function webhookOf(configuration: LoadedConfiguration, hook: Hook): DefaultedWebhook | undefined {
  const kind = hook.phase === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
  return configuration.webhookConfigurations
    .find((c) => c.kind === kind && c.name === hook.configurationName)
    ?.webhooks.find((w) => w.name === hook.name);
}

/** `{app=web, tier in (prod,dev), !legacy}`, as kubectl prints selectors; `{}` matches everything. */
export function formatSelector(selector: LabelSelector | null | undefined): string {
  const parts = Object.entries(selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of selector?.matchExpressions ?? []) {
    const values = `(${(e.values ?? []).join(',')})`;
    if (e.operator === 'In') parts.push(`${e.key} in ${values}`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin ${values}`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else parts.push(`!${e.key}`);
  }
  return `{${parts.join(', ')}}`;
}

function namespaceLabels(configuration: LoadedConfiguration, namespace: string | undefined): string | undefined {
  const known = configuration.gateway.namespaces.find((n) => n.name === namespace);
  if (known === undefined) return undefined;
  return joinLabels({ 'kubernetes.io/metadata.name': known.name, ...known.labels });
}

function objectLabels(request: AdmissionRequest): string {
  const labelsOf = (o: unknown): Record<string, string> =>
    ((o as { metadata?: { labels?: Record<string, string> } } | null)?.metadata?.labels ?? {}) as Record<
      string,
      string
    >;
  return joinLabels({ ...labelsOf(request.oldObject), ...labelsOf(request.object) });
}

const joinLabels = (labels: Record<string, string>) =>
  Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
