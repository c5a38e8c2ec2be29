/**
 * What `hookgate review` reports for one object, as data (`-o json|yaml`) and as text: the
 * decision, every hook with what it did or why it did not run, the patch, the patched object and a
 * diff of it against the object received.
 */
import type { AdmissionRequest, HookSet, JsonValue, PatchOperation, Status } from '@hookgate/admission';
import type { LoadedConfiguration } from '@hookgate/config';
import type { DryRunResult } from '@hookgate/gateway';
import type { Colors } from './terminal.js';
import { explainHooks, type HookVerdict } from './hook-report.js';
import { objectDiff } from './object-diff.js';

export interface ReviewReport {
  /** Where the object came from: `pod.yaml`, `all.yaml#2`, `-#1`. */
  readonly source: string;
  readonly request: {
    readonly operation: string;
    readonly resource: string;
    readonly namespace: string;
    readonly name: string;
  };
  readonly allowed: boolean;
  /** Set when denied: the Status the apiserver would return. */
  readonly status?: Status;
  readonly hooks: readonly HookVerdict[];
  /** The combined JSONPatch of the mutating phase; absent when nothing changed. */
  readonly patch?: readonly PatchOperation[];
  readonly warnings: readonly string[];
  readonly auditAnnotations: Readonly<Record<string, string>>;
  readonly sideEffects: readonly { hook: string; kind: string; key: string; violation?: string }[];
  /** The object after the mutating phase (absent for DELETE and CONNECT). */
  readonly object?: JsonValue;
}

export function buildReviewReport(
  source: string,
  request: AdmissionRequest,
  result: DryRunResult,
  hooks: HookSet,
  configuration: LoadedConfiguration,
): ReviewReport {
  const allowed = result.mutating.allowed && (result.validating?.allowed ?? false);
  const status = result.mutating.status ?? result.validating?.status;
  const outcomes = [result.mutating, ...(result.validating ? [result.validating] : [])];
  const r = request.resource;
  return {
    source,
    request: {
      operation: request.operation,
      resource: `${r.group === '' ? '' : `${r.group}/`}${r.version}/${r.resource}${request.subResource ? `/${request.subResource}` : ''}`,
      namespace: request.namespace ?? '',
      name: request.name ?? '',
    },
    allowed,
    ...(status ? { status } : {}),
    hooks: explainHooks({ hooks, request, result, configuration }),
    ...(result.mutating.patch ? { patch: result.mutating.patch } : {}),
    warnings: outcomes.flatMap((o) => o.warnings),
    auditAnnotations: Object.assign({}, ...outcomes.map((o) => o.auditAnnotations)) as Record<string, string>,
    // Side-effect payloads are opaque bytes: leave them out of the report.
    sideEffects: outcomes.flatMap((o) =>
      o.sideEffects.map((s) => ({
        hook: s.hook,
        kind: s.kind,
        key: s.key,
        ...(s.violation ? { violation: s.violation } : {}),
      })),
    ),
    ...(result.finalObject != null ? { object: result.finalObject } : {}),
  };
}

const MARK: Record<HookVerdict['result'], string> = {
  allowed: '✓',
  patched: '✓',
  'failed-open': '!',
  denied: '✗',
  'failed-closed': '✗',
  refused: '✗',
  'patch-error': '✗',
  rejected: '✗',
  skipped: '-',
  'not-run': '-',
};

export function formatReviewText(report: ReviewReport, received: unknown, colors: Colors): string {
  const { request: r } = report;
  const target = `${r.namespace ? `${r.namespace}/` : ''}${r.name}`;
  const lines = [colors.bold(`${report.source}: ${r.operation} ${r.resource} ${target}`.trimEnd())];
  for (const h of report.hooks) lines.push(`  ${formatVerdict(h, colors)}`);
  for (const w of report.warnings) lines.push(`  ${colors.yellow('warning:')} ${w}`);
  for (const s of report.sideEffects)
    lines.push(`  side effect: ${s.hook} ${s.kind} ${s.key}${s.violation ? ` (violation: ${s.violation})` : ''}`);
  if (report.allowed) {
    lines.push(`  decision: ${colors.green('allowed')}${report.patch ? ' (patched)' : ''}`);
  } else {
    const code = `${report.status?.code ?? ''} ${report.status?.reason ?? ''}`.trim();
    lines.push(`  decision: ${colors.red('denied')}${code ? ` (${code})` : ''}`);
    // The denying hook's line shows the message already when it is that hook's own.
    const message = report.status?.message;
    if (message && !report.hooks.some((h) => h.reason === message)) lines.push(`  message: ${message}`);
  }
  if (report.patch && report.object !== undefined) {
    const diff = objectDiff(
      { before: `${report.source} (received)`, after: `${report.source} (patched)` },
      received,
      report.object,
      colors,
    );
    if (diff) lines.push(...diff.split('\n').map((l) => `  ${l}`));
  }
  return lines.join('\n');
}

function formatVerdict(h: HookVerdict, colors: Colors): string {
  const mark = MARK[h.result];
  const paint = mark === '✓' ? colors.green : mark === '✗' ? colors.red : mark === '!' ? colors.yellow : colors.dim;
  const round = h.round === 1 ? ' (reinvoked)' : '';
  const time = h.durationMs !== undefined ? ` in ${h.durationMs.toFixed(1)} ms` : '';
  const reason = h.reason ? `: ${h.reason}` : '';
  const matched = h.matched ? colors.dim(` (${h.matched})`) : '';
  return `${paint(`${mark} ${h.phase} ${h.hook}${round}: ${h.result}`)}${time}${matched}${reason}`;
}
