/**
 * `npm run bench`: a realistic Pod review through `hookgate serve` and its plugins, against the same
 * hooks as plain webhooks called the way the apiserver calls them. Progress on stderr; the report
 * (a table, or JSON with --json) on stdout. See docs/performance.md.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { USAGE, parseCliOptions } from './cli-options.js';
import { formatReport } from './report/format-report.js';
import { runBench } from './run-bench.js';

let cli;
try {
  cli = parseCliOptions(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`bench: ${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
try {
  const report = await runBench({ ...cli.bench, progress: (line) => process.stderr.write(`${line}\n`) });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  // npm runs scripts in the package folder: a relative --save is relative to where npm was started.
  if (cli.save !== undefined) await writeFile(path.resolve(process.env['INIT_CWD'] ?? process.cwd(), cli.save), json);
  process.stdout.write(cli.json ? json : `${formatReport(report)}\n`);
} catch (error) {
  process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
}
