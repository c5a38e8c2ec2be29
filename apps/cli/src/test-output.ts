/** `hookgate test` results as text (a person), JSON (a script) or JUnit XML (a CI server). */
import junit, { type Builder } from 'junit-report-builder';
import type { Colors } from './terminal.js';
import type { SuiteRun } from './test-run.js';

export function countResults(runs: readonly SuiteRun[]): { passed: number; failed: number; errors: number } {
  const all = runs.flatMap((r) => r.cases);
  return {
    passed: all.filter((c) => c.status === 'passed').length,
    failed: all.filter((c) => c.status === 'failed').length,
    errors: all.filter((c) => c.status === 'error').length,
  };
}

export function formatText(runs: readonly SuiteRun[], colors: Colors): string {
  const lines: string[] = [];
  for (const run of runs) {
    lines.push(colors.bold(`${run.suite.name} (${run.suite.file})`));
    for (const c of run.cases) {
      const mark =
        c.status === 'passed' ? colors.green('✓') : c.status === 'failed' ? colors.red('✗') : colors.red('!');
      lines.push(`  ${mark} ${c.name}${c.status === 'error' ? colors.red(' (error)') : ''}`);
      for (const p of c.problems) lines.push(...p.split('\n').map((l) => `      ${l}`));
    }
  }
  const { passed, failed, errors } = countResults(runs);
  const summary = `${passed} passed, ${failed} failed${errors > 0 ? `, ${errors} could not run` : ''}`;
  lines.push(failed + errors > 0 ? colors.red(summary) : colors.green(summary));
  return `${lines.join('\n')}\n`;
}

export function formatJson(runs: readonly SuiteRun[]): string {
  const data = {
    ...countResults(runs),
    suites: runs.map((run) => ({
      name: run.suite.name,
      file: run.suite.file,
      cases: run.cases.map((c) => ({
        name: c.name,
        // passed | failed | error; `status` below is the apiserver's Status of a denial.
        result: c.status,
        problems: c.problems,
        durationMs: Math.round(c.durationMs * 10) / 10,
        ...(c.report
          ? {
              allowed: c.report.allowed,
              ...(c.report.status ? { status: c.report.status } : {}),
              hooks: c.report.hooks,
              ...(c.report.object !== undefined ? { object: c.report.object } : {}),
            }
          : {}),
      })),
    })),
  };
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** One <testsuite> per suite file, one <testcase> per case; problems as <failure> or <error>. */
export function formatJunit(runs: readonly SuiteRun[]): string {
  // The package's types describe its ES build; Node loads the CommonJS one, whose default export is the builder.
  const builder = (junit as unknown as Builder).newBuilder();
  for (const run of runs) {
    const suite = builder.testSuite().name(run.suite.name);
    for (const c of run.cases) {
      const testCase = suite
        .testCase()
        .className(run.suite.name)
        .name(c.name)
        .file(run.suite.file)
        .time(c.durationMs / 1000);
      const text = c.problems.join('\n');
      if (c.status === 'failed') testCase.failure(text);
      else if (c.status === 'error') testCase.error(text);
    }
  }
  return `${builder.build()}\n`;
}
