/**
 * `hookgate check-config`: every problem, one per line in the apiserver's wording, in file and line
 * order; exit 1 if any. Webhook configuration files without a GatewayConfiguration are checked on
 * their own. `-o json` prints the same as data.
 */
import { loadConfiguration, type ConfigError } from '@hookgate/config';
// The light entry: the gateway's index would load the whole server for one check.
import { checkServiceReferences } from '@hookgate/gateway/check-service-references';
import type { CliContext } from '../cli-command.js';
import { formatProblem, sortProblems } from '../config-problems.js';
import { summarizeConfiguration } from '../format.js';
import { colorsFor } from '../terminal.js';

/** The parsed `hookgate check-config` flags (check-config-flags.ts). */
export interface CheckConfigFlags {
  config: string;
  output: 'text' | 'json';
}

const STANDALONE_NOTE =
  'no GatewayConfiguration: checked as webhook configurations on their own (plugin names not checked; `hookgate serve` needs one)';

export async function checkConfigCommand(flags: CheckConfigFlags, context: CliContext): Promise<number> {
  const { config: path } = flags;
  const loaded = await loadConfiguration(path, { allowStandalone: true });
  const problems: ConfigError[] = loaded.ok ? [] : sortProblems(loaded.error);
  const standalone = loaded.ok && loaded.value.standalone === true;
  // Warnings, not errors: the Service may simply not exist yet where check-config runs.
  const warnings = loaded.ok ? await checkServiceReferences(loaded.value) : [];

  if (flags.output === 'json') {
    const report = {
      config: path,
      valid: loaded.ok,
      ...(standalone ? { standalone: true, note: STANDALONE_NOTE } : {}),
      ...(loaded.ok ? { summary: summarizeConfiguration(loaded.value) } : {}),
      problems,
      warnings,
    };
    context.out.write(`${JSON.stringify(report, null, 2)}\n`);
    return loaded.ok ? 0 : 1;
  }

  if (!loaded.ok) {
    const colors = colorsFor(context.err, context.env);
    for (const problem of problems) context.err.write(`${formatProblem(problem, colors)}\n`);
    context.err.write(`${path}: ${problems.length} problem(s)\n`);
    return 1;
  }
  const colors = colorsFor(context.out, context.env);
  if (standalone) context.out.write(`${colors.yellow('note:')} ${STANDALONE_NOTE}\n`);
  context.out.write(`${path}: ${colors.green('configuration is valid')}: ${summarizeConfiguration(loaded.value)}\n`);
  const warn = colorsFor(context.err, context.env).yellow('warning:');
  for (const w of warnings)
    context.err.write(`${warn} ${w.configuration} webhook "${w.hook}": service ${w.service}: ${w.message}\n`);
  return 0;
}
