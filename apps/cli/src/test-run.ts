/**
 * Runs the cases of a `hookgate test` suite through a DryRun and compares what happened with what
 * each case expects. A case whose object cannot be read or turned into a request is an error, not
 * a failure: the suite is wrong, not the hooks.
 */
import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import type { LoadedConfiguration } from '@hookgate/config';
import type { DryRun } from '@hookgate/gateway';
import { parseAllDocuments } from 'yaml';
import { objectDiff } from './object-diff.js';
import { buildReviewReport, type ReviewReport } from './review-report.js';
import { reviewRequestOf } from './review-input.js';
import { PLAIN } from './terminal.js';
import type { Expectation, ObjectRef, TestCase, TestSuite } from './test-suite.js';

export interface CaseResult {
  readonly name: string;
  readonly status: 'passed' | 'failed' | 'error';
  /** What differed from the expectation (failed), or why the case could not run (error). */
  readonly problems: readonly string[];
  readonly durationMs: number;
  /** What the review found, when it ran. */
  readonly report?: ReviewReport;
}

export interface SuiteRun {
  readonly suite: TestSuite;
  readonly cases: readonly CaseResult[];
}

export async function runSuite(
  suite: TestSuite,
  dryRun: DryRun,
  configuration: LoadedConfiguration,
  onCase: (index: number, name: string) => void = () => undefined,
): Promise<SuiteRun> {
  const files = new Map<string, Promise<unknown[]>>();
  const cases: CaseResult[] = [];
  for (const [i, c] of suite.cases.entries()) {
    onCase(i, c.name);
    const started = performance.now();
    const result = await runCase(c, dryRun, configuration, files);
    cases.push({ name: c.name, ...result, durationMs: performance.now() - started });
  }
  return { suite, cases };
}

async function runCase(
  c: TestCase,
  dryRun: DryRun,
  configuration: LoadedConfiguration,
  files: Map<string, Promise<unknown[]>>,
): Promise<Omit<CaseResult, 'name' | 'durationMs'>> {
  const loaded = await Promise.all([c.object, c.oldObject, c.expect.object].map((r) => resolveRef(r, files)));
  const errors = loaded.flatMap((l) => (l.ok ? [] : [l.error]));
  if (errors.length > 0) return { status: 'error', problems: errors };
  const [object, old, expectedObject] = loaded.map((l) => (l.ok ? l.value : undefined));
  const request = reviewRequestOf(object, {
    operation: c.operation ?? (old !== undefined ? 'UPDATE' : 'CREATE'),
    user: c.user ?? 'hookgate-test',
    ...(old !== undefined ? { old } : {}),
    ...(c.namespace ? { namespace: c.namespace } : {}),
    ...(c.resource ? { resource: c.resource } : {}),
    ...(c.clusterScoped ? { clusterScoped: true } : {}),
    ...(c.dryRun ? { dryRun: true } : {}),
  });
  if (!request.ok) return { status: 'error', problems: [`object: ${request.error}`] };
  const result = await dryRun.review(request.request);
  const report = buildReviewReport(c.name, request.request, result, dryRun.hooks, configuration);
  const problems = compare(c.expect, report, expectedObject, dryRun);
  return { status: problems.length === 0 ? 'passed' : 'failed', problems, report };
}

/** Every way `report` differs from `expected`, worded for the person who wrote the case. */
export function compare(
  expected: Expectation,
  report: ReviewReport,
  expectedObject: unknown,
  dryRun: Pick<DryRun, 'hooks'>,
): string[] {
  const problems: string[] = [];
  const message = report.status?.message ?? '';
  if (expected.allowed !== undefined && expected.allowed !== report.allowed)
    problems.push(
      `expected ${expected.allowed ? 'allowed' : 'denied'}, got ${report.allowed ? 'allowed' : `denied: ${message}`}`,
    );
  if (expected.message !== undefined && !message.includes(expected.message))
    problems.push(`expected a message containing ${JSON.stringify(expected.message)}, got ${JSON.stringify(message)}`);
  if (expected.code !== undefined && report.status?.code !== expected.code)
    problems.push(`expected code ${expected.code}, got ${report.status?.code ?? 'none (allowed)'}`);
  const configured = new Set([...dryRun.hooks.mutating, ...dryRun.hooks.validating].map((h) => h.name));
  for (const h of expected.hooks) {
    if (!configured.has(h.hook)) {
      problems.push(`hook ${h.hook}: not in the configuration (configured: ${[...configured].sort().join(', ')})`);
      continue;
    }
    const verdicts = report.hooks.filter((v) => v.hook === h.hook);
    if (h.result !== undefined && !verdicts.some((v) => v.result === h.result))
      problems.push(
        `hook ${h.hook}: expected ${h.result}, got ${verdicts.map((v) => `${v.result}${v.reason ? ` (${v.reason})` : ''}`).join(', then ')}`,
      );
    if (h.message !== undefined && !verdicts.some((v) => v.reason?.includes(h.message!)))
      problems.push(
        `hook ${h.hook}: expected a message containing ${JSON.stringify(h.message)}, got ${verdicts.map((v) => JSON.stringify(v.reason ?? '')).join(', ')}`,
      );
  }
  if (expectedObject !== undefined && !isDeepStrictEqual(expectedObject, report.object)) {
    const diff = objectDiff({ before: 'expected', after: 'got' }, expectedObject, report.object, PLAIN);
    problems.push(`the patched object differs from the expected one:\n${diff}`);
  }
  return problems;
}

type Loaded = { ok: true; value: unknown } | { ok: false; error: string };

async function resolveRef(ref: ObjectRef | undefined, files: Map<string, Promise<unknown[]>>): Promise<Loaded> {
  if (ref === undefined) return { ok: true, value: undefined };
  if ('inline' in ref) return { ok: true, value: ref.inline };
  let docs = files.get(ref.file);
  if (docs === undefined) {
    docs = readFile(ref.file, 'utf8').then((text) => {
      const parsed = parseAllDocuments(text);
      const list = Array.isArray(parsed) ? parsed : [parsed];
      const broken = list.find((d) => d.errors.length > 0);
      if (broken) throw new Error(`not valid YAML or JSON: ${broken.errors[0]!.message}`);
      return list.map((d) => d.toJS({ maxAliasCount: 100 }) as unknown);
    });
    files.set(ref.file, docs);
  }
  try {
    const list = await docs;
    const value = list[ref.document - 1];
    if (value === undefined || value === null)
      return { ok: false, error: `${ref.file}: has no document ${ref.document} (it has ${list.length})` };
    return { ok: true, value };
  } catch (e) {
    return { ok: false, error: `${ref.file}: ${(e as Error).message}` };
  }
}
