/**
 * What one request accumulates while hooks run: audit annotations (first wins), warnings
 * (deduplicated, in arrival order), reported side effects and the decision trace.
 * Turned into the ChainOutcome once the verdict is known.
 */
import type { Hook } from '../types/hook.js';
import type { AdmissionRequest, Status } from '../types/review.js';
import type { PatchOperation } from '../types/patch-operation.js';
import type { ChainOutcome, ReportedSideEffect, TraceEvent } from './outcome.js';
import type { HookAnswer, SideEffect } from '../types/invoker.js';
import { AuditAnnotations } from '../annotations.js';
import { WarningRecorder } from '../warnings.js';
import { classifySideEffect } from './dry-run.js';

export class ChainRecorder {
  readonly annotations = new AuditAnnotations();
  private readonly warnings = new WarningRecorder();
  private readonly sideEffects: ReportedSideEffect[] = [];
  private readonly trace: TraceEvent[] = [];

  /** A verified answer's annotations, warnings and side effects: recorded before `allowed` is looked at. */
  recordAnswer(hook: Hook, request: AdmissionRequest, answer: HookAnswer): void {
    this.annotations.addFromHook(hook.name, answer.auditAnnotations);
    this.warnings.add(answer.warnings);
    const effects: unknown = answer.sideEffects;
    if (!Array.isArray(effects)) return;
    for (const effect of effects as readonly SideEffect[]) {
      if (
        typeof effect !== 'object' ||
        effect === null ||
        typeof effect.kind !== 'string' ||
        typeof effect.key !== 'string'
      )
        continue;
      const violation = classifySideEffect(hook, request);
      const reported: ReportedSideEffect = {
        kind: effect.kind,
        key: effect.key,
        ...(effect.payload !== undefined ? { payload: effect.payload } : {}),
        hook: hook.name,
        configuration: hook.configurationName,
        ...(hook.target.kind === 'plugin' ? { plugin: hook.target.plugin } : {}),
        failurePolicy: hook.failurePolicy,
        ...(violation !== undefined ? { violation } : {}),
      };
      this.sideEffects.push(reported);
    }
  }

  event(event: TraceEvent): void {
    this.trace.push(event);
  }

  allowed(patch?: readonly PatchOperation[]): ChainOutcome {
    return {
      allowed: true,
      ...(patch !== undefined && patch.length > 0 ? { patch } : {}),
      ...this.common(),
    };
  }

  denied(status: Status): ChainOutcome {
    return { allowed: false, status, ...this.common() };
  }

  private common(): Pick<ChainOutcome, 'warnings' | 'auditAnnotations' | 'sideEffects' | 'trace'> {
    return {
      warnings: this.warnings.toArray(),
      auditAnnotations: this.annotations.toRecord(),
      sideEffects: [...this.sideEffects],
      trace: [...this.trace],
    };
  }
}
