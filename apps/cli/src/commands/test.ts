/**
 * `hookgate test`: suites of cases through the configured hooks, with the real transports and
 * plugins (used where running, else started from their command), each case compared with what it
 * expects. Exit 0 all passed, 1 a case failed or could not run, 2 a suite or configuration invalid.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { formatConfigError, loadConfiguration } from '@hookgate/config';
import { openDryRun } from '@hookgate/gateway';
import type { CliContext } from '../cli-command.js';
import { sortProblems } from '../config-problems.js';
import { preparePlugins } from '../plugin-launcher.js';
import { colorsFor, progressOn } from '../terminal.js';
import { countResults, formatJson, formatJunit, formatText } from '../test-output.js';
import { runSuite, type SuiteRun } from '../test-run.js';
import { readTestSuite, type TestSuite } from '../test-suite.js';

/** The parsed `hookgate test` flags (test-flags.ts). */
export interface TestFlags {
  config: string;
  /** --config was given on the command line: it wins over the suites' own `configuration`. */
  explicitConfig: boolean;
  output: 'text' | 'json' | 'junit';
}

/** The name a directory's suites have, as kyverno-test.yaml for `kyverno test DIR`. */
export const SUITE_FILE_NAME = 'hookgate-test.yaml';

export async function testCommand(paths: readonly string[], flags: TestFlags, context: CliContext): Promise<number> {
  const { err } = context;
  const files = await suiteFiles(paths, err);
  if (files === undefined) return 2;
  const suites: TestSuite[] = [];
  let invalid = false;
  for (const file of files) {
    const read = await readTestSuite(file);
    if (read.ok) suites.push(read.suite);
    else {
      invalid = true;
      for (const e of read.errors) err.write(`hookgate test: ${e}\n`);
    }
  }
  if (invalid) return 2;

  // Suites that test the same configuration share its plugins and connections.
  const byConfiguration = new Map<string, TestSuite[]>();
  for (const suite of suites) {
    const config = flags.explicitConfig ? flags.config : (suite.configuration ?? flags.config);
    byConfiguration.set(config, [...(byConfiguration.get(config) ?? []), suite]);
  }

  const runs: SuiteRun[] = [];
  const progress = progressOn(err, context.env, 'starting plugins');
  try {
    for (const [config, group] of byConfiguration) {
      const loaded = await loadConfiguration(config);
      if (!loaded.ok) {
        progress.done();
        err.write(`hookgate test: the configuration of ${group.map((s) => s.file).join(', ')}:\n`);
        for (const e of sortProblems(loaded.error)) err.write(`${formatConfigError(e)}\n`);
        return 2;
      }
      const prepared = await preparePlugins(loaded.value);
      try {
        for (const p of prepared.plugins.filter((p) => p.state === 'unavailable'))
          err.write(`warning: plugin ${p.name}: ${p.detail}; its hooks fail by their failurePolicy\n`);
        const dryRun = await openDryRun(prepared.configuration);
        try {
          for (const suite of group)
            runs.push(
              await runSuite(suite, dryRun, prepared.configuration, (i, name) =>
                progress.update(`${suite.name}: ${name} (${i + 1}/${suite.cases.length})`),
              ),
            );
        } finally {
          await dryRun.close();
        }
      } finally {
        await prepared.stop();
      }
    }
  } finally {
    progress.done();
  }

  const output =
    flags.output === 'json'
      ? formatJson(runs)
      : flags.output === 'junit'
        ? formatJunit(runs)
        : formatText(runs, colorsFor(context.out, context.env));
  context.out.write(output);
  const { failed, errors } = countResults(runs);
  return failed + errors > 0 ? 1 : 0;
}

/** The suite files: files as given, directories searched (recursively) for hookgate-test.yaml. */
async function suiteFiles(paths: readonly string[], err: NodeJS.WritableStream): Promise<string[] | undefined> {
  const files: string[] = [];
  let missing = false;
  for (const path of paths) {
    const info = await stat(path).catch((e: Error) => e);
    if (info instanceof Error) {
      err.write(`hookgate test: ${path}: cannot read: ${info.message}\n`);
      missing = true;
    } else if (!info.isDirectory()) files.push(path);
    else {
      const found = (await readdir(path, { recursive: true }))
        .filter((f) => f === SUITE_FILE_NAME || f.endsWith(`/${SUITE_FILE_NAME}`))
        .filter((f) => !f.split('/').includes('node_modules'))
        .sort()
        .map((f) => join(path, f));
      if (found.length === 0) {
        err.write(`hookgate test: ${path}: no ${SUITE_FILE_NAME} in the directory or below\n`);
        missing = true;
      }
      files.push(...found);
    }
  }
  return missing ? undefined : files;
}
