/**
 * `hookgate review`: objects (files, directories, stdin; every document) through the configured
 * hooks with the real transports, each reported with its decision, every hook and why it ran or
 * was skipped, and the patched object with a diff. Exit 0 all allowed, 2 any denied, 1 bad input.
 */
import { formatConfigError, loadConfiguration, type LoadedConfiguration } from '@hookgate/config';
import { openDryRun } from '@hookgate/gateway';
import type { AdmissionRequest } from '@hookgate/admission';
import { stringify } from 'yaml';
import type { CliContext } from '../cli-command.js';
import { sortProblems } from '../config-problems.js';
import { readAll, readInputDocuments, STDIN, type InputDocument } from '../input-documents.js';
import { preparePlugins, type PluginState } from '../plugin-launcher.js';
import { buildReviewReport, formatReviewText, type ReviewReport } from '../review-report.js';
import { reviewRequestOf } from '../review-input.js';
import { colorsFor, progressOn } from '../terminal.js';

/** The parsed `hookgate review` flags (review-flags.ts). */
export interface ReviewFlags {
  config: string;
  filename?: string[];
  old?: string;
  operation?: string;
  resource?: string;
  namespace?: string;
  clusterScoped?: boolean;
  user: string;
  dryRun?: boolean;
  timeout: string;
  output: 'text' | 'json' | 'yaml';
}

interface Planned {
  readonly source: string;
  readonly received: unknown;
  readonly request: AdmissionRequest;
}

export async function reviewCommand(
  paths: readonly string[],
  flags: ReviewFlags,
  context: CliContext,
): Promise<number> {
  const { err } = context;
  if (paths.length === 0) {
    err.write('hookgate review: name the objects to review: FILE..., -f FILE|DIR, or -f - for stdin\n');
    return 1;
  }
  if (paths.filter((p) => p === STDIN).length + (flags.old === STDIN ? 1 : 0) > 1) {
    err.write('hookgate review: stdin (-) can be read only once\n');
    return 1;
  }
  const loaded = await loadConfiguration(flags.config);
  if (!loaded.ok) {
    for (const e of sortProblems(loaded.error)) err.write(`${formatConfigError(e)}\n`);
    return 1;
  }
  const planned = await planRequests(paths, flags, context);
  if (planned === undefined) return 1;

  const progress = progressOn(err, context.env, 'starting plugins');
  const prepared = await preparePlugins(loaded.value);
  const reports: { report: ReviewReport; received: unknown }[] = [];
  try {
    reportPlugins(prepared.plugins, context);
    const dryRun = await openDryRun(prepared.configuration);
    try {
      for (const [i, p] of planned.entries()) {
        progress.update(`reviewing ${p.source} (${i + 1}/${planned.length})`);
        const result = await dryRun.review(p.request, flags.timeout);
        reports.push({
          report: buildReviewReport(p.source, p.request, result, dryRun.hooks, prepared.configuration),
          received: p.received,
        });
      }
    } finally {
      await dryRun.close();
    }
  } finally {
    progress.done();
    await prepared.stop();
  }
  printReports(reports, flags.output, context, loaded.value);
  return reports.every((r) => r.report.allowed) ? 0 : 2;
}

/** Every input object as a request; every problem printed, and undefined when there was any. */
async function planRequests(
  paths: readonly string[],
  flags: ReviewFlags,
  context: CliContext,
): Promise<Planned[] | undefined> {
  const stdin = () => readAll(context.in);
  const input = await readInputDocuments(paths, stdin);
  const old = flags.old === undefined ? undefined : await readInputDocuments([flags.old], stdin);
  const problems = [...(input.ok ? [] : input.errors), ...(old && !old.ok ? old.errors : [])];
  const planned: Planned[] = [];
  if (input.ok && (old === undefined || old.ok)) {
    const olds = old?.ok ? old.documents : undefined;
    for (const doc of input.documents) {
      const stored = olds === undefined ? undefined : storedObjectFor(doc, olds);
      if (olds !== undefined && stored === undefined) {
        problems.push(`${doc.source}: no object with the same kind, namespace and name in --old ${flags.old}`);
        continue;
      }
      const request = reviewRequestOf(doc.value, {
        operation: flags.operation ?? (olds ? 'UPDATE' : 'CREATE'),
        user: flags.user,
        ...(stored !== undefined ? { old: stored } : {}),
        ...(flags.resource ? { resource: flags.resource } : {}),
        ...(flags.namespace ? { namespace: flags.namespace } : {}),
        ...(flags.clusterScoped ? { clusterScoped: true } : {}),
        ...(flags.dryRun ? { dryRun: true } : {}),
      });
      if (request.ok) planned.push({ source: doc.source, received: doc.value, request: request.request });
      else problems.push(`${doc.source}: ${request.error}`);
    }
  }
  for (const p of problems) context.err.write(`hookgate review: ${p}\n`);
  return problems.length > 0 ? undefined : planned;
}

/** The stored version of `doc`: the only one given, or the one with its kind, namespace and name. */
function storedObjectFor(doc: InputDocument, olds: readonly InputDocument[]): unknown {
  if (olds.length === 1) return olds[0]!.value;
  const key = identity(doc.value);
  return olds.find((o) => identity(o.value) === key)?.value;
}

function identity(value: unknown): string {
  const v = (value ?? {}) as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
  return `${String(v.kind)}/${String(v.metadata?.namespace ?? '')}/${String(v.metadata?.name)}`;
}

function reportPlugins(plugins: readonly PluginState[], context: CliContext): void {
  const colors = colorsFor(context.err, context.env);
  for (const p of plugins) {
    if (p.state === 'started')
      context.err.write(colors.dim(`plugin ${p.name}: started for this run (pid ${p.pid ?? '?'}, ${p.target})\n`));
    else if (p.state === 'unavailable')
      context.err.write(
        `${colors.yellow('warning:')} plugin ${p.name}: ${p.detail}; its hooks fail by their failurePolicy\n`,
      );
  }
}

function printReports(
  reports: readonly { report: ReviewReport; received: unknown }[],
  output: ReviewFlags['output'],
  context: CliContext,
  configuration: LoadedConfiguration,
): void {
  const data = reports.map((r) => r.report);
  if (output === 'json') {
    context.out.write(`${JSON.stringify(data.length === 1 ? data[0] : data, null, 2)}\n`);
    return;
  }
  if (output === 'yaml') {
    context.out.write(data.map((d) => stringify(d, { lineWidth: 0 })).join('---\n'));
    return;
  }
  const colors = colorsFor(context.out, context.env);
  for (const { report, received } of reports) context.out.write(`${formatReviewText(report, received, colors)}\n`);
  const denied = data.filter((d) => !d.allowed).length;
  if (reports.length > 1)
    context.out.write(
      `${reports.length} object(s): ${reports.length - denied} allowed, ${denied} denied (${configuration.webhookConfigurations.length} webhook configuration(s))\n`,
    );
}
