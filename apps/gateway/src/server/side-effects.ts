/**
 * Where side effects reported by hooks go once the outcome is known. Until the reconciliation queue
 * arrives (a later issue), the gateway counts and logs them; violations (reported for a dryRun
 * request, or by a hook whose sideEffects is None) are logged at warn. Payloads are never logged.
 */
import type { ReportedSideEffect } from '@hookgate/admission';
import { webhookType, type GatewayMetrics, type Logger } from '@hookgate/observability';

/** What the chain's outcome tells a sink about the request (no object contents). */
export interface SideEffectContext {
  readonly uid: string;
  readonly phase: 'mutating' | 'validating';
  readonly operation: string;
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  readonly allowed: boolean;
  readonly dryRun: boolean;
}

export interface SideEffectSink {
  record(effects: readonly ReportedSideEffect[], context: SideEffectContext): void;
}

export function loggingSideEffectSink(log: Logger, metrics: GatewayMetrics): SideEffectSink {
  return {
    record(effects, context) {
      for (const effect of effects) {
        metrics.sideEffects.inc({
          name: effect.hook,
          type: webhookType(context.phase),
          kind: effect.kind,
          violation: effect.violation ?? 'none',
        });
        const fields = {
          hook: effect.hook,
          configuration: effect.configuration,
          kind: effect.kind,
          key: effect.key,
          uid: context.uid,
          operation: context.operation,
          resource: context.resource,
          namespace: context.namespace,
          // Not `name`: pino-pretty shows that field as the logger's name.
          objectName: context.name,
          allowed: context.allowed,
        };
        if (effect.violation === 'dry-run') {
          log.warn(
            fields,
            'hook reported a side effect for a dryRun request: fix the hook, or declare sideEffects Some/Unknown (then dryRun requests are refused)',
          );
        } else if (effect.violation === 'side-effects-none') {
          log.warn(
            fields,
            'hook declared sideEffects None but reported a side effect: declare NoneOnDryRun (or Some) in its configuration',
          );
        } else {
          log.info(fields, 'side effect reported (reconciliation queue not configured: counted and logged only)');
        }
      }
    },
  };
}
